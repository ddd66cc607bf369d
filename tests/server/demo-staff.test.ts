/**
 * The demo staff account: made with the demo data, with a password of that database's
 * own, so that someone trying the portal can open the back office without settings; never
 * on a database without demo data, and never out of a customer's account.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import {
  DEMO_ACCOUNTS,
  DEMO_REP_EMAIL,
  DEMO_STAFF_EMAIL,
  demoRepSignIn,
  demoStaffSignIn,
} from '../../server/db/demo-accounts';
import { mailQueue, users } from '../../server/db/schema';
import { seedDatabase, startSeeding } from '../../server/db/seed';
import { ensureAdmin } from '../../server/services/admin';
import type { AdminSummary } from '../../src/contracts/admin-schemas';
import type { RepCustomerList } from '../../src/contracts/field-sales';
import { bearer, like, register, signIn } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase | null = null;

afterEach(async () => {
  await testDb?.drop();
  testDb = null;
});

async function freshDatabase() {
  testDb = await createTestDatabase();
  return testDb.database;
}

const accountOf = async (database: TestDatabase['database']) =>
  (
    await database.db
      .select({ role: users.role, companyId: users.companyId })
      .from(users)
      .where(eq(users.email, DEMO_STAFF_EMAIL))
  )[0];

describe('the demo staff account', () => {
  it('comes with the demo data, and signs in to the back office with the password printed', async () => {
    const database = await freshDatabase();
    expect(await seedDatabase(database.db, { demoStaff: true })).toBe(true);
    const demo = await demoStaffSignIn(database.db);
    expect(demo).toEqual({ email: DEMO_STAFF_EMAIL, password: like.any(String) });
    expect(demo?.password.length).toBeGreaterThanOrEqual(16);
    expect(await accountOf(database)).toEqual({ role: 'ADMIN', companyId: null });

    const app = await buildApp({ database });
    try {
      const tokens = await signIn(app, DEMO_STAFF_EMAIL, demo?.password ?? '');
      const summary = await app.inject({ url: '/api/admin/summary', headers: bearer(tokens) });
      expect(summary.statusCode).toBe(200);
      expect(summary.json<AdminSummary>().companiesPending).toBeGreaterThanOrEqual(1);
    } finally {
      await app.close();
    }
  });

  it('approves the Italian demo salon, whose people are told in Italian', async () => {
    const database = await freshDatabase();
    await seedDatabase(database.db, { demoStaff: true });
    const demo = await demoStaffSignIn(database.db);
    const [pending] = await database.db
      .select({ id: users.id, companyId: users.companyId })
      .from(users)
      .where(eq(users.email, 'salon.pending@example.com'));
    const app = await buildApp({ database });
    try {
      const tokens = await signIn(app, DEMO_STAFF_EMAIL, demo?.password ?? '');
      const approve = await app.inject({
        method: 'POST',
        url: `/api/admin/companies/${pending?.companyId}/approve`,
        headers: bearer(tokens),
        payload: {},
      });
      expect(approve.statusCode).toBe(200);
      const mail = await database.db
        .select({ language: mailQueue.language, kind: mailQueue.kind })
        .from(mailQueue)
        .where(eq(mailQueue.userId, pending?.id ?? 0));
      expect(mail).toEqual([{ language: 'it', kind: like.any(String) }]);
    } finally {
      await app.close();
    }
  });

  it('has a password of its own on each database', async () => {
    const first = await freshDatabase();
    await seedDatabase(first.db, { demoStaff: true });
    const one = await demoStaffSignIn(first.db);
    await testDb?.drop();
    const second = await freshDatabase();
    await seedDatabase(second.db, { demoStaff: true });
    const other = await demoStaffSignIn(second.db);
    expect(one?.password).not.toBe(other?.password);
  });

  it('is not made on a database seeded without demo data', async () => {
    const database = await freshDatabase();
    await seedDatabase(database.db, { demoAccounts: false, demoStaff: true });
    expect(await accountOf(database)).toBeUndefined();
    expect(await demoStaffSignIn(database.db)).toBeNull();
  });

  it('is not made unless asked for', async () => {
    const database = await freshDatabase();
    await seedDatabase(database.db);
    expect(await accountOf(database)).toBeUndefined();
    expect(await demoStaffSignIn(database.db)).toBeNull();
  });

  it('is not made out of a customer who registered its e-mail first', async () => {
    const database = await freshDatabase();
    const app = await buildApp({ database });
    try {
      const customer = await register(app, { email: DEMO_STAFF_EMAIL });
      await seedDatabase(database.db, { demoStaff: true });
      expect(await accountOf(database)).toEqual({
        role: 'USER',
        companyId: customer.user.companyId,
      });
      expect(await demoStaffSignIn(database.db)).toBeNull();
      const tokens = await signIn(app, DEMO_STAFF_EMAIL, String(customer.password));
      const staffOnly = await app.inject({ url: '/api/admin/summary', headers: bearer(tokens) });
      expect(staffOnly.statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  it('is no longer printed once its password was set again, as ADMIN_PASSWORD does', async () => {
    const database = await freshDatabase();
    await seedDatabase(database.db, { demoStaff: true });
    await ensureAdmin(database.db, DEMO_STAFF_EMAIL, 'Chosen-Staff-Pass-1');
    expect(await demoStaffSignIn(database.db)).toBeNull();
  });
});

describe('the first start on PostgreSQL, a deployment', () => {
  it('seeds the catalogue, and no account whose password is in the source', async () => {
    const database = await freshDatabase();
    expect(await seedDatabase(database.db, startSeeding('postgres'))).toBe(true);
    expect(await accountOf(database)).toBeUndefined();
    expect(await demoRepSignIn(database.db)).toBeNull();
    const app = await buildApp({ database });
    try {
      const catalogue = await app.inject({ url: '/api/products' });
      expect(
        catalogue.json<{ pagination: { totalProducts: number } }>().pagination.totalProducts,
      ).toBeGreaterThan(0);
      for (const demo of DEMO_ACCOUNTS) {
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: demo.email, password: demo.password },
        });
        expect(login.statusCode, demo.email).toBe(401);
      }
    } finally {
      await app.close();
    }
  });

  it('keeps the demo accounts for the embedded demo database', () => {
    expect(startSeeding('pglite')).toEqual({ demoAccounts: true, demoStaff: true });
  });
});

describe('the demo sales rep', () => {
  it('comes with the demo staff account, and finds both demo salons among its customers', async () => {
    const database = await freshDatabase();
    await seedDatabase(database.db, { demoStaff: true });
    const demo = await demoRepSignIn(database.db);
    expect(demo).toEqual({ email: DEMO_REP_EMAIL, password: like.any(String) });
    expect(demo?.password).not.toBe((await demoStaffSignIn(database.db))?.password);

    const app = await buildApp({ database });
    try {
      const tokens = await signIn(app, DEMO_REP_EMAIL, demo?.password ?? '');
      const customers = await app.inject({ url: '/api/rep/customers', headers: bearer(tokens) });
      expect(
        customers
          .json<RepCustomerList>()
          .customers.map((customer) => customer.name)
          .sort(),
      ).toEqual(DEMO_ACCOUNTS.map((salon) => salon.company.name).sort());
      const backOffice = await app.inject({ url: '/api/admin/summary', headers: bearer(tokens) });
      expect(backOffice.statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  it('is not made on a database seeded without demo data, nor unless asked for', async () => {
    for (const options of [{ demoAccounts: false, demoStaff: true }, {}]) {
      const database = await freshDatabase();
      await seedDatabase(database.db, options);
      expect(await demoRepSignIn(database.db)).toBeNull();
      await testDb?.drop();
      testDb = null;
    }
  });
});
