/**
 * Company documents: what is accepted and stored, how uploads stream (refused on their
 * first bytes, never left in temporary files), the quota, Idempotency-Key, the bound on
 * uploads at once, malformed forms, and who may read a document back.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_DOCUMENT_BYTES,
  type Company,
  type CompanyDocument,
  type CompanySummary,
} from '../../src/contracts/accounts';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { buildApp } from '../../server/app';
import { companyDocuments, documentChunks, users } from '../../server/db/schema';
import { ensureAdmin } from '../../server/services/admin';
import {
  DOCUMENT_CHUNK_BYTES,
  MAX_DOCUMENTS_PER_COMPANY,
  MAX_DOCUMENT_BYTES_PER_COMPANY,
  readDocumentFile,
} from '../../server/services/documents';
import {
  BUSY_RETRY_AFTER_SECONDS,
  Gate,
  GateBusy,
  MAX_CONCURRENT_UPLOADS,
  MAX_WAITING_UPLOADS,
  uploadGate,
} from '../../server/services/upload-gate';
import {
  bearer,
  JPEG,
  like,
  multipart,
  PDF,
  PNG,
  personPayload,
  signIn,
  wizardFields,
  type Tokens,
} from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

/** A temporary folder of this file's own: what the uploads leave behind is seen here. */
let uploadsTemp: string;
const systemTemp = process.env.TMPDIR;

beforeAll(async () => {
  uploadsTemp = await mkdtemp(join(tmpdir(), 'documents-test-'));
  process.env.TMPDIR = uploadsTemp;
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
  if (systemTemp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTemp;
  await rm(uploadsTemp, { recursive: true, force: true });
});

/** Each upload leaves no temporary file behind, stored or refused. */
afterEach(async () => {
  await waitUntil(async () => (await readdir(uploadsTemp)).length === 0);
  expect(await readdir(uploadsTemp)).toEqual([]);
});

async function waitUntil(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition()) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let addresses = 0;
/** A registered, signed-in company, each from an address of its own (registrations are limited). */
async function signedInCompany(): Promise<{ tokens: Tokens; companyId: number }> {
  const payload = personPayload();
  addresses += 1;
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload,
    remoteAddress: `192.0.2.${addresses}`,
  });
  expect(registered.statusCode).toBe(201);
  const tokens = await signIn(app, payload.email, payload.password);
  const me = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
  return { tokens, companyId: me.json<{ user: { companyId: number } }>().user.companyId };
}

const upload = (
  tokens: Tokens,
  files: Parameters<typeof multipart>[1],
  headers: Record<string, string> = {},
) => {
  const body = multipart({}, files);
  return app.inject({
    method: 'POST',
    url: '/api/companies/me/documents',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(tokens), ...headers },
  });
};

/** The documents an upload or a list answered with. */
const documentsIn = (response: { json: <Body>() => Body }) =>
  response.json<{ documents: CompanyDocument[] }>().documents;

/** The first document an upload answered with. */
function firstDocument(response: { json: <Body>() => Body; body: string }): CompanyDocument {
  const [document] = documentsIn(response);
  if (!document) throw new Error(`no document in ${response.body}`);
  return document;
}

const pdf = (field = 'tradeRegister', filename = 'registru.pdf', data = PDF) => ({
  field,
  filename,
  contentType: 'application/pdf',
  data,
});

const documentsOf = (companyId: number) =>
  testDb.database.db
    .select()
    .from(companyDocuments)
    .where(eq(companyDocuments.companyId, companyId));

