/**
 * Company documents: uploads are checked by size and by what the bytes are (PDF, JPEG,
 * PNG), never by their name or declared type; stored in the database under a name the
 * server makes; read back only by their company or by staff.
 */
import { randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import { and, desc, eq } from 'drizzle-orm';
import {
  DOCUMENT_FIELDS,
  MAX_DOCUMENT_BYTES,
  type CompanyDocument,
  type DocumentField,
  type DocumentType,
} from '../../src/contracts/accounts.js';
import type { Db } from '../db/database.js';
import { companyDocuments } from '../db/schema.js';
import { HttpError, notFound } from './errors.js';

type DocumentRow = typeof companyDocuments.$inferSelect;

const SIGNATURES: {
  type: 'application/pdf' | 'image/jpeg' | 'image/png';
  ext: string;
  bytes: number[];
}[] = [
  { type: 'application/pdf', ext: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/png', ext: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', ext: 'jpg', bytes: [0xff, 0xd8, 0xff] },
];

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
  new HttpError(413, `File ${name} is too large. Maximum size is 5MB.`, [
    {
      field: 'file',
      message: `File ${name} is too large. Maximum size is 5MB.`,
      code: 'fileTooLarge',
    },
  ]);
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
  );

export interface CheckedUpload {
  type: DocumentType;
  originalName: string;
  contentType: string;
  ext: string;
  data: Buffer;
}

/** Reads one uploaded file completely and checks it; nothing is stored yet. */
export async function checkUpload(part: MultipartFile): Promise<CheckedUpload> {
  if (!(part.fieldname in DOCUMENT_FIELDS)) {
    part.file.resume();
    throw new HttpError(400, `Unknown document field: ${part.fieldname.slice(0, 50)}`);
  }
  const originalName = cleanFileName(part.filename);
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch {
    throw tooLarge(originalName);
  }
  if (part.file.truncated || data.length > MAX_DOCUMENT_BYTES) throw tooLarge(originalName);
  const kind = detectDocumentType(data);
  if (!kind) throw unsupported(originalName);
  return {
    type: DOCUMENT_FIELDS[part.fieldname as DocumentField],
    originalName,
    contentType: kind.type,
    ext: kind.ext,
    data,
  };
}

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

export async function storeDocuments(db: Db, companyId: number, uploads: CheckedUpload[]) {
  if (uploads.length === 0) return [];
  const rows = await db
    .insert(companyDocuments)
    .values(
      uploads.map((upload) => ({
        companyId,
        type: upload.type,
        originalName: upload.originalName,
        storedName: `${randomUUID()}.${upload.ext}`,
        contentType: upload.contentType,
        size: upload.data.length,
        data: upload.data,
      })),
    )
    .returning();
  return rows.map(toDocumentDto);
}

export async function listCompanyDocuments(db: Db, companyId: number): Promise<CompanyDocument[]> {
  const rows = await db
    .select()
    .from(companyDocuments)
    .where(eq(companyDocuments.companyId, companyId))
    .orderBy(desc(companyDocuments.uploadedAt), desc(companyDocuments.id));
  return rows.map(toDocumentDto);
}

/** A document's file; `companyId` limits it to that company's documents (null: staff). */
export async function readDocumentFile(db: Db, id: number, companyId: number | null) {
  const [row] = await db
    .select()
    .from(companyDocuments)
    .where(
      companyId === null
        ? eq(companyDocuments.id, id)
        : and(eq(companyDocuments.id, id), eq(companyDocuments.companyId, companyId)),
    );
  if (!row) throw notFound('Document not found');
  return row;
}
