/**
 * The back office's reads and company edits through /api/admin: the dashboard's counts,
 * the list of companies (search, filter, sort, pages), a company's page and its history,
 * corrections of a company's data, and who may call any of it.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, registeredRoutes } from '../../server/app';
import {
  auditLog,
  boothDetails,
  categories,
  companies,
  companyDocuments,
  mailQueue,
  products,
  users,
} from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { DOCUMENT_PREVIEW_CSP } from '../../server/routes/companies';
import { startOfDay, yearOf } from '../../server/services/dashboard';
import { openSession } from '../../server/services/sessions';
import { createStaff } from '../../server/services/staff';
import { inTransaction } from '../../server/services/transactions';
import type {
  AdminCompanyDetail,
  AdminCompanyPage,
  AdminSummary,
} from '../../src/contracts/admin-schemas';
import { companyDocument, order, salon, staffMember, type Staff } from './factories';
import type { Company } from '../../src/contracts/accounts';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { bearer, JPEG, like, multipart, PDF, PNG, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Staff;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  staff = await staffMember(app, testDb.database.db, 'office.staff@example.com');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

const get = (url: string, tokens: Tokens = staff.tokens) =>
  app.inject({ url, headers: bearer(tokens) });

function send(method: 'POST' | 'PATCH', url: string, payload: object = {}, key?: string) {
  return app.inject({
    method,
    url,
    payload,
    headers: { ...bearer(staff.tokens), ...(key ? { 'idempotency-key': key } : {}) },
  });
}

async function summary(): Promise<AdminSummary> {
  const response = await get('/api/admin/summary');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AdminSummary>();
}

describe('the business day', () => {
  it.each([
    ['a winter afternoon', '2026-01-15T12:00:00Z', '2026-01-14T22:00:00.000Z'],
    ['a summer afternoon', '2026-07-15T12:00:00Z', '2026-07-14T21:00:00.000Z'],
    ['half an hour after midnight', '2026-07-01T21:30:00Z', '2026-07-01T21:00:00.000Z'],
    ['a minute before midnight', '2026-07-01T20:59:00Z', '2026-06-30T21:00:00.000Z'],
    ['midnight itself', '2026-07-01T21:00:00Z', '2026-07-01T21:00:00.000Z'],
    ['the day summer time starts', '2026-03-29T09:00:00Z', '2026-03-28T22:00:00.000Z'],
    ['the day summer time ends', '2026-10-25T09:00:00Z', '2026-10-24T21:00:00.000Z'],
  ])('starts at midnight in Bucharest on %s', (_when, now, midnight) => {
    expect(startOfDay(new Date(now)).toISOString()).toBe(midnight);
  });

  it.each([
    ['2026-12-31T21:59:00Z', 2026],
    ['2026-12-31T22:30:00Z', 2027],
    ['2027-01-01T00:30:00Z', 2027],
  ])("gives an order placed at %s the year of Bucharest's calendar, %i", (now, year) => {
    expect(yearOf(new Date(now))).toBe(year);
  });
});

describe('GET /api/admin/summary', () => {
  it('counts what waits for staff, and the orders placed since midnight in Bucharest', async () => {
    const before = await summary();
    const waiting = await salon(db());
    await companyDocument(db(), waiting.companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'registru.pdf',
    });
    // Still being uploaded: not yet a document to review.
    await db()
      .insert(companyDocuments)
      .values({
        type: 'OTHER',
        originalName: 'half.pdf',
        storedName: `${randomUUID()}.pdf`,
        contentType: 'application/pdf',
        size: PDF.length,
        data: PDF,
      });
    const buyer = await salon(db(), { status: 'APPROVED', isVerified: true });
    const midnight = startOfDay(new Date());
    await order(db(), buyer, { total: '120.50' });
    await order(db(), buyer, { status: 'CONFIRMED', total: '10.25', createdAt: midnight });
    await order(db(), buyer, { status: 'CANCELLED', total: '99.00' });
    await order(db(), buyer, {
      status: 'CONFIRMED',
      total: '7.00',
      createdAt: new Date(midnight.getTime() - 1),
    });
    const [plenty] = await db()
      .select({ id: products.id })
      .from(products)
      .where(gte(products.stock, 10))
      .limit(1);
    await db()
      .update(products)
      .set({ stock: 3 })
      .where(eq(products.id, plenty?.id ?? 0));

    // Details typed at a booth: two open for one company count it once; a settled one not.
    await db()
      .insert(boothDetails)
      .values([
        { companyId: waiting.companyId, repId: waiting.userId, details: { city: 'Turda' } },
        { companyId: waiting.companyId, repId: waiting.userId, details: { address: 'Str. 1' } },
        {
          companyId: buyer.companyId,
          repId: waiting.userId,
          details: { city: 'Dej' },
          settledAt: new Date(),
          settledAs: 'dismissed',
        },
      ]);

    const after = await summary();
    expect(after).toEqual({
      companiesPending: before.companiesPending + 1,
      documentsToReview: before.documentsToReview + 1,
      ordersToConfirm: before.ordersToConfirm + 1,
      productsLowStock: before.productsLowStock + 1,
      boothDetailsToReview: before.boothDetailsToReview + 1,
      today: {
        orders: before.today.orders + 2,
        value: Math.round((before.today.value + 130.75) * 100) / 100,
        currency: 'EUR',
      },
    });
  });

  it('is for staff only', async () => {
    const buyer = await salon(db());
    expect((await app.inject({ url: '/api/admin/summary' })).statusCode).toBe(401);
    expect((await get('/api/admin/summary', buyer.tokens)).statusCode).toBe(403);
  });
});

/** A word no other company of the file has: a test's companies are found by it alone. */
const marker = () => `m${randomUUID().slice(0, 8)}`;

