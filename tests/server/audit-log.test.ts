/**
 * The audit log of the back office: every staff decision made through /api/admin adds one
 * entry (who, what, before → after, the reason) in the transaction of the change. A
 * replayed request adds none, a refused or failed change none, and nothing — no route, no
 * statement — changes or removes an entry.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, registeredRoutes } from '../../server/app';
import { auditLog, companies } from '../../server/db/schema';
import { decideCompany } from '../../server/services/admin';
import { inTransaction } from '../../server/services/transactions';
import type { AuditEntry, AuditPage } from '../../src/contracts/admin-schemas';
import { companyDocument, order, salon, staffMember, type Staff } from './factories';
import type { Company } from '../../src/contracts/accounts';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { bearer, like, PDF, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Staff;
let colleague: Staff;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
  staff = await staffMember(app, testDb.database.db, 'audit.staff@example.com');
  colleague = await staffMember(app, testDb.database.db, 'audit.colleague@example.com');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

function post(tokens: Tokens, url: string, payload: object = {}, key?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...bearer(tokens), ...(key ? { 'idempotency-key': key } : {}) },
  });
}

const get = (tokens: Tokens, url: string) => app.inject({ url, headers: bearer(tokens) });

async function audit(query: string): Promise<AuditPage> {
  const response = await get(staff.tokens, `/api/admin/audit?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditPage>();
}

/** The entries of one entity, newest first, as the API lists them. */
const entriesOf = async (entityType: string, entityId: number): Promise<AuditEntry[]> =>
  (await audit(`entityType=${entityType}&entityId=${entityId}&limit=100`)).entries;

/** How many entries the table holds for an entity, read from the database itself. */
async function storedFor(entityType: 'company' | 'document' | 'order', entityId: number) {
  const [row] = await db()
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)));
  return row?.n ?? 0;
}

const companyStatus = async (id: number) =>
  (await db().select({ status: companies.status }).from(companies).where(eq(companies.id, id)))[0]
    ?.status;

describe('each staff decision', () => {
  it('records a company decision with its actor, the fields it changed and the reason', async () => {
    const { companyId } = await salon(db());
    const path = `/api/admin/companies/${companyId}`;
    expect((await post(staff.tokens, `${path}/approve`)).statusCode).toBe(200);
    const reason = 'Unpaid invoices';
    expect((await post(staff.tokens, `${path}/suspend`, { reason })).statusCode).toBe(200);
    expect((await post(colleague.tokens, `${path}/reactivate`)).statusCode).toBe(200);

    const [reactivated, suspended, approved] = await entriesOf('company', companyId);
    expect(approved).toMatchObject({
      actor: { id: staff.id, email: staff.email, name: 'Staff Admin' },
      action: 'company.approve',
      entityType: 'company',
      entityId: companyId,
      companyId,
      before: { status: 'PENDING', isVerified: false, verifiedAt: null },
      after: { status: 'APPROVED', isVerified: true, verifiedAt: like.any(String) },
      note: '',
    });
    expect(Object.keys(approved?.after ?? {}).sort()).toEqual([
      'isVerified',
      'status',
      'verifiedAt',
    ]);
    expect(suspended).toMatchObject({
      action: 'company.suspend',
      before: { status: 'APPROVED', statusReason: '' },
      after: { status: 'SUSPENDED', statusReason: reason },
      note: reason,
    });
    expect(Object.keys(suspended?.before ?? {}).sort()).toEqual(['status', 'statusReason']);
    expect(reactivated).toMatchObject({
      actor: { id: colleague.id, email: colleague.email },
      action: 'company.reactivate',
      before: { status: 'SUSPENDED', statusReason: reason },
      after: { status: 'APPROVED', statusReason: '' },
    });
    expect(await storedFor('company', companyId)).toBe(3);
  });

  it('records a rejection with the reason the salon is shown', async () => {
    const { companyId } = await salon(db());
    const reason = 'The VAT number does not match the company';
    const response = await post(staff.tokens, `/api/admin/companies/${companyId}/reject`, {
      reason,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ company: Company }>().company.statusReason).toBe(reason);
    expect(await entriesOf('company', companyId)).toEqual([
      expect.objectContaining({
        action: 'company.reject',
        before: { status: 'PENDING', statusReason: '' },
        after: { status: 'REJECTED', statusReason: reason },
        note: reason,
      }),
    ]);
  });

  it("records a document's review under its company, with the note", async () => {
    const { companyId } = await salon(db());
    const documentId = await companyDocument(db(), companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'registru.pdf',
    });
    const path = `/api/admin/documents/${documentId}`;
    expect(
      (await post(staff.tokens, `${path}/approve`, { reviewNotes: 'Legible' })).statusCode,
    ).toBe(200);
    expect(
      (await post(staff.tokens, `${path}/reject`, { reviewNotes: 'Expired' })).statusCode,
    ).toBe(200);
    expect(
      (await post(staff.tokens, `${path}/reject`, { reviewNotes: 'Expired in 2025' })).statusCode,
    ).toBe(200);
    const [renoted, changed, first] = await entriesOf('document', documentId);
    expect(first).toMatchObject({
      action: 'document.approve',
      entityType: 'document',
      entityId: documentId,
      companyId,
      before: { status: 'PENDING', reviewNotes: '' },
      after: { status: 'APPROVED', reviewNotes: 'Legible' },
      note: 'Legible',
    });
    expect(changed).toMatchObject({
      action: 'document.reject',
      before: { status: 'APPROVED', reviewNotes: 'Legible' },
      after: { status: 'REJECTED', reviewNotes: 'Expired' },
    });
    // Rejected again with a new note: the decision is recorded with its status unchanged.
    expect(renoted).toMatchObject({
      before: { status: 'REJECTED', reviewNotes: 'Expired' },
      after: { status: 'REJECTED', reviewNotes: 'Expired in 2025' },
    });
  });

  it("records an order's moves and payments under its company", async () => {
    const buyer = await salon(db(), { status: 'APPROVED', isVerified: true });
    const orderId = await order(db(), buyer);
    const path = `/api/admin/orders/${orderId}`;
    expect((await post(staff.tokens, `${path}/status`, { status: 'CONFIRMED' })).statusCode).toBe(
      200,
    );
    expect(
      (await post(staff.tokens, `${path}/payment`, { paymentStatus: 'PAID' })).statusCode,
    ).toBe(200);
    const [paid, confirmed] = await entriesOf('order', orderId);
    expect(confirmed).toMatchObject({
      action: 'order.status',
      companyId: buyer.companyId,
      before: { status: 'PENDING' },
      after: { status: 'CONFIRMED' },
      note: '',
    });
    expect(paid).toMatchObject({
      action: 'order.payment',
      companyId: buyer.companyId,
      before: { paymentStatus: 'PENDING' },
      after: { paymentStatus: 'PAID' },
    });
  });

  it('is recorded once when the request is replayed with the same Idempotency-Key', async () => {
    const { companyId } = await salon(db());
    const key = randomUUID();
    const url = `/api/admin/companies/${companyId}/reject`;
    const first = await post(staff.tokens, url, { reason: 'Incomplete' }, key);
    const again = await post(staff.tokens, url, { reason: 'Incomplete' }, key);
    expect(first.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await storedFor('company', companyId)).toBe(1);
  });
});

