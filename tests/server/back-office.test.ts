/**
 * The back office's reads and company edits through /api/admin: the dashboard's counts,
 * the list of companies (search, filter, sort, pages), a company's page and its history,
 * corrections of a company's data, and who may call any of it.
 */
import { randomUUID } from 'node:crypto';
import { eq, gte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { companies, companyDocuments, products } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { startOfDay } from '../../server/services/dashboard';
import type { AdminCompanyPage, AdminSummary } from '../../src/contracts/admin-schemas';
import { companyDocument, order, salon, staffMember, type Staff } from './factories';
import { bearer, PDF, type Tokens } from './helpers';
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

    const after = await summary();
    expect(after).toEqual({
      companiesPending: before.companiesPending + 1,
      documentsToReview: before.documentsToReview + 1,
      ordersToConfirm: before.ordersToConfirm + 1,
      productsLowStock: before.productsLowStock + 1,
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
      expect(response.json().details, query).toEqual([expect.objectContaining({ field })]);
    }
  });
});