/** Companies made for one test, in the order given. */
async function companiesNamed(...rows: Partial<typeof companies.$inferInsert>[]) {
  const ids: number[] = [];
  for (const fields of rows) ids.push((await salon(db(), fields)).companyId);
  return ids;
}

async function companyPage(query: string): Promise<AdminCompanyPage> {
  const response = await get(`/api/admin/companies?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AdminCompanyPage>();
}

const idsOf = async (query: string) => (await companyPage(query)).companies.map((c) => c.id);

describe('GET /api/admin/companies', () => {
  it('finds a part of the name, tax number, e-mail or city, whatever its case', async () => {
    const word = marker();
    const found = await companiesNamed(
      { name: `Salon ${word} Alfa` },
      { name: 'Studio Beta', taxNumber: `RO-${word.toUpperCase()}` },
      { name: 'Atelier Gamma', email: `office@${word}.example` },
      { name: 'Barbershop Delta', city: `Orașul ${word.toUpperCase()}` },
    );
    await companiesNamed({ name: 'Not Found SRL', address: `Strada ${word}` });
    const search = encodeURIComponent(`  ${word.toUpperCase()} `);
    expect((await idsOf(`search=${search}`)).sort()).toEqual([...found].sort());
    expect(await idsOf(`search=${encodeURIComponent(`ORAȘUL ${word}`)}`)).toEqual([found[3]]);
  });

  it('finds a name or city typed without its diacritics, and with them where it has none', async () => {
    const word = marker();
    const [stefan, brasov, caffe] = await companiesNamed(
      { name: `Salon Ștefan ${word}` },
      { name: `Coafor ${word}`, city: 'Brașov' },
      { name: `Caffè Țărână ${word}` },
    );
    const found = async (search: string) =>
      (await idsOf(`search=${encodeURIComponent(search)}`)).filter((id) =>
        [stefan, brasov, caffe].includes(id),
      );
    expect(await found(`salon stefan ${word}`)).toEqual([stefan]);
    expect(await found(`SALON ȘTEFAN ${word}`)).toEqual([stefan]);
    expect(await found('brasov')).toEqual([brasov]);
    expect(await found(`caffe taran`)).toEqual([caffe]);
    // Typed with a diacritic the name lacks, or another one: still the same letters.
    expect(await found(`coafor ${word}`)).toEqual([brasov]);
    expect(await found(`Caffé Țarana ${word}`)).toEqual([caffe]);
  });

  it('filters by status, also together with a search, as ?status= always did', async () => {
    const word = marker();
    const [pending, approved] = await companiesNamed(
      { name: `${word} pending` },
      { name: `${word} approved`, status: 'APPROVED', isVerified: true },
      { name: `${word} suspended`, status: 'SUSPENDED' },
    );
    expect(await idsOf(`search=${word}&status=APPROVED`)).toEqual([approved]);
    expect(await idsOf(`search=${word}&status=PENDING`)).toEqual([pending]);
    const onlyPending = await companyPage('status=PENDING&limit=100');
    expect(onlyPending.companies.every((c) => c.status === 'PENDING')).toBe(true);
    expect(onlyPending.companies.map((c) => c.id)).toContain(pending);
  });

  it('finds the companies with a document waiting for review, whatever their status', async () => {
    const word = marker();
    const [waiting, rejected, reviewed] = await companiesNamed(
      { name: `${word} waiting` },
      { name: `${word} rejected`, status: 'REJECTED' },
      { name: `${word} reviewed`, status: 'APPROVED', isVerified: true },
      { name: `${word} without documents` },
    );
    const file = { data: PDF, contentType: 'application/pdf', originalName: 'registru.pdf' };
    for (const id of [waiting, rejected, reviewed]) await companyDocument(db(), id ?? 0, file);
    await db()
      .update(companyDocuments)
      .set({ status: 'APPROVED' })
      .where(eq(companyDocuments.companyId, reviewed ?? 0));
    expect((await idsOf(`search=${word}&documents=PENDING`)).sort()).toEqual(
      [waiting, rejected].sort(),
    );
    expect(await idsOf(`search=${word}&documents=PENDING&status=REJECTED`)).toEqual([rejected]);
    expect((await get('/api/admin/companies?documents=APPROVED')).statusCode).toBe(400);
  });

  it('takes % and _ in a search as the characters they are', async () => {
    const word = marker();
    const [percent, , underscore, , backslash] = await companiesNamed(
      { name: `${word} 100% Bio` },
      { name: `${word} 1000 Bio` },
      { name: `${word} x_y` },
      { name: `${word} xzy` },
      { name: `${word} a\\b` },
    );
    expect(await idsOf(`search=${encodeURIComponent(`${word} 100%`)}`)).toEqual([percent]);
    expect(await idsOf(`search=${encodeURIComponent(`${word} x_y`)}`)).toEqual([underscore]);
    expect(await idsOf(`search=${encodeURIComponent(`${word} a\\`)}`)).toEqual([backslash]);
    const everyPercent = await companyPage('search=%25&limit=100');
    expect(everyPercent.companies.map((c) => c.id)).toContain(percent);
    for (const company of everyPercent.companies) {
      expect(`${company.name} ${company.taxNumber} ${company.email} ${company.city}`).toContain(
        '%',
      );
    }
  });

  it('sorts by date, name or status either way, the id breaking ties', async () => {
    const word = marker();
    const day = (n: number) => new Date(Date.UTC(2025, 0, n));
    const [a, b, c, d] = await companiesNamed(
      { name: `${word} beta`, status: 'APPROVED', isVerified: true, createdAt: day(3) },
      { name: `${word} Alfa`, status: 'PENDING', createdAt: day(1) },
      { name: `${word} Beta`, status: 'PENDING', createdAt: day(3) },
      { name: `${word} gamma`, status: 'APPROVED', isVerified: true, createdAt: day(2) },
    );
    const sorted = (query: string) => idsOf(`search=${word}&${query}`);
    expect(await sorted('')).toEqual([c, a, d, b]);
    expect(await sorted('sortBy=createdAt&sortOrder=desc')).toEqual([c, a, d, b]);
    expect(await sorted('sortOrder=asc')).toEqual([b, d, a, c]);
    expect(await sorted('sortBy=name&sortOrder=asc')).toEqual([b, a, c, d]);
    expect(await sorted('sortBy=name&sortOrder=desc')).toEqual([d, c, a, b]);
    expect(await sorted('sortBy=status&sortOrder=asc')).toEqual([d, a, b, c]);
    expect(await sorted('sortBy=status')).toEqual([c, b, a, d]);
  });

  it('answers a page at a time: the last page, and an empty one past the end', async () => {
    const word = marker();
    const made = await companiesNamed(...[1, 2, 3, 4, 5].map((n) => ({ name: `${word} ${n}` })));
    const newestFirst = [...made].reverse();
    const first = await companyPage(`search=${word}&limit=2`);
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    const second = await companyPage(`search=${word}&limit=2&page=2`);
    const last = await companyPage(`search=${word}&limit=2&page=3`);
    expect(last.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3 });
    expect([...first.companies, ...second.companies, ...last.companies].map((x) => x.id)).toEqual(
      newestFirst,
    );
    expect(await companyPage(`search=${word}&limit=2&page=4`)).toEqual({
      companies: [],
      pagination: { page: 4, limit: 2, total: 5, totalPages: 3 },
    });
    expect((await companyPage(`search=${word}`)).pagination).toEqual({
      page: 1,
      limit: 20,
      total: 5,
      totalPages: 1,
    });
    expect((await companyPage(`search=${marker()}`)).pagination).toEqual({
      page: 1,
      limit: 20,
      total: 0,
      totalPages: 0,
    });
  });

  it('refuses what its query does not know, saying which field', async () => {
    for (const [query, field] of [
      ['sortBy=email', 'sortBy'],
      ['sortOrder=up', 'sortOrder'],
      ['status=pending', 'status'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      [`search=${'x'.repeat(201)}`, 'search'],
      ['city=Cluj', 'city'],
    ]) {
      const response = await get(`/api/admin/companies?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<ErrorBody>().details, query).toEqual([like.objectContaining({ field })]);
    }
  });
});

