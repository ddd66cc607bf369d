/**
 * Company documents: uploads are checked by size and by what the bytes are (PDF, JPEG,
 * PNG), never by their name or declared type; stored in the database under a name the
 * server makes; read back only by their company or by staff.
 *
 * A document reaches the database in two steps. While its request is still running it is
 * written without a company (staged), a chunk of 256 KiB at a time; the request's final
 * transaction then links it to its company, which is quick because the bytes stay where
 * they are. So no statement ever writes megabytes at once (the embedded engine runs one
 * statement at a time for everyone, on the server's only thread), no file is ever whole
 * in memory, and a request that fails leaves nothing behind: its staged documents are
 * removed, and any a stopped process left are removed once they are old.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, sql, sum } from 'drizzle-orm';
import type { CompanyDocument, DocumentType } from '../../src/contracts/accounts.js';
import type { Db } from '../db/database.js';
import { companies, companyDocuments, documentChunks } from '../db/schema.js';
import { HttpError, notFound } from './errors.js';
import { documentWriter } from './upload-gate.js';
import type { SpooledFile } from './upload-spool.js';

/** Documents one company may keep: eight kinds, each replaced a few times after review. */
export const MAX_DOCUMENTS_PER_COMPANY = 30;
/**
 * Bytes of documents one company may keep: twenty files at the 5 MB maximum. Scans of
 * company papers are usually far smaller; the bound is against filling the database.
 */
export const MAX_DOCUMENT_BYTES_PER_COMPANY = 100 * 1024 * 1024;
/**
 * Bytes written by one statement. Small enough that the embedded engine is busy for a few
 * milliseconds at a time (a 5 MB statement held every other request for ~70 ms, far more
 * on a busy machine); large enough that a 5 MB file is twenty statements, not hundreds.
 */
export const DOCUMENT_CHUNK_BYTES = 256 * 1024;
/**
 * A staged document older than this belongs to no running request (one is linked or
 * removed within seconds of being written) and is removed.
 */
export const STAGED_DOCUMENT_MAX_AGE_MS = 60 * 60 * 1000;

const SIGNATURES: {
  type: 'application/pdf' | 'image/jpeg' | 'image/png';
  ext: string;
  bytes: number[];
}[] = [
  { type: 'application/pdf', ext: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/png', ext: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', ext: 'jpg', bytes: [0xff, 0xd8, 0xff] },
];

/** Bytes at the start of a file that decide what it is (the longest signature). */
export const SIGNATURE_BYTES = Math.max(...SIGNATURES.map((s) => s.bytes.length));

/** What a file really is, read from its first bytes; null when it is none of the accepted kinds. */
export function detectDocumentType(data: Buffer): (typeof SIGNATURES)[number] | null {
  return SIGNATURES.find((s) => s.bytes.every((byte, i) => data[i] === byte)) ?? null;
}

/** A file name safe to show and to send back in Content-Disposition. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // Control characters and quotes never reach a header or the page.
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (cleaned || 'document').slice(0, 200);
}

export const tooLarge = (name: string) =>
  new HttpError(
    413,
    `File ${name} is too large. Maximum size is 5MB.`,
    [
      {
        field: 'file',
        message: `File ${name} is too large. Maximum size is 5MB.`,
        code: 'fileTooLarge',
      },
    ],
    // The file's name as the client may show it, in its own words.
    { params: { name } },
  );
export const unsupported = (name: string) =>
  new HttpError(
    415,
    `File ${name} is not a supported format. Please upload PDF, JPG, or PNG files.`,
    [
      {
        field: 'file',
        message: `File ${name} is not a supported format. Please upload PDF, JPG, or PNG files.`,
        code: 'fileUnsupported',
      },
    ],
    { params: { name } },
  );

const quotaReached = () => {
  const message = `A company can keep at most ${MAX_DOCUMENTS_PER_COMPANY} documents of ${
    MAX_DOCUMENT_BYTES_PER_COMPANY / 1024 / 1024
  } MB in all. Please ask our team to remove old ones first.`;
  return new HttpError(409, message, [{ field: 'file', message }], {
    code: 'DOCUMENT_QUOTA_EXCEEDED',
    params: {
      max: MAX_DOCUMENTS_PER_COMPANY,
      megabytes: MAX_DOCUMENT_BYTES_PER_COMPANY / 1024 / 1024,
    },
  });
};

/** Every column but the bytes: what lists and answers need. */
export const DOCUMENT_COLUMNS = {
  id: companyDocuments.id,
  companyId: companyDocuments.companyId,
  type: companyDocuments.type,
  status: companyDocuments.status,
  originalName: companyDocuments.originalName,
  storedName: companyDocuments.storedName,
  contentType: companyDocuments.contentType,
  size: companyDocuments.size,
  reviewNotes: companyDocuments.reviewNotes,
  uploadedAt: companyDocuments.uploadedAt,
  reviewedAt: companyDocuments.reviewedAt,
  updatedAt: companyDocuments.updatedAt,
};

