/**
 * What a server process keeps in memory (catalogue answers, the accounts of signed-in
 * requests) is used only while the database says nothing it stands for has changed: by
 * this process, another one, or anyone with a connection to the database.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import {
  companies,
  newsletterSubscriptions,
  products,
  refreshTokens,
  users,
} from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany } from '../../server/services/admin';
import {
  changeVersions,
  freshReader,
  type ChangeVersions,
} from '../../server/services/change-versions';
import type { Product } from '../../src/contracts/catalogue';
import { bearer, register, signIn } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let versions: ChangeVersions;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  versions = await changeVersions(testDb.database);
});

afterAll(async () => {
  await versions.close();
  await app.close();
  await testDb.drop();
});

describe('the versions', () => {
  it('move once per transaction, each for what it stands for, and not otherwise', async () => {
    const db = testDb.database.db;
    const start = await versions.read();
    await db.transaction(async (tx) => {
      await tx.update(products).set({ stock: sql`${products.stock} + 1` });
      await tx.update(products).set({ stock: sql`${products.stock} - 1` });
    });
    await testDb.settled();
    const afterProducts = await versions.read();
    expect(Number(afterProducts.catalogue)).toBe(Number(start.catalogue) + 1);
    expect(afterProducts.accounts).toBe(start.accounts);

    const { user } = await register(app);
    const afterRegistration = await versions.read();
    // One request, one transaction: the user, the company and nothing of the catalogue.
    expect(Number(afterRegistration.accounts)).toBeGreaterThan(Number(start.accounts));
    expect(afterRegistration.catalogue).toBe(afterProducts.catalogue);

    await db
      .update(companies)
      .set({ phone: '+40 700 000 001' })
      .where(eq(companies.id, user.companyId));
    await db.update(users).set({ firstName: 'Ana' }).where(eq(users.id, user.id));
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(eq(refreshTokens.userId, user.id));
    await testDb.settled();
    const afterAccounts = await versions.read();
    expect(Number(afterAccounts.accounts)).toBe(Number(afterRegistration.accounts) + 3);

    await db
      .insert(newsletterSubscriptions)
      .values({ email: `n.${Date.now()}@example.com`, locale: 'ro' });
    await db.execute(sql`SELECT count(*) FROM products`);
    await testDb.settled();
    expect(await versions.read()).toEqual(afterAccounts);
  });

  it('are read as the database says them once a change through another connection is seen', async () => {
    const before = await versions.read();
    // Straight to the database, as another process would.
    await testDb.database.db.update(products).set({ stock: 3 }).where(eq(products.id, 2));
    await testDb.settled();
    expect(Number((await versions.read()).catalogue)).toBe(Number(before.catalogue) + 1);
  });

  it('are known without a query once read, and no longer once a change is seen', async () => {
    const before = await versions.read();
    expect(versions.known()).toEqual(before);
    await testDb.database.db.update(products).set({ stock: 4 }).where(eq(products.id, 3));
    await testDb.settled();
    expect(versions.known()).toBeNull();
    const after = await versions.read();
    expect(Number(after.catalogue)).toBe(Number(before.catalogue) + 1);
    expect(versions.known()).toEqual(after);
  });
});

describe('reading the versions on PostgreSQL', () => {
  it('is a query that started after the call: a call during a running read waits for the next', async () => {
    let value = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const read = freshReader(() => {
      started.push(value);
      return new Promise<string>((resolve) => releases.push(() => resolve(String(value))));
    });
    const first = read();
    value = 1; // a change commits while the first read is running
    const second = read();
    const third = read();
    expect(started).toEqual([0]);
    releases.shift()?.();
    expect(await first).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 0));
    // One more read serves both calls that came during the first.
    expect(started).toEqual([0, 1]);
    releases.shift()?.();
    expect(await second).toBe('1');
    expect(await third).toBe('1');
  });
});

describe('the account of a signed-in request', () => {
  const priceOf7 = async (token: string) =>
    (await app.inject({ url: '/api/products/7', headers: bearer(token) })).json<{
      product: Product;
    }>().product.price;

  it('follows a suspension and a sign-out made straight in the database once it is seen', async () => {
    const { email, password, user } = await register(app);
    await decideCompany(testDb.database.db, user.companyId, 'approve');
    const { accessToken } = await signIn(app, email, password);
    expect(await priceOf7(accessToken)).toBeGreaterThan(0);
    expect(await priceOf7(accessToken)).toBeGreaterThan(0);

    await testDb.database.db
      .update(companies)
      .set({ status: 'SUSPENDED' })
      .where(eq(companies.id, user.companyId));
    await testDb.settled();
    expect(await priceOf7(accessToken)).toBeUndefined();

    await testDb.database.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(eq(refreshTokens.userId, user.id));
    await testDb.settled();
    const me = await app.inject({ url: '/api/auth/me', headers: bearer(accessToken) });
    expect(me.statusCode).toBe(401);
  });

  it('ends with its session, also while nothing else changes', async () => {
    const { email, password, user } = await register(app);
    const { accessToken } = await signIn(app, email, password);
    await testDb.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() + 2_000) })
      .where(eq(refreshTokens.userId, user.id));
    const me = () => app.inject({ url: '/api/auth/me', headers: bearer(accessToken) });
    // 2 s, not less: on a loaded machine this first request alone can take a second.
    expect((await me()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await me()).statusCode).toBe(401);
  });
});