async function detail(companyId: number): Promise<AdminCompanyDetail> {
  const response = await get(`/api/admin/companies/${companyId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AdminCompanyDetail>();
}

const companyRow = async (id: number) =>
  (await db().select().from(companies).where(eq(companies.id, id)))[0];

const entriesOf = (companyId: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'company'), eq(auditLog.entityId, companyId)));

describe('GET /api/admin/companies/:id', () => {
  it('shows the company, its documents and people, and what staff did to them, newest first', async () => {
    const buyer = await salon(db());
    const documentId = await companyDocument(db(), buyer.companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'registru.pdf',
    });
    const orderId = await order(db(), buyer);
    const path = `/api/admin/companies/${buyer.companyId}`;
    expect((await send('POST', `${path}/approve`)).statusCode).toBe(200);
    const reject = await send('POST', `/api/admin/documents/${documentId}/reject`, {
      reviewNotes: 'Blurred',
    });
    expect(reject.statusCode).toBe(200);
    // An order's changes are in the log under the company, but not in its history.
    const confirm = await send('POST', `/api/admin/orders/${orderId}/status`, {
      status: 'CONFIRMED',
    });
    expect(confirm.statusCode).toBe(200);
    expect((await send('PATCH', path, { city: 'Brașov' })).statusCode).toBe(200);

    const shown = await detail(buyer.companyId);
    expect(shown.company).toMatchObject({
      id: buyer.companyId,
      status: 'APPROVED',
      city: 'Brașov',
      documentsUploaded: 1,
      documentsRejected: 1,
    });
    expect(shown.documents).toEqual([
      expect.objectContaining({ id: documentId, status: 'REJECTED', reviewNotes: 'Blurred' }),
    ]);
    expect(shown.users).toEqual([
      {
        id: buyer.userId,
        email: like.any(String),
        emailVerified: false,
        firstName: 'Ana',
        lastName: 'Ionescu',
      },
    ]);
    expect(shown.history.map((entry) => [entry.action, entry.entityId])).toEqual([
      ['company.edit', buyer.companyId],
      ['document.reject', documentId],
      ['company.approve', buyer.companyId],
    ]);
    expect(shown.history[0]).toMatchObject({
      actor: { id: staff.id, email: staff.email },
      before: { city: '' },
      after: { city: 'Brașov' },
    });
  });

  it('names the other companies registered with the same tax number, written any way', async () => {
    const number = String(Date.now()).slice(-9);
    const [first, second, third] = await companiesNamed(
      { name: 'Salon Unu', taxNumber: `RO ${number}`, city: 'Cluj-Napoca' },
      { name: 'Salon Doi', taxNumber: number, status: 'APPROVED', isVerified: true },
      { name: 'Salon Trei', taxNumber: `ro${number}` },
      { name: 'Salon Patru', taxNumber: `${number}1` },
    );
    expect((await detail(third ?? 0)).sameTaxNumber).toEqual([
      { id: first, name: 'Salon Unu', city: 'Cluj-Napoca', status: 'PENDING' },
      { id: second, name: 'Salon Doi', city: '', status: 'APPROVED' },
    ]);
    // Companies without a tax number are not one another's.
    const [blank] = await companiesNamed({ taxNumber: '' }, { taxNumber: '' });
    expect((await detail(blank ?? 0)).sameTaxNumber).toEqual([]);
  });

  it('shows the newest 50 entries of the history', async () => {
    const { companyId } = await salon(db());
    const start = Date.UTC(2025, 5, 1);
    await db()
      .insert(auditLog)
      .values(
        Array.from({ length: 55 }, (_, n) => ({
          at: new Date(start + n * 60_000),
          actorId: staff.id,
          actorEmail: staff.email,
          actorName: 'Staff Admin',
          action: 'company.edit' as const,
          entityType: 'company' as const,
          entityId: companyId,
          companyId,
          before: { phone: String(n) },
          after: { phone: String(n + 1) },
        })),
      );
    const { history } = await detail(companyId);
    expect(history).toHaveLength(50);
    expect(history[0]?.after).toEqual({ phone: '55' });
    expect(history[49]?.after).toEqual({ phone: '6' });
  });

  it('answers 404 for a company that does not exist', async () => {
    const response = await get('/api/admin/companies/2000000000');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Company not found' });
  });
});

describe('PATCH /api/admin/companies/:id', () => {
  it('changes the fields whose value differs, and records those alone, before and after', async () => {
    const { companyId } = await salon(db(), {
      name: 'Salon Vechi',
      city: 'Cluj-Napoca',
      phone: '+40 264 555 010',
    });
    const response = await send('PATCH', `/api/admin/companies/${companyId}`, {
      name: '  Salon Nou ',
      city: 'Cluj-Napoca',
      phone: '+40 264 555 010',
      website: 'salon-nou.example',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ company: Company }>().company).toMatchObject({
      id: companyId,
      name: 'Salon Nou',
      city: 'Cluj-Napoca',
      website: 'salon-nou.example',
    });
    const entries = await entriesOf(companyId);
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'company.edit',
        actorId: staff.id,
        companyId,
        before: { name: 'Salon Vechi', website: '' },
        after: { name: 'Salon Nou', website: 'salon-nou.example' },
        note: '',
      }),
    ]);
  });

  it('changes and records nothing when every value sent is the one kept, and still answers 200', async () => {
    const { companyId } = await salon(db(), { name: 'Salon Acelasi', city: 'Iași' });
    const before = await companyRow(companyId);
    const response = await send('PATCH', `/api/admin/companies/${companyId}`, {
      name: ' Salon Acelasi ',
      city: 'Iași',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ company: Company }>().company).toMatchObject({
      name: 'Salon Acelasi',
      city: 'Iași',
    });
    expect(await companyRow(companyId)).toEqual(before);
    expect(await entriesOf(companyId)).toEqual([]);
  });

  it('refuses an e-mail that is not one, an empty name or a field it does not know, changing nothing', async () => {
    const { companyId } = await salon(db(), {
      name: 'Salon Corect',
      email: 'office@corect.example',
    });
    const before = await companyRow(companyId);
    const url = `/api/admin/companies/${companyId}`;
    for (const [payload, field, code] of [
      [{ name: 'Salon Nou', email: 'not-an-address' }, 'email', 'emailFormat'],
      // Empty or blank, the same message: the form's rule, not a malformed body.
      [{ name: '   ' }, 'name', 'companyRequired'],
      [{ name: '' }, 'name', 'companyRequired'],
      [{ website: 'not a website' }, 'website', 'websiteInvalid'],
      [{ phone: 'call me' }, 'phone', 'phoneInvalid'],
      [{ status: 'APPROVED' }, 'status', undefined],
      [{}, '', undefined],
    ] as const) {
      const response = await send('PATCH', url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = response.json<{
        message: string;
        details: { field: string; code?: string }[];
      }>();
      if (code) {
        expect(body.details).toEqual([expect.objectContaining({ field, code })]);
      } else {
        expect(body.message).toMatch(/^Invalid request/);
      }
    }
    expect(await companyRow(companyId)).toEqual(before);
    expect(await entriesOf(companyId)).toEqual([]);
  });

  it('answers 404 for a company that does not exist', async () => {
    const response = await send('PATCH', '/api/admin/companies/2000000000', { name: 'Salon' });
    expect(response.statusCode).toBe(404);
  });

  it('changes once and records once when replayed with the same Idempotency-Key', async () => {
    const { companyId } = await salon(db(), { city: 'Arad' });
    const key = randomUUID();
    const url = `/api/admin/companies/${companyId}`;
    const first = await send('PATCH', url, { city: 'Timișoara' }, key);
    const again = await send('PATCH', url, { city: 'Timișoara' }, key);
    expect(first.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await entriesOf(companyId)).toHaveLength(1);
    const reused = await send('PATCH', url, { city: 'Oradea' }, key);
    expect(reused.statusCode).toBe(422);
    expect((await companyRow(companyId))?.city).toBe('Timișoara');
  });
});

describe('DELETE /api/admin/documents/:id', () => {
  it('removes the document for good, and the audit log keeps what it was', async () => {
    const buyer = await salon(db());
    const documentId = await companyDocument(db(), buyer.companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'registru vechi.pdf',
    });
    const reject = await send('POST', `/api/admin/documents/${documentId}/reject`, {
      reviewNotes: 'Expired',
    });
    expect(reject.statusCode).toBe(200);
    const remove = () =>
      app.inject({
        method: 'DELETE',
        url: `/api/admin/documents/${documentId}`,
        headers: bearer(staff.tokens),
      });
    expect((await remove()).statusCode).toBe(200);

    const shown = await detail(buyer.companyId);
    expect(shown.documents).toEqual([]);
    expect(shown.company.documentsUploaded).toBe(0);
    expect(shown.history[0]).toMatchObject({
      action: 'document.remove',
      entityId: documentId,
      actor: { id: staff.id },
      before: { type: 'TRADE_REGISTER', status: 'REJECTED', originalName: 'registru vechi.pdf' },
      after: null,
    });
    // The log still names the document, in this entry and the ones before it.
    expect(shown.history.map((entry) => [entry.action, entry.entityLabel])).toEqual([
      ['document.remove', 'registru vechi.pdf'],
      ['document.reject', 'registru vechi.pdf'],
    ]);
    // Removed already (by another member of staff): not found, and nothing more is logged.
    const again = await remove();
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: 'Document not found' });
    expect((await detail(buyer.companyId)).history).toHaveLength(2);
  });
});

describe('GET /api/admin/documents/:id/file', () => {
  const file = async (data: Buffer, contentType: string, originalName: string) => {
    const { companyId } = await salon(db());
    const id = await companyDocument(db(), companyId, { data, contentType, originalName });
    return get(`/api/admin/documents/${id}/file`);
  };

  it.each([
    [
      'a PDF',
      PDF,
      'application/pdf',
      'registru comerț.pdf',
      `inline; filename="registru comer_.pdf"; filename*=UTF-8''registru%20comer%C8%9B.pdf`,
    ],
    [
      'a JPEG',
      JPEG,
      'image/jpeg',
      'buletin.JPEG',
      `inline; filename="buletin.JPEG"; filename*=UTF-8''buletin.JPEG`,
    ],
    // Named without its extension: it gets the one of what it is.
    ['a PNG', PNG, 'image/png', 'scan', `inline; filename="scan.png"; filename*=UTF-8''scan.png`],
  ])(
    'sends %s to be shown in the page, with its real type, a safe name and a sandbox',
    async (_kind, data, contentType, originalName, disposition) => {
      const response = await file(data, contentType, originalName);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(contentType);
      expect(response.headers['content-disposition']).toBe(disposition);
      expect(response.headers['content-security-policy']).toBe(DOCUMENT_PREVIEW_CSP);
      expect(DOCUMENT_PREVIEW_CSP).toMatch(/\bsandbox\b/);
      expect(DOCUMENT_PREVIEW_CSP).toContain("default-src 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.rawPayload.equals(data)).toBe(true);
    },
  );

  it('sends anything else as bytes to save, never to be shown', async () => {
    const response = await file(Buffer.from('<script>alert(1)</script>'), 'text/html', 'page.html');
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="page.html"/);
    expect(response.headers['content-security-policy']).toBe(DOCUMENT_PREVIEW_CSP);
  });

  it('keeps quotes, line breaks and folders out of the name it sends', async () => {
    const response = await file(PDF, 'application/pdf', 'C:\\scans\\act "nou"\r\n.pdf');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="act nou.pdf"; filename*=UTF-8''act%20nou.pdf`,
    );
  });

  it('answers 404 for a document that does not exist', async () => {
    expect((await get('/api/admin/documents/2000000000/file')).statusCode).toBe(404);
  });
});

