/**
 * What the API's answers leave behind: nothing personal in a cache, and nothing of a
 * request's data in the error log.
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany } from '../../server/services/admin';
import { retryConflicts } from '../../server/services/transactions';
import { bearer, register, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let buyer: Tokens;
const log: string[] = [];
const SECRET_EMAIL = 'secret.person@example.com';

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({
    database: testDb.database,
    logger: {
      level: 'error',
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          log.push(chunk.toString());
          done();
        },
      }),
    },
  });
  // A query that fails inside the database with a personal value among its parameters.
  app.get('/api/failing-query', async () => {
    await testDb.database.db.execute(sql`SELECT ${SECRET_EMAIL}::integer AS n`);
    return { ok: true };
  });
  // A transaction that conflicts on every attempt, as under a burst of deadlocks.
  app.get('/api/always-conflicting', async () =>
    retryConflicts(() =>
      Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' })),
    ),
  );
  const { email, password, user } = await register(app);
  await decideCompany(testDb.database.db, user.companyId, 'approve');
  buyer = await signIn(app, email, password);
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('caching of API answers', () => {
  it.each([
    ['a priced product list', '/api/products'],
    ['a priced product', '/api/products/1'],
    ['the cart', '/api/cart'],
    ['the orders', '/api/orders'],
    ['the signed-in user', '/api/auth/me'],
  ])('keeps %s out of every cache', async (_what, url) => {
    const response = await app.inject({ url, headers: bearer(buyer) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('keeps answers carrying tokens out of every cache', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: buyer.refreshToken },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    buyer = response.json<Tokens>();
  });

  it('lets product pictures be cached, as before', async () => {
    const product = await app.inject('/api/products/1');
    const picture = product.json<{ product: { images: string[] } }>().product.images[0] ?? '';
    const response = await app.inject(picture);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('public');
  });
});

describe('security headers of API answers', () => {
  it.each([
    ['a catalogue answer', '/api/products/1', 200],
    ['a refusal', '/api/cart', 401],
    ['an unknown path', '/api/missing', 404],
  ])('forbid framing, loading and type sniffing of %s', async (_what, url, status) => {
    const response = await app.inject(url);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe('a server too busy to finish a change', () => {
  it('says so with a 503, a code and Retry-After, not as a fault', async () => {
    const response = await app.inject('/api/always-conflicting');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'BUSY', retryAfter: 1 });
    expect(response.headers['retry-after']).toBe('1');
  });
});

describe('the error log', () => {
  it('says the class, code and request of a failure, never its parameters', async () => {
    const response = await app.inject('/api/failing-query');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message: 'Something went wrong on our side. Please try again.',
    });
    const written = log.join('');
    expect(written).toContain('"code":"22P02"');
    expect(written).toContain('"reqId":');
    expect(written).toContain('GET /api/failing-query');
    expect(written).not.toContain(SECRET_EMAIL);
    expect(written).not.toMatch(/select|params/i);
  });
});
