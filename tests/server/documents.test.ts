import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../src/contracts/accounts';
import { buildApp } from '../../server/app';
import { companyDocuments, users } from '../../server/db/schema';
import { ensureAdmin } from '../../server/services/admin';
import {
  bearer,
  JPEG,
  multipart,
  PDF,
  PNG,
  register,
  signIn,
  wizardFields,
  type Tokens,
} from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

async function signedInCompany(): Promise<{ tokens: Tokens; companyId: number }> {
  const { email, password, user } = await register(app);
  return { tokens: await signIn(app, email, password), companyId: user.companyId };
}

const upload = (tokens: Tokens, files: Parameters<typeof multipart>[1]) => {
  const body = multipart({}, files);
  return app.inject({
    method: 'POST',
    url: '/api/companies/me/documents',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(tokens) },
  });
};

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
    expect(
      response.json().documents.map((d: { type: string; status: string }) => [d.type, d.status]),
    ).toEqual(
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
    expect(response.json().documents[0]).toMatchObject({
      type: 'OTHER',
      contentType: 'image/png',
      originalName: 'scan.pdf',
    });
  });

  it('refuses a text file named .pdf with the spec message, storing nothing', async () => {
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
    expect(response.json().message).toBe(
      'File notes.pdf is not a supported format. Please upload PDF, JPG, or PNG files.',
    );
    expect(await documentsOf(companyId)).toEqual([]);
  });

  it('refuses a file of 5 MB and one byte with the spec message', async () => {
    const { tokens, companyId } = await signedInCompany();
    const big = Buffer.concat([PDF, Buffer.alloc(MAX_DOCUMENT_BYTES + 1 - PDF.length)]);
    const response = await upload(tokens, [
      { field: 'tradeRegister', filename: 'big.pdf', contentType: 'application/pdf', data: big },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('File big.pdf is too large. Maximum size is 5MB.');
    expect(await documentsOf(companyId)).toEqual([]);
  });

  it('accepts a file of exactly 5 MB', async () => {
    const { tokens } = await signedInCompany();
    const exact = Buffer.concat([PDF, Buffer.alloc(MAX_DOCUMENT_BYTES - PDF.length)]);
    const response = await upload(tokens, [
      {
        field: 'tradeRegister',
        filename: 'exact.pdf',
        contentType: 'application/pdf',
        data: exact,
      },
    ]);
    expect(response.statusCode).toBe(201);
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
    const [document] = uploaded.json().documents;

    const list = await app.inject({
      url: '/api/companies/me/documents',
      headers: bearer(owner.tokens),
    });
    expect(list.json().documents.map((d: { id: number }) => d.id)).toEqual([document.id]);
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
    expect(otherList.json().documents).toEqual([]);
  });

  it('lets staff review a document, and the company sees the review and its counts', async () => {
    await ensureAdmin(testDb.database.db, 'reviewer@example.com', 'Reviewer-Pass-1');
    const admin = await signIn(app, 'reviewer@example.com', 'Reviewer-Pass-1');
    const owner = await signedInCompany();
    const [document] = (
      await upload(owner.tokens, [
        { field: 'identityDocument', filename: 'id.png', contentType: 'image/png', data: PNG },
      ])
    ).json().documents;
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
    expect(rejected.json().document).toMatchObject({
      status: 'REJECTED',
      reviewNotes: 'The photo is blurred',
      reviewedAt: expect.any(String),
    });
    const company = await app.inject({ url: '/api/companies/me', headers: bearer(owner.tokens) });
    expect(company.json().company).toMatchObject({
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
    return app.inject({
      method: 'POST',
      url: '/api/auth/register-company',
      payload: body.payload,
      headers: body.headers,
    });
  };

  it('registers a pending company with its documents', async () => {
    const fields = wizardFields();
    const response = await send(fields, [
      { field: 'tradeRegister', filename: 'visura.pdf', contentType: 'application/pdf', data: PDF },
    ]);
    expect(response.statusCode).toBe(201);
    const { user, message } = response.json();
    expect(message).toMatch(/under review/);
    expect(user.company).toMatchObject({
      name: 'Capelli Rossi SRL',
      status: 'PENDING',
      isVerified: false,
    });
    expect(await documentsOf(user.companyId)).toHaveLength(1);
    const tokens = await signIn(app, fields.email, fields.password);
    const company = await app.inject({ url: '/api/companies/me', headers: bearer(tokens) });
    expect(company.json().company).toMatchObject({
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
    const fields = response.json().details.map((d: { field: string }) => d.field);
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