describe('a change that does not happen', () => {
  it('leaves no entry when it is refused', async () => {
    const buyer = await salon(db(), { status: 'APPROVED', isVerified: true });
    const orderId = await order(db(), buyer);
    const approve = await post(staff.tokens, `/api/admin/companies/${buyer.companyId}/approve`);
    expect(approve.statusCode).toBe(409);
    // Named, so that the back office says it in the clerk's language, with what it allows now.
    expect(approve.json()).toMatchObject({
      code: 'COMPANY_DECISION_NOT_ALLOWED',
      params: { status: 'APPROVED', allowed: 'suspend' },
    });
    const skip = await post(staff.tokens, `/api/admin/orders/${orderId}/status`, {
      status: 'SHIPPED',
    });
    expect(skip.statusCode).toBe(409);
    expect(await storedFor('company', buyer.companyId)).toBe(0);
    expect(await storedFor('order', orderId)).toBe(0);
    const missing = await post(staff.tokens, '/api/admin/companies/2000000000/approve');
    expect(missing.statusCode).toBe(404);
    expect(await storedFor('company', 2_000_000_000)).toBe(0);
  });

  it('takes its entry with it when its transaction fails, and the other way round', async () => {
    const { companyId } = await salon(db());
    const actor = { id: staff.id, email: staff.email, firstName: 'Staff', lastName: 'Admin' };
    await expect(
      inTransaction(db(), async (tx) => {
        await decideCompany(tx, companyId, 'approve', '', actor);
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    expect(await companyStatus(companyId)).toBe('PENDING');
    expect(await storedFor('company', companyId)).toBe(0);

    // An entry that cannot be written (no such actor) undoes the change it records.
    const nobody = { ...actor, id: 2_000_000_000 };
    await expect(
      inTransaction(db(), (tx) => decideCompany(tx, companyId, 'approve', '', nobody)),
    ).rejects.toThrow();
    expect(await companyStatus(companyId)).toBe('PENDING');
    expect(await storedFor('company', companyId)).toBe(0);
  });
});

describe('GET /api/admin/audit', () => {
  it('lists entries newest first, filtered by action, entity, company and actor, a page at a time', async () => {
    const [first, second] = [await salon(db()), await salon(db())];
    await post(staff.tokens, `/api/admin/companies/${first.companyId}/approve`);
    await post(colleague.tokens, `/api/admin/companies/${second.companyId}/approve`);
    await post(colleague.tokens, `/api/admin/companies/${first.companyId}/suspend`, {
      reason: 'Audit',
    });

    const ofFirst = await audit(`companyId=${first.companyId}`);
    expect(ofFirst.entries.map((e) => e.action)).toEqual(['company.suspend', 'company.approve']);
    expect(ofFirst.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    expect((await audit(`actorId=${colleague.id}&companyId=${second.companyId}`)).entries).toEqual([
      expect.objectContaining({ action: 'company.approve', entityId: second.companyId }),
    ]);
    expect(
      (await audit(`actorId=${staff.id}&companyId=${first.companyId}`)).entries.map(
        (e) => e.action,
      ),
    ).toEqual(['company.approve']);
    expect(
      (await audit(`action=company.suspend&companyId=${first.companyId}`)).entries,
    ).toHaveLength(1);
    expect((await audit(`entityType=company&entityId=${first.companyId}`)).pagination.total).toBe(
      2,
    );

    const pageOne = await audit(`companyId=${first.companyId}&limit=1`);
    const pageTwo = await audit(`companyId=${first.companyId}&limit=1&page=2`);
    const pastTheEnd = await audit(`companyId=${first.companyId}&limit=1&page=3`);
    expect(pageOne.entries.map((e) => e.action)).toEqual(['company.suspend']);
    expect(pageTwo.entries.map((e) => e.action)).toEqual(['company.approve']);
    expect(pageTwo.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect(pastTheEnd).toEqual({
      entries: [],
      pagination: { page: 3, limit: 1, total: 2, totalPages: 2 },
    });

    const everything = (await audit('limit=100')).entries;
    const order = everything.map((e) => [e.at, e.id] as const);
    const sorted = [...order].sort(([a, x], [b, y]) => (a === b ? y - x : b.localeCompare(a)));
    expect(order).toEqual(sorted);
  });

  it('refuses filters it does not know', async () => {
    for (const query of [
      'action=company.delete',
      'entityType=invoice',
      'entityId=0',
      'companyId=abc',
      'limit=101',
      'page=0',
      'note=x',
    ]) {
      const response = await get(staff.tokens, `/api/admin/audit?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<ErrorBody>().message).toMatch(/^Invalid request/);
    }
  });

  it('is for staff only', async () => {
    const buyer = await salon(db());
    expect((await app.inject({ url: '/api/admin/audit' })).statusCode).toBe(401);
    expect((await get(buyer.tokens, '/api/admin/audit')).statusCode).toBe(403);
  });
});

describe('an entry', () => {
  it('cannot be added, changed or removed through any route', async () => {
    const { companyId } = await salon(db());
    await post(staff.tokens, `/api/admin/companies/${companyId}/approve`);
    const [entry] = await entriesOf('company', companyId);
    const [before] = await db().select({ n: count() }).from(auditLog);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/admin/audit', `/api/admin/audit/${entry?.id}`]) {
        const response = await app.inject({
          method,
          url,
          payload: { note: 'rewritten' },
          headers: bearer(staff.tokens),
        });
        expect([404, 405], `${method} ${url}`).toContain(response.statusCode);
      }
    }
    expect((await get(staff.tokens, `/api/admin/audit/${entry?.id}`)).statusCode).toBe(404);
    const [after] = await db().select({ n: count() }).from(auditLog);
    expect(after).toEqual(before);
    expect(await entriesOf('company', companyId)).toEqual([entry]);
    // The only route of the log reads it.
    const routes = (registeredRoutes.get(app) ?? []).filter((r) => r.url.includes('/audit'));
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/admin/audit']);
  });

  it('is refused by the database to any statement that would change or remove it', async () => {
    const { companyId } = await salon(db());
    await post(staff.tokens, `/api/admin/companies/${companyId}/approve`);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'company'), eq(auditLog.entityId, companyId)));
    const id = entry?.id ?? 0;
    await expect(
      db().update(auditLog).set({ note: 'rewritten' }).where(eq(auditLog.id, id)),
    ).rejects.toThrow();
    await expect(db().delete(auditLog).where(eq(auditLog.id, id))).rejects.toThrow();
    await expect(db().execute(sql`TRUNCATE audit_log`)).rejects.toThrow();
    expect(await db().select().from(auditLog).where(eq(auditLog.id, id))).toEqual([entry]);
  });
});