interface StaffCall {
  url: string;
  payload?: object | Buffer;
  headers?: Record<string, string>;
  status?: number;
}

/** The catalogue's routes (services/admin-catalogue.ts), each on a product made for it. */
function catalogueCalls(): Record<string, () => Promise<StaffCall>> {
  const product = async (images: string[] = []) => {
    const [row] = await db()
      .insert(products)
      .values({
        sku: `G-${randomUUID().slice(0, 8).toUpperCase()}`,
        name: 'Guarded',
        categoryId: 1,
        price: '1.00',
        images,
        searchText: 'guarded',
        nameKey: 'guarded',
      })
      .returning({ id: products.id });
    return row?.id ?? 0;
  };
  const categoryIds = async () =>
    (await db().select({ id: categories.id }).from(categories).orderBy(categories.position)).map(
      (row) => row.id,
    );
  const names = { ro: 'Paza', en: 'Guard', it: 'Guardia' };
  return {
    'GET /api/admin/products': () => Promise.resolve({ url: '/api/admin/products?stock=low' }),
    'POST /api/admin/products': () =>
      Promise.resolve({
        url: '/api/admin/products',
        payload: {
          sku: `N-${randomUUID().slice(0, 8).toUpperCase()}`,
          price: 3,
          stock: 1,
          categoryId: 1,
          tags: [],
          texts: {
            ro: { name: 'Nou', shortDescription: '', description: '' },
            en: { name: '', shortDescription: '', description: '' },
            it: { name: '', shortDescription: '', description: '' },
          },
        },
        status: 201,
      }),
    'GET /api/admin/products/:id': async () => ({ url: `/api/admin/products/${await product()}` }),
    'PATCH /api/admin/products/:id': async () => ({
      url: `/api/admin/products/${await product()}`,
      payload: { stock: 7 },
    }),
    'DELETE /api/admin/products/:id': async () => ({
      url: `/api/admin/products/${await product()}`,
    }),
    'POST /api/admin/products/:id/activate': async () => ({
      url: `/api/admin/products/${await product()}/activate`,
    }),
    'POST /api/admin/products/:id/deactivate': async () => ({
      url: `/api/admin/products/${await product()}/deactivate`,
    }),
    'POST /api/admin/products/:id/pictures': async () => {
      const form = multipart({}, [
        { field: 'file', filename: 'p.png', contentType: 'image/png', data: TINY_PNG },
      ]);
      return {
        url: `/api/admin/products/${await product()}/pictures`,
        payload: form.payload,
        headers: form.headers,
        status: 201,
      };
    },
    'PUT /api/admin/products/:id/pictures': async () => ({
      url: `/api/admin/products/${await product(['/uploads/products/a.svg', '/uploads/products/b.svg'])}/pictures`,
      payload: { images: ['/uploads/products/b.svg', '/uploads/products/a.svg'] },
    }),
    'DELETE /api/admin/products/:id/pictures/:file': async () => ({
      url: `/api/admin/products/${await product(['/uploads/products/a.svg'])}/pictures/a.svg`,
    }),
    'GET /api/admin/categories': () => Promise.resolve({ url: '/api/admin/categories' }),
    'POST /api/admin/categories': () =>
      Promise.resolve({ url: '/api/admin/categories', payload: { names }, status: 201 }),
    'PATCH /api/admin/categories/:id': async () => ({
      url: `/api/admin/categories/${(await categoryIds())[0]}`,
      payload: { names: { ...names, ro: `Paza ${randomUUID()}` } },
    }),
    'PUT /api/admin/categories/order': async () => ({
      url: '/api/admin/categories/order',
      payload: { ids: await categoryIds() },
    }),
  };
}

