/**
 * A company's own record and documents. Uploads stream to temporary files, are counted
 * against the company's quota, and are stored once per Idempotency-Key; a sales rep
 * uploads its customer's the same way (`uploadDocuments`, routes/sales-reps.ts).
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import { toCompanyDto } from '../services/accounts.js';
import {
  attachDocuments,
  checkDocumentQuota,
  cleanFileName,
  discardStagedDocuments,
  listCompanyDocuments,
  readDocumentFile,
  stageDocuments,
} from '../services/documents.js';
import { HttpError, notFound } from '../services/errors.js';
import { isRecorded, runIdempotent } from '../services/idempotency.js';
import { clientGone, withUploadSlot } from '../services/upload-gate.js';
import { readUploadForm } from '../services/upload-spool.js';
import { CompanyDocumentSchema, CompanySchema } from '../../src/contracts/accounts-schemas.js';
import { ErrorBodySchema, errorResponses, fileAnswer, IdParams } from './schemas.js';

/** Most files one upload may carry: one per document type. */
const MAX_UPLOAD_FILES = 8;

function companyIdOf(account: ReturnType<typeof accountOf>): number {
  if (!account.company) throw notFound('No company is linked to this account');
  return account.company.id;
}

/** A document's bytes, of the type read from them at upload (see sendDocument). */
export const DocumentFileAnswer = fileAnswer<Buffer>(
  "The document's bytes; Content-Disposition names the file.",
  ['application/pdf', 'image/jpeg', 'image/png', 'application/octet-stream'],
);

/** The schema of an upload of documents: multipart, and the answer with what was stored. */
export const DocumentUploadSchema = {
  consumes: ['multipart/form-data'],
  headers: Type.Object({
    'idempotency-key': Type.Optional(Type.String({ maxLength: 100 })),
  }),
  response: {
    201: Type.Object({
      message: Type.String(),
      documents: Type.Array(CompanyDocumentSchema),
    }),
    ...errorResponses,
    503: ErrorBodySchema,
  },
};

/**
 * An upload of a company's documents (docs/api.md#company), for the salon itself and for
 * its sales rep, by the signed-in caller, whose Idempotency-Key it honours:
 *
 * 1. Multipart only (415); a company at its quota is refused before a byte is read (409),
 *    unless the upload repeats one stored under its Idempotency-Key.
 * 2. In an upload slot: the files received to temporary files and checked (size, type).
 * 3. Staged in the database outside the transaction, then linked to the company with the
 *    key's record in one: all the files or none, the quota counted for certain.
 * 4. Staged copies a replay or a failure left, and the temporary files, removed before
 *    the answer.
 */
export async function uploadDocuments(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  companyId: number,
) {
  if (!request.isMultipart()) throw new HttpError(415, 'Send documents as multipart/form-data.');
  const key = request.headers['idempotency-key'] as string | undefined;
  // A repeat of an upload that was stored (its response lost) gets that response, not a refusal
  // for the room its own files took.
  if (!(await isRecorded(db, accountOf(request).user.id, key))) {
    await checkDocumentQuota(db, companyId);
  }
  const signal = clientGone(reply);
  return withUploadSlot(reply, signal, async () => {
    const form = await readUploadForm(request, { fields: [], maxFiles: MAX_UPLOAD_FILES });
    let staged: number[] = [];
    const stored = async () => {
      if (form.files.length === 0) throw new HttpError(400, 'Choose a file to upload.');
      staged = await stageDocuments(db, form.files, signal);
      return runIdempotent(
        db,
        {
          userId: accountOf(request).user.id,
          key,
          method: request.method,
          path: request.url.split('?')[0] ?? request.url,
          // The files as they were received: same fields, names and bytes, same request.
          body: form.fingerprint(),
        },
        async (tx) => {
          // Every file was received and checked: they are stored together or not at all.
          const documents = await attachDocuments(tx, companyId, staged, { quota: true });
          const names = documents.map((d) => d.originalName).join(', ');
          return {
            status: 201,
            body: { message: `Document ${names} uploaded successfully.`, documents },
          };
        },
      );
    };
    // Linked documents are kept; a replay's or a failure's copies are removed, before the
    // response: a client that asks next finds nothing left over.
    const result = await stored().finally(async () => {
      await discardStagedDocuments(db, staged);
      await form.discard();
    });
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(result.status).send(result.body);
  });
}

export const companyRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/companies/me',
    { schema: { response: { 200: Type.Object({ company: CompanySchema }), ...errorResponses } } },
    async (request) => {
      const account = accountOf(request);
      if (!account.company) throw notFound('No company is linked to this account');
      return { company: await toCompanyDto(db, account.company) };
    },
  );

  app.get(
    '/companies/me/documents',
    {
      schema: {
        response: {
          200: Type.Object({ documents: Type.Array(CompanyDocumentSchema) }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      documents: await listCompanyDocuments(db, companyIdOf(accountOf(request))),
    }),
  );

  app.post('/companies/me/documents', { schema: DocumentUploadSchema }, async (request, reply) =>
    uploadDocuments(db, request, reply, companyIdOf(accountOf(request))),
  );

  app.get(
    '/companies/me/documents/:id/file',
    { schema: { params: IdParams, response: { 200: DocumentFileAnswer, ...errorResponses } } },
    async (request, reply) => {
      const file = await readDocumentFile(db, request.params.id, companyIdOf(accountOf(request)));
      return sendDocument(reply, file);
    },
  );
};

/** What a document may be shown as in a page: the kinds an upload accepts, read from its bytes. */
const SHOWN_INLINE: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
};

/**
 * A document opened by itself (not through the staff screen, which shows it from memory)
 * runs nothing and loads nothing: a sandbox with no origin, pictures alone allowed.
 */
export const DOCUMENT_PREVIEW_CSP =
  "default-src 'none'; img-src 'self' data: blob:; object-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * The name a document is sent under: as it was uploaded (cleaned), ending with the
 * extension of what it really is, so that a saved copy opens as that.
 */
function downloadName(originalName: string, extension: string | undefined): string {
  const name = cleanFileName(originalName);
  if (!extension || name.toLowerCase().endsWith(`.${extension}`)) return name;
  if (extension === 'jpg' && /\.jpe?g$/i.test(name)) return name;
  return `${name}.${extension}`;
}

/**
 * Sends a document's bytes with the type it was stored with (checked by its first bytes
 * at upload). `inline` asks the browser to show it rather than save it; only a PDF, JPEG or
 * PNG is ever sent so, anything else goes as bytes to save.
 */
export function sendDocument(
  reply: FastifyReply,
  file: { contentType: string; originalName: string; data: Buffer },
  { inline = false }: { inline?: boolean } = {},
) {
  const extension = SHOWN_INLINE[file.contentType];
  const name = downloadName(file.originalName, extension);
  // A quoted name for old clients: printable ASCII only, no quote or backslash.
  const asciiName = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const shown = inline && extension !== undefined;
  return reply
    .type(extension ? file.contentType : 'application/octet-stream')
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', DOCUMENT_PREVIEW_CSP)
    .header(
      'content-disposition',
      `${shown ? 'inline' : 'attachment'}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    )
    .send(file.data);
}
