import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import { toCompanyDto } from '../services/accounts.js';
import {
  checkUpload,
  listCompanyDocuments,
  readDocumentFile,
  storeDocuments,
  type CheckedUpload,
} from '../services/documents.js';
import { HttpError, notFound } from '../services/errors.js';
import { CompanySchema, DocumentSchema, IdParams } from './accounts-schemas.js';
import { errorResponses } from './schemas.js';

/** Most files one upload may carry: one per document type. */
const MAX_UPLOAD_FILES = 8;

function companyIdOf(account: ReturnType<typeof accountOf>): number {
  if (!account.company) throw notFound('No company is linked to this account');
  return account.company.id;
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
          200: Type.Object({ documents: Type.Array(DocumentSchema) }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      documents: await listCompanyDocuments(db, companyIdOf(accountOf(request))),
    }),
  );

  app.post(
    '/companies/me/documents',
    {
      schema: {
        consumes: ['multipart/form-data'],
        response: {
          201: Type.Object({ message: Type.String(), documents: Type.Array(DocumentSchema) }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const companyId = companyIdOf(accountOf(request));
      if (!request.isMultipart())
        throw new HttpError(415, 'Send documents as multipart/form-data.');
      const uploads: CheckedUpload[] = [];
      for await (const part of request.parts()) {
        if (part.type !== 'file') {
          throw new HttpError(
            400,
            `Invalid request: ${part.fieldname.slice(0, 50)} is not a known field`,
          );
        }
        if (uploads.length >= MAX_UPLOAD_FILES) throw new HttpError(400, 'Too many files.');
        uploads.push(await checkUpload(part));
      }
      if (uploads.length === 0) throw new HttpError(400, 'Choose a file to upload.');
      // Every file was read and checked: they are stored together or not at all.
      const documents = await db.transaction((tx) =>
        storeDocuments(tx as unknown as Db, companyId, uploads),
      );
      const names = uploads.map((u) => u.originalName).join(', ');
      return reply
        .status(201)
        .send({ message: `Document ${names} uploaded successfully.`, documents });
    },
  );

  app.get(
    '/companies/me/documents/:id/file',
    { schema: { params: IdParams } },
    async (request, reply) => {
      const file = await readDocumentFile(db, request.params.id, companyIdOf(accountOf(request)));
      return sendDocument(reply, file);
    },
  );
};

export function sendDocument(
  reply: import('fastify').FastifyReply,
  file: { contentType: string; originalName: string; data: Buffer },
) {
  const asciiName = file.originalName.replace(/[^\x20-\x7e]/g, '_');
  return reply
    .type(file.contentType)
    .header('cache-control', 'private, no-store')
    .header(
      'content-disposition',
      `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`,
    )
    .send(file.data);
}