type DocumentRow = Omit<typeof companyDocuments.$inferSelect, 'data'>;

export function toDocumentDto(row: DocumentRow): CompanyDocument {
  return {
    id: row.id,
    type: row.type as DocumentType,
    status: row.status,
    originalName: row.originalName,
    filename: row.originalName,
    contentType: row.contentType,
    size: row.size,
    uploadedAt: row.uploadedAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    reviewNotes: row.reviewNotes,
  };
}

/** How many documents a company keeps and their bytes (linked documents only). */
async function documentUsage(db: Db, companyId: number): Promise<{ count: number; bytes: number }> {
  const [row] = await db
    .select({ count: count(), bytes: sum(companyDocuments.size).mapWith(Number) })
    .from(companyDocuments)
    .where(eq(companyDocuments.companyId, companyId));
  return { count: row?.count ?? 0, bytes: row?.bytes ?? 0 };
}

/**
 * Refuses (409, code DOCUMENT_QUOTA_EXCEEDED) when the company's documents and the
 * incoming ones would pass the quota. Called before reading an upload, to refuse a full
 * company at once, and again in the final transaction, where it counts for certain.
 */
export async function checkDocumentQuota(
  db: Db,
  companyId: number,
  incoming: { count: number; bytes: number } = { count: 1, bytes: 0 },
): Promise<void> {
  const usage = await documentUsage(db, companyId);
  if (
    usage.count + incoming.count > MAX_DOCUMENTS_PER_COMPANY ||
    usage.bytes + incoming.bytes > MAX_DOCUMENT_BYTES_PER_COMPANY
  ) {
    throw quotaReached();
  }
}

/**
 * Writes received files into the database without a company and answers their ids. One
 * request of a process writes at a time (the others wait their turn whole, so that they
 * finish in the order they came rather than all at the end), chunk by chunk. The bytes
 * travel as base64 text that the database decodes: the embedded engine turns a binary
 * parameter into hex one byte at a time, seconds and hundreds of megabytes for 5 MB.
 */
export async function stageDocuments(
  db: Db,
  files: readonly SpooledFile[],
  signal?: AbortSignal,
): Promise<number[]> {
  if (files.length === 0) return [];
  const ids: number[] = [];
  const release = await documentWriter.enter(signal);
  try {
    for (const file of files) {
      signal?.throwIfAborted();
      const [row] = await db
        .insert(companyDocuments)
        .values({
          companyId: null,
          type: file.type,
          originalName: file.originalName,
          storedName: `${randomUUID()}.${file.ext}`,
          contentType: file.contentType,
          size: file.size,
          data: sql`''::bytea`,
        })
        .returning({ id: companyDocuments.id });
      if (!row) throw new Error('The document could not be staged');
      ids.push(row.id);
      let seq = 0;
      const chunks = createReadStream(file.path, { highWaterMark: DOCUMENT_CHUNK_BYTES });
      for await (const chunk of chunks as AsyncIterable<Buffer>) {
        signal?.throwIfAborted();
        await db.insert(documentChunks).values({
          documentId: row.id,
          seq,
          data: sql`decode(${chunk.toString('base64')}, 'base64')`,
        });
        seq += 1;
      }
    }
  } catch (error) {
    await discardStagedDocuments(db, ids);
    throw error;
  } finally {
    release();
  }
  return ids;
}

