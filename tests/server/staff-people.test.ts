/**
 * People: the maker's staff accounts through /api/admin/staff (create with a temporary
 * password shown once, list, deactivate, reactivate, reset the password), the rules that
 * keep the back office run by someone, and the fixes around it: `npm run admin` decisions
 * in the audit log, the names the log shows, a document review's allowed decisions, and a
 * repeated Idempotency-Key header.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { auditLog, companies, idempotencyKeys, users } from '../../server/db/schema';
import { runAdminCommand } from '../../server/scripts/admin-commands';
import { issueAccountToken } from '../../server/services/account-tokens';
import { deactivateStaff } from '../../server/services/staff';
import { inTransaction } from '../../server/services/transactions';
import type {
  AuditEntry,
  AuditPage,
  StaffCreated,
  StaffList,
  StaffMember,
} from '../../src/contracts/admin-schemas';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { companyDocument, order, salon, staffMember, type Staff } from './factories';
import { bearer, PDF, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Staff;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
  staff = await staffMember(app, testDb.database.db, 'people.staff@example.com');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

function post(url: string, payload: object = {}, tokens: Tokens = staff.tokens, key?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...bearer(tokens), ...(key ? { 'idempotency-key': key } : {}) },
  });
}

const get = (url: string, tokens: Tokens = staff.tokens) =>
  app.inject({ url, headers: bearer(tokens) });

/** A new staff member made through the API, with the password it was given. */
async function addStaff(firstName = 'Elena'): Promise<StaffCreated & { email: string }> {
  const email = `staff.${randomUUID()}@example.com`;
  const response = await post('/api/admin/staff', { firstName, lastName: 'Marin', email });
  expect(response.statusCode, response.body).toBe(201);
  return { ...response.json<StaffCreated>(), email };
}

const staffList = async (): Promise<StaffMember[]> => {
  const response = await get('/api/admin/staff');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<StaffList>().staff;
};