/** The smallest real PNG: one transparent pixel. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('every /api/admin route', () => {
  it('answers 401 to a visitor, 403 to a salon and a sales rep, and 200 to staff', async () => {
    const buyer = await salon(db(), { status: 'APPROVED', isVerified: true });
    const company = (fields: Parameters<typeof salon>[1] = {}) =>
      salon(db(), fields).then((made) => made.companyId);
    const document = async () =>
      companyDocument(db(), await company(), {
        data: PDF,
        contentType: 'application/pdf',
        originalName: 'registru.pdf',
      });
    const colleague = async () =>
      (
        await inTransaction(db(), (tx) =>
          createStaff(
            tx,
            { firstName: 'Co', lastName: 'Lleague', email: `c.${randomUUID()}@example.com` },
            { commandLine: 'test' },
          ),
        )
      ).member.id;
    const rep = await openSession(
      db(),
      (
        await inTransaction(db(), (tx) =>
          createStaff(
            tx,
            {
              firstName: 'Rep',
              lastName: 'Only',
              email: `rep.${randomUUID()}@example.com`,
              role: 'SALES_REP',
            },
            { commandLine: 'test' },
          ),
        )
      ).member.id,
    );
    /** A request each route answers 200 (or `status`) to when staff send it, on rows made for it. */
    const calls: Record<string, () => Promise<StaffCall>> = {
      'GET /api/admin/summary': () => Promise.resolve({ url: '/api/admin/summary' }),
      'GET /api/admin/companies': () =>
        Promise.resolve({ url: '/api/admin/companies?status=PENDING' }),
      'GET /api/admin/companies/:id': () =>
        Promise.resolve({ url: `/api/admin/companies/${buyer.companyId}` }),
      'PATCH /api/admin/companies/:id': async () => ({
        url: `/api/admin/companies/${await company()}`,
        payload: { city: 'Sibiu' },
      }),
      'POST /api/admin/companies/:id/approve': async () => ({
        url: `/api/admin/companies/${await company()}/approve`,
      }),
      'PUT /api/admin/companies/:id/sales-rep': async () => ({
        url: `/api/admin/companies/${await company()}/sales-rep`,
        payload: { salesRepId: null },
      }),
      'POST /api/admin/companies/:id/reject': async () => ({
        url: `/api/admin/companies/${await company()}/reject`,
        payload: { reason: 'Unknown tax number' },
      }),
      'POST /api/admin/companies/:id/suspend': async () => ({
        url: `/api/admin/companies/${await company({ status: 'APPROVED', isVerified: true })}/suspend`,
        payload: { reason: 'Unpaid invoices' },
      }),
      'POST /api/admin/companies/:id/reactivate': async () => ({
        url: `/api/admin/companies/${await company({ status: 'SUSPENDED', isVerified: true })}/reactivate`,
      }),
      'POST /api/admin/documents/:id/approve': async () => ({
        url: `/api/admin/documents/${await document()}/approve`,
      }),
      'POST /api/admin/documents/:id/reject': async () => ({
        url: `/api/admin/documents/${await document()}/reject`,
        payload: { reviewNotes: 'Blurred' },
      }),
      'POST /api/admin/booth-details/:id/dismiss': async () => {
        const [entry] = await db()
          .insert(boothDetails)
          .values({ companyId: await company(), repId: buyer.userId, details: { city: 'Dej' } })
          .returning({ id: boothDetails.id });
        return { url: `/api/admin/booth-details/${entry?.id ?? 0}/dismiss` };
      },
      'DELETE /api/admin/documents/:id': async () => ({
        url: `/api/admin/documents/${await document()}`,
      }),
      'GET /api/admin/documents/:id/file': async () => ({
        url: `/api/admin/documents/${await document()}/file`,
      }),
      'GET /api/admin/orders': () => Promise.resolve({ url: '/api/admin/orders?status=PENDING' }),
      'GET /api/admin/orders/export.csv': () =>
        Promise.resolve({ url: '/api/admin/orders/export.csv?status=PENDING' }),
      'GET /api/admin/orders/:id': async () => ({
        url: `/api/admin/orders/${await order(db(), buyer)}`,
      }),
      'POST /api/admin/orders/:id/status': async () => ({
        url: `/api/admin/orders/${await order(db(), buyer)}/status`,
        payload: { status: 'CONFIRMED' },
      }),
      'POST /api/admin/orders/:id/payment': async () => ({
        url: `/api/admin/orders/${await order(db(), buyer)}/payment`,
        payload: { paymentStatus: 'PAID' },
      }),
      'GET /api/admin/audit': () => Promise.resolve({ url: '/api/admin/audit?entityType=company' }),
      'GET /api/admin/mail': () => Promise.resolve({ url: '/api/admin/mail?status=waiting' }),
      'GET /api/admin/mail/:id': async () => {
        const [message] = await db()
          .insert(mailQueue)
          .values({
            toAddress: 'salon@example.com',
            language: 'ro',
            kind: 'company-approved',
            data: { companyName: 'Salon' },
          })
          .returning({ id: mailQueue.id });
        return { url: `/api/admin/mail/${message?.id ?? 0}` };
      },
      ...catalogueCalls(),
      'GET /api/admin/staff': () => Promise.resolve({ url: '/api/admin/staff' }),
      'POST /api/admin/staff': () =>
        Promise.resolve({
          url: '/api/admin/staff',
          status: 201,
          payload: {
            firstName: 'Route',
            lastName: 'Check',
            email: `r.${randomUUID()}@example.com`,
          },
        }),
      'POST /api/admin/staff/:id/deactivate': async () => ({
        url: `/api/admin/staff/${await colleague()}/deactivate`,
      }),
      'POST /api/admin/staff/:id/reactivate': async () => {
        const id = await colleague();
        await db().update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, id));
        return { url: `/api/admin/staff/${id}/reactivate` };
      },
      'POST /api/admin/staff/:id/reset-password': async () => ({
        url: `/api/admin/staff/${await colleague()}/reset-password`,
      }),
    };
    const adminRoutes = (registeredRoutes.get(app) ?? [])
      .filter((route) => route.url.startsWith('/api/admin'))
      .map((route) => `${route.method} ${route.url}`);
    expect(Object.keys(calls).sort()).toEqual(adminRoutes.sort());

    for (const [route, call] of Object.entries(calls)) {
      const method = route.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
      const { url, payload, headers = {}, status = 200 } = await call();
      const as = (tokens: Tokens | null) =>
        app.inject({
          method,
          url,
          ...(payload
            ? { payload }
            : method === 'GET' || method === 'DELETE'
              ? {}
              : { payload: {} }),
          headers: { ...headers, ...(tokens ? bearer(tokens) : {}) },
        });
      const visitor = await as(null);
      expect(visitor.statusCode, `${route} for a visitor`).toBe(401);
      expect(visitor.json()).toEqual({ message: 'Please sign in to continue.' });
      const customer = await as(buyer.tokens);
      expect(customer.statusCode, `${route} for a salon`).toBe(403);
      expect(customer.json()).toEqual({ message: 'This area is for staff only.' });
      // A sales rep is the maker's too, but not the back office's.
      expect((await as(rep)).statusCode, `${route} for a sales rep`).toBe(403);
      expect((await as(staff.tokens)).statusCode, `${route} for staff`).toBe(status);
    }
  });
});