/**
 * Links staged documents to their company, in the caller's transaction. With `quota`,
 * first locks the company and checks that the documents fit, so that two uploads at
 * once cannot both pass the quota.
 */
export async function attachDocuments(
  tx: Db,
  companyId: number,
  ids: readonly number[],
  { quota = false } = {},
): Promise<CompanyDocument[]> {
  if (ids.length === 0) return [];
  if (quota) {
    await tx
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.id, companyId))
      .for('update');
    const [incoming] = await tx
      .select({ count: count(), bytes: sum(companyDocuments.size).mapWith(Number) })
      .from(companyDocuments)
      .where(and(inArray(companyDocuments.id, [...ids]), isNull(companyDocuments.companyId)));
    await checkDocumentQuota(tx, companyId, {
      count: incoming?.count ?? 0,
      bytes: incoming?.bytes ?? 0,
    });
  }
  const now = new Date();
  const rows = await tx
    .update(companyDocuments)
    .set({ companyId, uploadedAt: now, updatedAt: now })
    .where(and(inArray(companyDocuments.id, [...ids]), isNull(companyDocuments.companyId)))
    .returning(DOCUMENT_COLUMNS);
  if (rows.length !== ids.length) throw new Error('A staged document is missing');
  const order = new Map(ids.map((id, index) => [id, index]));
  rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return rows.map(toDocumentDto);
}

/**
 * Removes staged documents that were not linked (all of them when the request failed),
 * and any staged document old enough to have been left by a process that stopped.
 */
export async function discardStagedDocuments(
  db: Db,
  ids: readonly number[],
  now = Date.now(),
): Promise<void> {
  const abandoned = lt(companyDocuments.uploadedAt, new Date(now - STAGED_DOCUMENT_MAX_AGE_MS));
  await db
    .delete(companyDocuments)
    .where(
      and(
        isNull(companyDocuments.companyId),
        ids.length > 0
          ? sql`(${inArray(companyDocuments.id, [...ids])} OR ${abandoned})`
          : abandoned,
      ),
    );
}

export async function listCompanyDocuments(db: Db, companyId: number): Promise<CompanyDocument[]> {
  const rows = await db
    .select(DOCUMENT_COLUMNS)
    .from(companyDocuments)
    .where(eq(companyDocuments.companyId, companyId))
    .orderBy(desc(companyDocuments.uploadedAt), desc(companyDocuments.id));
  return rows.map(toDocumentDto);
}

/**
 * A document's file; `companyId` limits it to that company's documents (null: staff).
 * The bytes are its chunks in order, after whatever the document row itself holds (all
 * of them for a document stored before chunks), read as base64 for the reason given at
 * `stageDocuments`.
 */
export async function readDocumentFile(db: Db, id: number, companyId: number | null) {
  const [row] = await db
    .select({
      contentType: companyDocuments.contentType,
      originalName: companyDocuments.originalName,
      inline: sql<string>`encode(${companyDocuments.data}, 'base64')`,
    })
    .from(companyDocuments)
    .where(
      companyId === null
        ? and(eq(companyDocuments.id, id), isNotNull(companyDocuments.companyId))
        : and(eq(companyDocuments.id, id), eq(companyDocuments.companyId, companyId)),
    );
  if (!row) throw notFound('Document not found');
  const chunks = await db
    .select({ data: sql<string>`encode(${documentChunks.data}, 'base64')` })
    .from(documentChunks)
    .where(eq(documentChunks.documentId, id))
    .orderBy(asc(documentChunks.seq));
  return {
    contentType: row.contentType,
    originalName: row.originalName,
    data: Buffer.concat(
      [row.inline, ...chunks.map((c) => c.data)].map((b) => Buffer.from(b, 'base64')),
    ),
  };
}