describe('POST /api/companies/me/documents', () => {
  it('stores a PDF, a JPEG and a PNG with their types and a server-made name', async () => {
    const { tokens, companyId } = await signedInCompany();
    const response = await upload(tokens, [
      {
        field: 'tradeRegister',
        filename: 'registru.pdf',
        contentType: 'application/pdf',
        data: PDF,
      },
      { field: 'identityDocument', filename: 'id.jpg', contentType: 'image/jpeg', data: JPEG },
      { field: 'vatRegistration', filename: 'tva.png', contentType: 'image/png', data: PNG },
    ]);
    expect(response.statusCode).toBe(201);
    expect(documentsIn(response).map((d) => [d.type, d.status])).toEqual(
      expect.arrayContaining([
        ['TRADE_REGISTER', 'PENDING'],
        ['IDENTITY_DOCUMENT', 'PENDING'],
        ['VAT_REGISTRATION', 'PENDING'],
      ]),
    );
    const stored = await documentsOf(companyId);
    expect(stored).toHaveLength(3);
    for (const row of stored) expect(row.storedName).toMatch(/^[0-9a-f-]{36}\.(pdf|jpg|png)$/);
  });

  it('decides the type by content: a PNG named .pdf is stored as a PNG', async () => {
    const { tokens } = await signedInCompany();
    const response = await upload(tokens, [
      { field: 'otherDocument', filename: 'scan.pdf', contentType: 'application/pdf', data: PNG },
    ]);
    expect(response.statusCode).toBe(201);
    expect(documentsIn(response)[0]).toMatchObject({
      type: 'OTHER',
      contentType: 'image/png',
      originalName: 'scan.pdf',
    });
  });

  it('refuses a text file named .pdf with the documented message, storing nothing', async () => {
    const { tokens, companyId } = await signedInCompany();
    const response = await upload(tokens, [
      { field: 'tradeRegister', filename: 'ok.pdf', contentType: 'application/pdf', data: PDF },
      {
        field: 'vatRegistration',
        filename: 'notes.pdf',
        contentType: 'application/pdf',
        data: Buffer.from('just some text'),
      },
    ]);
    expect(response.statusCode).toBe(415);
    expect(response.json<ErrorBody>().message).toBe(
      'File notes.pdf is not a supported format. Please upload PDF, JPG, or PNG files.',
    );
    expect(await documentsOf(companyId)).toEqual([]);
  });

  it('refuses a file of 5 MB and one byte with the documented message', async () => {
    const { tokens, companyId } = await signedInCompany();
    const big = Buffer.concat([PDF, Buffer.alloc(MAX_DOCUMENT_BYTES + 1 - PDF.length)]);
    const response = await upload(tokens, [
      { field: 'tradeRegister', filename: 'big.pdf', contentType: 'application/pdf', data: big },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json<ErrorBody>().message).toBe(
      'File big.pdf is too large. Maximum size is 5MB.',
    );
    expect(await documentsOf(companyId)).toEqual([]);
  });

  it('accepts a file of exactly 5 MB and gives back exactly its bytes', async () => {
    const { tokens } = await signedInCompany();
    const exact = Buffer.concat([PDF, randomBytes(MAX_DOCUMENT_BYTES - PDF.length)]);
    const response = await upload(tokens, [
      {
        field: 'tradeRegister',
        filename: 'exact.pdf',
        contentType: 'application/pdf',
        data: exact,
      },
    ]);
    expect(response.statusCode).toBe(201);
    const document = firstDocument(response);
    expect(document.size).toBe(MAX_DOCUMENT_BYTES);
    const file = await app.inject({
      url: `/api/companies/me/documents/${document.id}/file`,
      headers: bearer(tokens),
    });
    expect(file.rawPayload.equals(exact)).toBe(true);
    // Written a chunk at a time: no statement carries the whole file.
    const chunks = await testDb.database.db
      .select({ seq: documentChunks.seq })
      .from(documentChunks)
      .where(eq(documentChunks.documentId, document.id));
    expect(chunks).toHaveLength(Math.ceil(MAX_DOCUMENT_BYTES / DOCUMENT_CHUNK_BYTES));
  });

  it('gives back a document stored whole in its row, as before chunks', async () => {
    const { tokens, companyId } = await signedInCompany();
    await storeDirectly(companyId, 1);
    const [document] = await documentsOf(companyId);
    const file = await app.inject({
      url: `/api/companies/me/documents/${document?.id}/file`,
      headers: bearer(tokens),
    });
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('refuses an unknown field name and an upload without a file', async () => {
    const { tokens } = await signedInCompany();
    expect(
      (
        await upload(tokens, [
          { field: 'virus', filename: 'a.pdf', contentType: 'application/pdf', data: PDF },
        ])
      ).statusCode,
    ).toBe(400);
    expect((await upload(tokens, [])).statusCode).toBe(400);
  });

  it('is refused without a session', async () => {
    const body = multipart({}, [
      { field: 'tradeRegister', filename: 'a.pdf', contentType: 'application/pdf', data: PDF },
    ]);
    const response = await app.inject({
      method: 'POST',
      url: '/api/companies/me/documents',
      payload: body.payload,
      headers: body.headers,
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('reading documents', () => {
  it('lists and downloads one’s own, never another company’s', async () => {
    const owner = await signedInCompany();
    const other = await signedInCompany();
    const uploaded = await upload(owner.tokens, [
      {
        field: 'tradeRegister',
        filename: 'registru comerț.pdf',
        contentType: 'application/pdf',
        data: PDF,
      },
    ]);
    const document = firstDocument(uploaded);

    const list = await app.inject({
      url: '/api/companies/me/documents',
      headers: bearer(owner.tokens),
    });
    expect(documentsIn(list).map((d) => d.id)).toEqual([document.id]);
    const file = await app.inject({
      url: `/api/companies/me/documents/${document.id}/file`,
      headers: bearer(owner.tokens),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('application/pdf');
    expect(file.headers['content-disposition']).toContain('attachment');
    expect(file.headers['content-disposition']).toContain(
      "filename*=UTF-8''registru%20comer%C8%9B.pdf",
    );
    expect(file.rawPayload.equals(PDF)).toBe(true);

    const stolen = await app.inject({
      url: `/api/companies/me/documents/${document.id}/file`,
      headers: bearer(other.tokens),
    });
    expect(stolen.statusCode).toBe(404);
    const otherList = await app.inject({
      url: '/api/companies/me/documents',
      headers: bearer(other.tokens),
    });
    expect(documentsIn(otherList)).toEqual([]);
  });

  it('lets staff review a document, and the company sees the review and its counts', async () => {
    await ensureAdmin(testDb.database.db, 'reviewer@example.com', 'Reviewer-Pass-1');
    const admin = await signIn(app, 'reviewer@example.com', 'Reviewer-Pass-1');
    const owner = await signedInCompany();
    const document = firstDocument(
      await upload(owner.tokens, [
        { field: 'identityDocument', filename: 'id.png', contentType: 'image/png', data: PNG },
      ]),
    );
    const file = await app.inject({
      url: `/api/admin/documents/${document.id}/file`,
      headers: bearer(admin),
    });
    expect(file.statusCode).toBe(200);
    const rejected = await app.inject({
      method: 'POST',
      url: `/api/admin/documents/${document.id}/reject`,
      payload: { reviewNotes: 'The photo is blurred' },
      headers: bearer(admin),
    });
    expect(rejected.json<{ document: CompanyDocument }>().document).toMatchObject({
      status: 'REJECTED',
      reviewNotes: 'The photo is blurred',
      reviewedAt: like.any(String),
    });
    const company = await app.inject({ url: '/api/companies/me', headers: bearer(owner.tokens) });
    expect(company.json<{ company: Company }>().company).toMatchObject({
      documentsUploaded: 1,
      documentsRejected: 1,
      documentsVerified: 0,
    });
    const userFile = await app.inject({
      url: `/api/admin/documents/${document.id}/file`,
      headers: bearer(owner.tokens),
    });
    expect(userFile.statusCode).toBe(403);
  });
});

describe('POST /api/auth/register-company', () => {
  const send = (fields: Record<string, string>, files: Parameters<typeof multipart>[1] = []) => {
    const body = multipart(fields, files);
    addresses += 1;
    return app.inject({
      method: 'POST',
      url: '/api/auth/register-company',
      payload: body.payload,
      headers: body.headers,
      remoteAddress: `192.0.2.${addresses}`,
    });
  };

  it('registers a pending company with its documents', async () => {
    const fields = wizardFields();
    const response = await send(fields, [
      { field: 'tradeRegister', filename: 'visura.pdf', contentType: 'application/pdf', data: PDF },
    ]);
    expect(response.statusCode).toBe(201);
    expect(response.json<{ message: string }>().message).toMatch(/under review/);
    const tokens = await signIn(app, fields.email, fields.password);
    const me = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
    const { user } = me.json<{ user: { companyId: number; company: CompanySummary } }>();
    expect(user.company).toMatchObject({
      name: 'Capelli Rossi SRL',
      status: 'PENDING',
      isVerified: false,
    });
    const stored = await documentsOf(user.companyId);
    expect(stored).toHaveLength(1);
    const file = await readDocumentFile(testDb.database.db, stored[0]?.id ?? 0, null);
    expect(file.data.equals(PDF)).toBe(true);
    const company = await app.inject({ url: '/api/companies/me', headers: bearer(tokens) });
    expect(company.json<{ company: Company }>().company).toMatchObject({
      country: 'Italy',
      city: 'Milano',
      postalCode: '20100',
      registrationNumber: 'MI-123456',
    });
  });

  it('names the fields of every step that are wrong', async () => {
    const response = await send(
      wizardFields({
        lastName: '',
        companyPhone: '',
        city: '',
        country: 'Atlantis',
        confirmPassword: 'other',
      }),
    );
    expect(response.statusCode).toBe(400);
    const fields = response.json<ErrorBody>().details?.map((d) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining(['lastName', 'confirmPassword', 'companyPhone', 'city', 'country']),
    );
  });

  it('creates nothing when a document is refused', async () => {
    const fields = wizardFields();
    const response = await send(fields, [
      {
        field: 'tradeRegister',
        filename: 'x.pdf',
        contentType: 'application/pdf',
        data: Buffer.from('hello'),
      },
    ]);
    expect(response.statusCode).toBe(415);
    expect(
      await testDb.database.db.select().from(users).where(eq(users.email, fields.email)),
    ).toEqual([]);
  });

  it('refuses unknown fields such as a status', async () => {
    const response = await send({ ...wizardFields(), status: 'APPROVED' });
    expect(response.statusCode).toBe(400);
  });
});

/** A multipart body sent as a stream that the test ends (or never ends). */
function streamedUpload(tokens: Tokens, headers: Record<string, string> = {}) {
  const boundary = 'streamed-upload-boundary';
  const body = new PassThrough();
  const response = app.inject({
    method: 'POST',
    url: '/api/companies/me/documents',
    payload: body,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...bearer(tokens),
      ...headers,
    },
  });
  const fileHeader = (field: string, name: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`;
  return { body, response, fileHeader, boundary };
}

const stagedDocuments = () =>
  testDb.database.db.select().from(companyDocuments).where(isNull(companyDocuments.companyId));

/** Documents written straight into the database, to bring a company to its quota. */
async function storeDirectly(companyId: number, count: number, size = PDF.length) {
  await testDb.database.db.insert(companyDocuments).values(
    Array.from({ length: count }, (_, i) => ({
      companyId,
      type: 'OTHER',
      originalName: `old-${i}.pdf`,
      storedName: `${companyId}-${i}-${Date.now()}.pdf`,
      contentType: 'application/pdf',
      size,
      data: PDF,
    })),
  );
}

describe('uploads are streamed', () => {
  it('refuses a file of another kind on its first bytes, before the rest of it arrives', async () => {
    const { tokens, companyId } = await signedInCompany();
    const { body, response, fileHeader } = streamedUpload(tokens);
    body.write(fileHeader('tradeRegister', 'photo.pdf'));
    // A GIF's first bytes, then more that never ends: the answer must not wait for it.
    body.write(Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(256 * 1024)]));
    const answer = await response;
    body.destroy();
    expect(answer.statusCode).toBe(415);
    expect(answer.json()).toMatchObject({
      message: 'File photo.pdf is not a supported format. Please upload PDF, JPG, or PNG files.',
      details: [{ field: 'file', code: 'fileUnsupported' }],
    });
    expect(await documentsOf(companyId)).toEqual([]);
  });

  it('stores exactly the bytes received, checked on their first bytes even when they come one by one', async () => {
    const { tokens, companyId } = await signedInCompany();
    const { body, response, fileHeader, boundary } = streamedUpload(tokens);
    body.write(fileHeader('identityDocument', 'id.png'));
    for (const byte of PNG.subarray(0, 12)) body.write(Buffer.from([byte]));
    body.write(PNG.subarray(12));
    body.end(`\r\n--${boundary}--\r\n`);
    const answer = await response;
    expect(answer.statusCode).toBe(201);
    const [stored] = await documentsOf(companyId);
    expect(stored).toMatchObject({ contentType: 'image/png', size: PNG.length });
    const file = await readDocumentFile(testDb.database.db, stored?.id ?? 0, null);
    expect(file.data.equals(PNG)).toBe(true);
  });

  it('leaves no staged document behind when a later file is refused', async () => {
    const { tokens, companyId } = await signedInCompany();
    const response = await upload(tokens, [
      pdf(),
      pdf('vatRegistration', 'tva.pdf', Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0x25)),
    ]);
    expect(response.statusCode).toBe(415);
    expect(await documentsOf(companyId)).toEqual([]);
    expect(await stagedDocuments()).toEqual([]);
  });

  it('removes what it received of an upload whose client goes away', async () => {
    const { tokens, companyId } = await signedInCompany();
    const { body, response, fileHeader } = streamedUpload(tokens);
    body.write(fileHeader('tradeRegister', 'half.pdf'));
    body.write(Buffer.concat([PDF, Buffer.alloc(512 * 1024)]));
    await waitUntil(async () => (await readdir(uploadsTemp)).length > 0);
    expect(await readdir(uploadsTemp)).not.toEqual([]);
    body.destroy(new Error('connection reset'));
    const answer = await response.catch((error: Error) => error);
    if (!(answer instanceof Error)) expect(answer.statusCode).toBeLessThan(500);
    await waitUntil(async () => (await readdir(uploadsTemp)).length === 0);
    expect(await readdir(uploadsTemp)).toEqual([]);
    expect(await documentsOf(companyId)).toEqual([]);
  });
});

describe('the document quota', () => {
  it(`refuses a company holding ${MAX_DOCUMENTS_PER_COMPANY} documents with a 409 before reading its upload`, async () => {
    const { tokens, companyId } = await signedInCompany();
    await storeDirectly(companyId, MAX_DOCUMENTS_PER_COMPANY);
    const { body, response, fileHeader } = streamedUpload(tokens);
    body.write(fileHeader('otherDocument', 'one-more.pdf'));
    body.write(PDF);
    const answer = await response;
    body.destroy();
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({
      code: 'DOCUMENT_QUOTA_EXCEEDED',
      message: like.stringContaining(`at most ${MAX_DOCUMENTS_PER_COMPANY} documents`),
      details: [{ field: 'file' }],
    });
    expect(await documentsOf(companyId)).toHaveLength(MAX_DOCUMENTS_PER_COMPANY);
  });

  it('refuses an upload that would pass the quota, storing none of its files', async () => {
    const { tokens, companyId } = await signedInCompany();
    await storeDirectly(companyId, MAX_DOCUMENTS_PER_COMPANY - 1);
    const response = await upload(tokens, [pdf(), pdf('vatRegistration', 'tva.pdf')]);
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().code).toBe('DOCUMENT_QUOTA_EXCEEDED');
    expect(await documentsOf(companyId)).toHaveLength(MAX_DOCUMENTS_PER_COMPANY - 1);
    expect(await stagedDocuments()).toEqual([]);
    expect((await upload(tokens, [pdf()])).statusCode).toBe(201);
  });

  it('names the limits for the client to say them in its language', async () => {
    const { tokens, companyId } = await signedInCompany();
    await storeDirectly(companyId, MAX_DOCUMENTS_PER_COMPANY);
    const response = await upload(tokens, [pdf()]);
    expect(response.json<ErrorBody>()).toMatchObject({
      code: 'DOCUMENT_QUOTA_EXCEEDED',
      params: {
        max: MAX_DOCUMENTS_PER_COMPANY,
        megabytes: MAX_DOCUMENT_BYTES_PER_COMPANY / 1024 / 1024,
      },
    });
  });

  it('lets a company at its limit upload again once staff removed an old document', async () => {
    await ensureAdmin(testDb.database.db, 'reviewer@example.com', 'Reviewer-Pass-1');
    const admin = await signIn(app, 'reviewer@example.com', 'Reviewer-Pass-1');
    const { tokens, companyId } = await signedInCompany();
    await storeDirectly(companyId, MAX_DOCUMENTS_PER_COMPANY);
    expect((await upload(tokens, [pdf()])).statusCode).toBe(409);
    const [old] = await documentsOf(companyId);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/admin/documents/${old?.id}`,
      headers: bearer(admin),
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ deleted: old?.id });
    expect((await upload(tokens, [pdf()])).statusCode).toBe(201);
    expect(await documentsOf(companyId)).toHaveLength(MAX_DOCUMENTS_PER_COMPANY);
    // The company's own list no longer names it, and its file is gone.
    const list = await app.inject({ url: '/api/companies/me/documents', headers: bearer(tokens) });
    expect(list.json<{ documents: CompanyDocument[] }>().documents.map((d) => d.id)).not.toContain(
      old?.id,
    );
    const file = await app.inject({
      url: `/api/admin/documents/${old?.id}/file`,
      headers: bearer(admin),
    });
    expect(file.statusCode).toBe(404);
  });

  it('counts bytes too: a company holding the byte quota is refused', async () => {
    const { tokens, companyId } = await signedInCompany();
    await storeDirectly(companyId, 1, MAX_DOCUMENT_BYTES_PER_COMPANY);
    const response = await upload(tokens, [pdf()]);
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().code).toBe('DOCUMENT_QUOTA_EXCEEDED');
  });
});

describe('Idempotency-Key on uploads', () => {
  it('stores one document for two uploads with one key, and answers the second the same', async () => {
    const { tokens, companyId } = await signedInCompany();
    const headers = { 'idempotency-key': 'upload-key-0001' };
    const first = await upload(tokens, [pdf()], headers);
    const second = await upload(tokens, [pdf()], headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await documentsOf(companyId)).toHaveLength(1);
    expect(await stagedDocuments()).toEqual([]);
  });

  it('sends a repeat of the upload that filled the quota its response, not a refusal', async () => {
    const { tokens, companyId } = await signedInCompany();
    await storeDirectly(companyId, MAX_DOCUMENTS_PER_COMPANY - 1);
    const headers = { 'idempotency-key': 'upload-key-0003' };
    const first = await upload(tokens, [pdf()], headers);
    expect(first.statusCode).toBe(201);
    // Its response was lost on the way: the device sends the same upload again.
    const again = await upload(tokens, [pdf()], headers);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await documentsOf(companyId)).toHaveLength(MAX_DOCUMENTS_PER_COMPANY);
    // Another upload is refused.
    const another = await upload(tokens, [pdf()], { 'idempotency-key': 'upload-key-0004' });
    expect(another.json<ErrorBody>().code).toBe('DOCUMENT_QUOTA_EXCEEDED');
  });

  it('answers 422 to the same key with other files, and stores nothing more', async () => {
    const { tokens, companyId } = await signedInCompany();
    const headers = { 'idempotency-key': 'upload-key-0002' };
    expect((await upload(tokens, [pdf()], headers)).statusCode).toBe(201);
    const otherBytes = await upload(
      tokens,
      [pdf('tradeRegister', 'registru.pdf', Buffer.concat([PDF, Buffer.from('%% v2')]))],
      headers,
    );
    expect(otherBytes.statusCode).toBe(422);
    expect(otherBytes.json<ErrorBody>().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherField = await upload(tokens, [pdf('vatRegistration')], headers);
    expect(otherField.statusCode).toBe(422);
    expect(await documentsOf(companyId)).toHaveLength(1);
    expect(await stagedDocuments()).toEqual([]);
  });
});

describe('malformed upload forms', () => {
  const raw = (tokens: Tokens, body: string | Buffer, contentType: string) =>
    app.inject({
      method: 'POST',
      url: '/api/companies/me/documents',
      payload: body,
      headers: { 'content-type': contentType, ...bearer(tokens) },
    });
  const part = (boundary: string, field: string, content: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"${
      filename ? `; filename="${filename}"\r\nContent-Type: application/pdf` : ''
    }\r\n\r\n${content}\r\n`;

  it('answers 4xx JSON, never 500, to a body without boundary, cut short or not multipart at all', async () => {
    const { tokens, companyId } = await signedInCompany();
    const b = 'raw-boundary';
    const cases: [string, string][] = [
      [
        part(b, 'tradeRegister', PDF.toString('latin1'), 'a.pdf') + `--${b}--\r\n`,
        'multipart/form-data',
      ],
      [
        `--${b}\r\nContent-Disposition: form-data; name="tradeRegister"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut`,
        `multipart/form-data; boundary=${b}`,
      ],
      [`--${b}\r\nContent-Dispo`, `multipart/form-data; boundary=${b}`],
      ['just some text', `multipart/form-data; boundary=${b}`],
    ];
    for (const [body, contentType] of cases) {
      const response = await raw(tokens, body, contentType);
      expect(response.statusCode, body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, body).toBeLessThan(500);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json<ErrorBody>().message).toEqual(expect.any(String));
    }
    expect(await documentsOf(companyId)).toEqual([]);
  });

  it('names a text field the upload does not take', async () => {
    const { tokens } = await signedInCompany();
    const b = 'raw-boundary';
    const response = await raw(
      tokens,
      part(b, 'status', 'APPROVED') +
        part(b, 'tradeRegister', '%PDF-1.4', 'a.pdf') +
        `--${b}--\r\n`,
      `multipart/form-data; boundary=${b}`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().details).toEqual([
      { field: 'status', message: 'is not a known field' },
    ]);
  });

  it('refuses more than eight files with a 413 naming the file field', async () => {
    const { tokens, companyId } = await signedInCompany();
    const response = await upload(
      tokens,
      Array.from({ length: 9 }, (_, i) => pdf('otherDocument', `doc-${i}.pdf`)),
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      message: 'At most 8 files can be sent at once.',
      // Named, so that the app says it in the user's language.
      code: 'TOO_MANY_FILES',
      params: { max: 8 },
      details: [{ field: 'file' }],
    });
    expect(await documentsOf(companyId)).toEqual([]);
  });
});

describe('uploads at once', () => {
  /** Takes every slot of the upload gate; the returned function gives them back. */
  async function takeEverySlot(): Promise<() => void> {
    const releases = await Promise.all(
      Array.from({ length: MAX_CONCURRENT_UPLOADS }, () => uploadGate.enter()),
    );
    return () => releases.forEach((release) => release());
  }

  it('lets an upload wait for a slot and go ahead when one is freed', async () => {
    const { tokens, companyId } = await signedInCompany();
    const release = await takeEverySlot();
    const waiting = upload(tokens, [pdf()]);
    await waitUntil(() => uploadGate.load.waiting === 1);
    expect(uploadGate.load.waiting).toBe(1);
    release();
    expect((await waiting).statusCode).toBe(201);
    expect(await documentsOf(companyId)).toHaveLength(1);
    await waitUntil(() => uploadGate.load.active === 0);
    expect(uploadGate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('answers 503 with Retry-After when every slot and the whole queue are taken', async () => {
    const { tokens, companyId } = await signedInCompany();
    const release = await takeEverySlot();
    // Each waiter gives its slot back as soon as it gets one.
    const queued = Array.from({ length: MAX_WAITING_UPLOADS }, () =>
      uploadGate.enter().then((next) => next()),
    );
    const response = await upload(tokens, [pdf()]);
    release();
    await Promise.all(queued);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(response.json()).toMatchObject({
      message: like.stringContaining('try again'),
      retryAfter: BUSY_RETRY_AFTER_SECONDS,
    });
    expect(await documentsOf(companyId)).toEqual([]);
    expect(uploadGate.load).toEqual({ active: 0, waiting: 0 });
  });
});

describe('the upload gate', () => {
  it('refuses at once past its queue, and a waiter after its longest wait', async () => {
    const gate = new Gate({ slots: 1, queue: 1, maxWaitMs: 50 });
    const release = await gate.enter();
    const waiter = gate.enter();
    await expect(gate.enter()).rejects.toBeInstanceOf(GateBusy);
    await expect(waiter).rejects.toBeInstanceOf(GateBusy);
    expect(gate.load).toEqual({ active: 1, waiting: 0 });
    release();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('forgets a waiter whose client went away, and counts a slot given back twice once', async () => {
    const gate = new Gate({ slots: 1, queue: 5, maxWaitMs: Infinity });
    const release = await gate.enter();
    const gone = new AbortController();
    const waiter = gate.enter(gone.signal);
    const next = gate.enter();
    gone.abort(new Error('gone'));
    await expect(waiter).rejects.toThrow('gone');
    release();
    release();
    expect(gate.load).toEqual({ active: 1, waiting: 0 });
    (await next)();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});
