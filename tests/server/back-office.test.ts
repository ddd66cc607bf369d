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
import { companyDocuments, products } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { startOfDay } from '../../server/services/dashboard';
import type { AdminSummary } from '../../src/contracts/admin-schemas';
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