const entriesOf = async (entityType: string, entityId: number): Promise<AuditEntry[]> => {
  const response = await get(`/api/admin/audit?entityType=${entityType}&entityId=${entityId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditPage>().entries;
};

describe('POST /api/admin/staff', () => {
  it('makes a staff account whose temporary password signs in to the back office', async () => {
    const created = await addStaff();
    expect(created.member).toMatchObject({
      firstName: 'Elena',
      lastName: 'Marin',
      email: created.email,
      active: true,
      lastSignInAt: null,
    });
    // Letters and digits only, none that reads like another (0 and O, 1 and l, 5 and S…).
    expect(created.temporaryPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(created.temporaryPassword).not.toMatch(/[0Oo1lIZz2Ss589]/);
    const tokens = await signIn(app, created.email, created.temporaryPassword ?? '');
    expect((await get('/api/admin/summary', tokens)).statusCode).toBe(200);
    const listed = (await staffList()).find((member) => member.id === created.member.id);
    expect(listed?.lastSignInAt).not.toBeNull();
  });

  it('never shows or keeps the temporary password: not listed, not logged, not recorded', async () => {
    const key = randomUUID();
    const email = `kept.${randomUUID()}@example.com`;
    const body = { firstName: 'Radu', lastName: 'Stan', email };
    const first = await post('/api/admin/staff', body, staff.tokens, key);
    const password = first.json<StaffCreated>().temporaryPassword ?? '';
    expect(password).not.toBe('');
    const again = await post('/api/admin/staff', body, staff.tokens, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<StaffCreated>().temporaryPassword).toBeNull();

    expect((await get('/api/admin/staff')).body).not.toContain(password);
    const id = first.json<StaffCreated>().member.id;
    expect(JSON.stringify(await entriesOf('staff', id))).not.toContain(password);
    const stored = await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(password);
    const [row] = await db().select().from(users).where(eq(users.id, id));
    expect(row?.passwordHash).not.toContain(password);
  });

  it('records the new account in the audit log with who made it', async () => {
    const created = await addStaff('Ioana');
    expect(await entriesOf('staff', created.member.id)).toEqual([
      expect.objectContaining({
        action: 'staff.create',
        actor: { id: staff.id, email: staff.email, name: 'Staff Admin', via: 'back-office' },
        entityLabel: 'Ioana Marin',
        companyId: null,
        after: {
          firstName: 'Ioana',
          lastName: 'Marin',
          email: created.email,
          role: 'ADMIN',
          active: true,
        },
      }),
    ]);
  });

  it("refuses an e-mail any account has, a customer's too, with the field named (409)", async () => {
    const customer = await salon(db());
    const [row] = await db()
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, customer.userId));
    for (const email of [row?.email ?? '', staff.email.toUpperCase()]) {
      const response = await post('/api/admin/staff', {
        firstName: 'Dan',
        lastName: 'Pop',
        email,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json<ErrorBody>().details).toEqual([
        expect.objectContaining({ field: 'email', code: 'emailTaken' }),
      ]);
    }
  });

  it('refuses a blank name or a malformed e-mail (400 with each field), and a salon', async () => {
    const response = await post('/api/admin/staff', {
      firstName: '  ',
      lastName: 'Pop',
      email: 'not-an-email',
    });
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json<ErrorBody>()
        .details?.map((d) => d.field)
        .sort(),
    ).toEqual(['email', 'firstName']);
    const customer = await salon(db());
    const refused = await post(
      '/api/admin/staff',
      { firstName: 'Dan', lastName: 'Pop', email: `x.${randomUUID()}@example.com` },
      customer.tokens,
    );
    expect(refused.statusCode).toBe(403);
    expect((await get('/api/admin/staff', customer.tokens)).statusCode).toBe(403);
  });
});

describe('deactivating and reactivating', () => {
  it('ends the sessions of a deactivated account at once and refuses its sign-in', async () => {
    const created = await addStaff();
    const password = created.temporaryPassword ?? '';
    const tokens = await signIn(app, created.email, password);
    expect((await get('/api/admin/summary', tokens)).statusCode).toBe(200);

    const response = await post(`/api/admin/staff/${created.member.id}/deactivate`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ member: StaffMember }>().member.active).toBe(false);

    expect((await get('/api/admin/summary', tokens)).statusCode).toBe(401);
    const refresh = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: tokens.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: created.email, password },
    });
    expect(login.statusCode).toBe(401);
    // Named by a code: the sign-in page says this instead of "Invalid email or password".
    expect(login.json<ErrorBody>()).toMatchObject({ code: 'ACCOUNT_DEACTIVATED' });
    expect(login.json<ErrorBody>().message).toMatch(/deactivated/);

    const back = await post(`/api/admin/staff/${created.member.id}/reactivate`);
    expect(back.statusCode).toBe(200);
    expect(
      (await get('/api/admin/summary', await signIn(app, created.email, password))).statusCode,
    ).toBe(200);
    const [reactivated, deactivated] = await entriesOf('staff', created.member.id);
    expect(deactivated).toMatchObject({
      action: 'staff.deactivate',
      before: { active: true },
      after: { active: false },
    });
    expect(reactivated).toMatchObject({ action: 'staff.reactivate', after: { active: true } });
  });

  it('refuses to deactivate oneself, or an account twice (409)', async () => {
    const self = await post(`/api/admin/staff/${staff.id}/deactivate`);
    expect(self.statusCode).toBe(409);
    expect(self.json<ErrorBody>().message).toMatch(/your own account/);
    const created = await addStaff();
    expect((await post(`/api/admin/staff/${created.member.id}/deactivate`)).statusCode).toBe(200);
    expect((await post(`/api/admin/staff/${created.member.id}/deactivate`)).statusCode).toBe(409);
    expect((await post(`/api/admin/staff/2000000000/deactivate`)).statusCode).toBe(404);
    // A customer is no staff member: not found here.
    const customer = await salon(db());
    expect((await post(`/api/admin/staff/${customer.userId}/deactivate`)).statusCode).toBe(404);
  });
});

describe('resetting a password', () => {
  it('gives a new temporary password once and ends the old one and its sessions', async () => {
    const created = await addStaff();
    const tokens = await signIn(app, created.email, created.temporaryPassword ?? '');
    const response = await post(`/api/admin/staff/${created.member.id}/reset-password`);
    expect(response.statusCode, response.body).toBe(200);
    const fresh = response.json<StaffCreated>().temporaryPassword ?? '';
    expect(fresh).not.toBe(created.temporaryPassword);
    expect((await get('/api/admin/summary', tokens)).statusCode).toBe(401);
    await expect(signIn(app, created.email, created.temporaryPassword ?? '')).rejects.toThrow();
    expect(
      (await get('/api/admin/summary', await signIn(app, created.email, fresh))).statusCode,
    ).toBe(200);
    const [reset] = await entriesOf('staff', created.member.id);
    expect(reset).toMatchObject({ action: 'staff.reset-password', before: null, after: null });
    expect(JSON.stringify(reset)).not.toContain(fresh);
  });

  it('ends the reset links e-mailed before, so only the new temporary password works', async () => {
    const created = await addStaff();
    const link = await issueAccountToken(testDb.database.db, created.member.id, 'password-reset');
    expect((await post(`/api/admin/staff/${created.member.id}/reset-password`)).statusCode).toBe(
      200,
    );
    const followed = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token: link, newPassword: 'Taken-Over-Pass-1' },
    });
    expect(followed.statusCode).toBe(410);
    expect(followed.json<ErrorBody>().code).toBe('TOKEN_USED');
  });

  it("refuses to reset one's own password (409)", async () => {
    expect((await post(`/api/admin/staff/${staff.id}/reset-password`)).statusCode).toBe(409);
  });
});

describe('the audit log names what it records', () => {
  it("shows the company's name, a document's file name and an order's number", async () => {
    const buyer = await salon(db(), { name: 'Salon Named Entries SRL', status: 'APPROVED' });
    const documentId = await companyDocument(db(), buyer.companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'certificat.pdf',
    });
    const orderId = await order(db(), buyer, { orderNumber: 'ORD-NAMED-1' });
    expect((await post(`/api/admin/documents/${documentId}/approve`)).statusCode).toBe(200);
    expect(
      (await post(`/api/admin/orders/${orderId}/status`, { status: 'CONFIRMED' })).statusCode,
    ).toBe(200);
    expect(
      (await post(`/api/admin/companies/${buyer.companyId}/suspend`, { reason: 'x' })).statusCode,
    ).toBe(200);
    const [suspended] = await entriesOf('company', buyer.companyId);
    const [approved] = await entriesOf('document', documentId);
    const [confirmed] = await entriesOf('order', orderId);
    expect(suspended).toMatchObject({
      entityLabel: 'Salon Named Entries SRL',
      companyName: 'Salon Named Entries SRL',
    });
    expect(approved).toMatchObject({
      entityLabel: 'certificat.pdf',
      companyName: 'Salon Named Entries SRL',
    });
    expect(confirmed).toMatchObject({
      entityLabel: 'ORD-NAMED-1',
      companyName: 'Salon Named Entries SRL',
    });
  });
});

describe('npm run admin', () => {
  it('records its decisions in the audit log as made from the command line', async () => {
    const { companyId } = await salon(db(), { name: 'Salon From The Terminal' });
    const said: string[] = [];
    await runAdminCommand(db(), ['approve', String(companyId)], (line) => said.push(line), {
      commandLine: 'ops@build-01',
    });
    await runAdminCommand(db(), ['suspend', String(companyId), 'Unpaid', 'invoices'], (line) =>
      said.push(line),
    );
    expect(said).toEqual([
      'Salon From The Terminal: APPROVED',
      'Salon From The Terminal: SUSPENDED',
    ]);
    const [suspended, approved] = await entriesOf('company', companyId);
    expect(approved).toMatchObject({
      action: 'company.approve',
      actor: { id: null, email: '', name: 'ops@build-01', via: 'command-line' },
      before: { status: 'PENDING' },
      after: { status: 'APPROVED' },
    });
    expect(suspended).toMatchObject({
      action: 'company.suspend',
      actor: { id: null, via: 'command-line' },
      note: 'Unpaid invoices',
    });
  });

  it('records a refused decision nowhere, and says why', async () => {
    const { companyId } = await salon(db());
    await expect(
      runAdminCommand(db(), ['reactivate', String(companyId)], () => {}),
    ).rejects.toThrow(/cannot be given the action "reactivate"/);
    const [row] = await db()
      .select({ status: companies.status })
      .from(companies)
      .where(eq(companies.id, companyId));
    expect(row?.status).toBe('PENDING');
    expect(await entriesOf('company', companyId)).toEqual([]);
  });

  it('records a staff account it creates or whose password it sets', async () => {
    const email = `cli.${randomUUID()}@example.com`;
    const actor = { commandLine: 'root@host' };
    await runAdminCommand(db(), ['create-admin', email, 'Cli-Staff-Pass-1'], () => {}, actor);
    await runAdminCommand(db(), ['create-admin', email, 'Cli-Staff-Pass-2'], () => {}, actor);
    const [row] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
    const entries = await entriesOf('staff', row?.id ?? 0);
    expect(entries.map((e) => [e.action, e.actor.via])).toEqual([
      ['staff.reset-password', 'command-line'],
      ['staff.create', 'command-line'],
    ]);
    expect(JSON.stringify(entries)).not.toContain('Cli-Staff-Pass');
  });
});

describe("a document's review", () => {
  async function document() {
    const { companyId } = await salon(db());
    return companyDocument(db(), companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'registru.pdf',
    });
  }

  it('changes a decision, but never approves twice (409 with the allowed decisions)', async () => {
    const id = await document();
    expect((await post(`/api/admin/documents/${id}/approve`)).statusCode).toBe(200);
    const twice = await post(`/api/admin/documents/${id}/approve`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<ErrorBody>()).toMatchObject({
      code: 'DOCUMENT_DECISION_NOT_ALLOWED',
      params: { status: 'APPROVED', allowed: 'REJECTED' },
    });
    expect(
      (await post(`/api/admin/documents/${id}/reject`, { reviewNotes: 'Blurred' })).statusCode,
    ).toBe(200);
    expect((await post(`/api/admin/documents/${id}/approve`)).statusCode).toBe(200);
  });

  it('rejects a rejected document again only with a new note', async () => {
    const id = await document();
    const reject = (reviewNotes?: string) =>
      post(`/api/admin/documents/${id}/reject`, reviewNotes === undefined ? {} : { reviewNotes });
    expect((await reject('Blurred')).statusCode).toBe(200);
    expect((await reject('Blurred')).statusCode).toBe(409);
    expect((await reject()).statusCode).toBe(409);
    expect((await reject('Blurred, and the stamp is missing')).statusCode).toBe(200);
    const stored = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'document'), eq(auditLog.entityId, id)));
    expect(stored).toHaveLength(2);
  });
});

describe('a repeated Idempotency-Key header', () => {
  it('is refused with a 400 and changes nothing', async () => {
    const { companyId } = await salon(db());
    const response = await app.inject({
      method: 'POST',
      url: `/api/admin/companies/${companyId}/approve`,
      payload: {},
      headers: { ...bearer(staff.tokens), 'idempotency-key': [randomUUID(), randomUUID()] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json<ErrorBody>().message).toBeTruthy();
    expect(await entriesOf('company', companyId)).toEqual([]);
  });
});

// Last: it turns every other staff account of this file's database off.
describe('the last active staff account', () => {
  it('stays active when two staff members deactivate each other at once', async () => {
    const [one, two] = [await addStaff('Una'), await addStaff('Doi')];
    await db()
      .update(users)
      .set({ deactivatedAt: new Date() })
      .where(
        and(eq(users.role, 'ADMIN'), ne(users.id, one.member.id), ne(users.id, two.member.id)),
      );
    const actor = (member: StaffMember) => ({ ...member, id: member.id });
    const results = await Promise.allSettled([
      inTransaction(db(), (tx) => deactivateStaff(tx, two.member.id, actor(one.member))),
      inTransaction(db(), (tx) => deactivateStaff(tx, one.member.id, actor(two.member))),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected');
    expect(String((refused as PromiseRejectedResult).reason)).toMatch(/last active staff account/);
    const active = await db()
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, [one.member.id, two.member.id]), isNull(users.deactivatedAt)));
    expect(active).toHaveLength(1);
  });
});
