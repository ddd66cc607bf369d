/**
 * The one order of row locks (server/services/transactions.ts): products, then the cart,
 * then the order; and the retry of a transaction that a deadlock or a serialization
 * failure still ends. Each order is observed directly: another connection holds a product,
 * the request waits for it, and a third connection finds whether the request already
 * holds the row that must come after.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { products } from '../../../server/db/schema';
import { seedDatabase } from '../../../server/db/seed';
import { decideCompany } from '../../../server/services/admin';
import { HttpError } from '../../../server/services/errors';
import { inTransaction, MAX_ATTEMPTS, retryConflicts } from '../../../server/services/transactions';
import { ADDRESS, bearer, register, signIn, type Tokens } from '../helpers';
import { createTestDatabase, type TestDatabase } from '../test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

async function approvedBuyer(): Promise<{ tokens: Tokens; userId: number }> {
  const { email, password, user } = await register(app);
  await decideCompany(testDb.database.db, user.companyId, 'approve');
  return { tokens: await signIn(app, email, password), userId: user.id };
}

async function someProduct(offset: number): Promise<number> {
  const [row] = await testDb.database.db
    .select({ id: products.id })
    .from(products)
    .orderBy(products.id)
    .limit(1)
    .offset(offset);
  await testDb.database.db
    .update(products)
    .set({ stock: 100 })
    .where(eq(products.id, row?.id ?? 0));
  return row?.id ?? 0;
}

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: testDb.url ?? undefined });
  await client.connect();
  return client;
}

/** Resolves once some session of the test database waits for a row lock. */
async function someoneWaitsForALock(observer: pg.Client): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    const { rows } = await observer.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((rows[0] as { n: number }).n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('No request came to wait for the held lock');
}

/**
 * Holds a product's row, sends the request, waits until it waits for that row, and says
 * whether the rows `after` selects were free meanwhile (FOR UPDATE NOWAIT), then lets go.
 */
async function whileProductHeld(
  productId: number,
  request: () => Promise<LightMyRequestResponse>,
  after: string,
  params: unknown[],
): Promise<{ freeMeanwhile: boolean; response: LightMyRequestResponse }> {
  const holder = await connect();
  const observer = await connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [productId]);
    const pending = request();
    await someoneWaitsForALock(observer);
    await observer.query('BEGIN');
    const freeMeanwhile = await observer
      .query(`${after} FOR UPDATE NOWAIT`, params)
      .then(() => true)
      .catch((error: { code?: string }) => {
        if (error.code === '55P03') return false;
        throw error;
      });
    await observer.query('ROLLBACK');
    await holder.query('ROLLBACK');
    return { freeMeanwhile, response: await pending };
  } finally {
    await holder.end();
    await observer.end();
  }
}

describe('row locks are taken products first, then the cart, then the order', () => {
  it('a checkout locks its products before its cart lines', async () => {
    const { tokens, userId } = await approvedBuyer();
    const productId = await someProduct(3);
    await app.inject({
      method: 'POST',
      url: '/api/cart/add',
      headers: bearer(tokens),
      payload: { productId, quantity: 2 },
    });
    const { freeMeanwhile, response } = await whileProductHeld(
      productId,
      () =>
        app.inject({
          method: 'POST',
          url: '/api/cart/checkout',
          headers: bearer(tokens),
          payload: { shippingAddress: ADDRESS },
        }),
      'SELECT 1 FROM cart_items WHERE user_id = $1',
      [userId],
    );
    expect(freeMeanwhile).toBe(true);
    expect(response.statusCode).toBe(201);
  });

  it('a cart change locks the product before the cart line', async () => {
    const { tokens, userId } = await approvedBuyer();
    const productId = await someProduct(4);
    await app.inject({
      method: 'POST',
      url: '/api/cart/add',
      headers: bearer(tokens),
      payload: { productId, quantity: 1 },
    });
    const { freeMeanwhile, response } = await whileProductHeld(
      productId,
      () =>
        app.inject({
          method: 'PUT',
          url: `/api/cart/items/${productId}`,
          headers: bearer(tokens),
          payload: { quantity: 3 },
        }),
      'SELECT 1 FROM cart_items WHERE user_id = $1',
      [userId],
    );
    expect(freeMeanwhile).toBe(true);
    expect(response.statusCode).toBe(200);
  });

  it('a cancellation locks the products before the order, and gives the stock back', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await someProduct(5);
    await app.inject({
      method: 'POST',
      url: '/api/cart/add',
      headers: bearer(tokens),
      payload: { productId, quantity: 4 },
    });
    const placed = await app.inject({
      method: 'POST',
      url: '/api/cart/checkout',
      headers: bearer(tokens),
      payload: { shippingAddress: ADDRESS },
    });
    const orderId = placed.json<{ order: { id: number } }>().order.id;
    const { freeMeanwhile, response } = await whileProductHeld(
      productId,
      () =>
        app.inject({
          method: 'DELETE',
          url: `/api/orders/${orderId}`,
          headers: bearer(tokens),
          payload: { cancellationReason: 'Ordered twice' },
        }),
      'SELECT 1 FROM orders WHERE id = $1',
      [orderId],
    );
    expect(freeMeanwhile).toBe(true);
    expect(response.statusCode).toBe(200);
    const [row] = await testDb.database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, productId));
    expect(row?.stock).toBe(100);
  });
});

describe('a transaction ended by a conflict', () => {
  it('is run again after a deadlock, and its second attempt commits', async () => {
    const [first, second] = [await someProduct(6), await someProduct(7)];
    const other = await connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [second]);
      const marker = `deadlock-${randomUUID()}`;
      let attempts = 0;
      let otherDone: Promise<unknown> = Promise.resolve();
      await inTransaction(testDb.database.db, async (tx) => {
        attempts += 1;
        await tx.execute(sql`SELECT id FROM products WHERE id = ${first} FOR UPDATE`);
        if (attempts === 1) {
          // The other connection comes for `first` once this one waits for `second`: a
          // circle. Each session looks for a deadlock when it has waited deadlock_timeout
          // (1 s); this one waited 300 ms longer, so it looks first and is the one ended.
          // Not a fixed delay from here: under load this query can reach the server late.
          otherDone = someoneWaitsForALock(other)
            .then(() => new Promise((resolve) => setTimeout(resolve, 300)))
            .then(async () => {
              await other.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [first]);
              await other.query('ROLLBACK');
            })
            .catch((error: unknown) => error);
        }
        await tx.execute(sql`SELECT id FROM products WHERE id = ${second} FOR UPDATE`);
        await tx.update(products).set({ shortDescription: marker }).where(eq(products.id, first));
      });
      expect(await otherDone).toBeUndefined();
      expect(attempts).toBe(2);
      const [row] = await testDb.database.db
        .select({ text: products.shortDescription })
        .from(products)
        .where(eq(products.id, first));
      expect(row?.text).toBe(marker);
    } finally {
      await other.end();
    }
  });

  it(`is a 503 to try again, never a 500, when all ${MAX_ATTEMPTS} attempts conflict`, async () => {
    let attempts = 0;
    const failure = await retryConflicts(() => {
      attempts += 1;
      // As drizzle throws it: the driver's error, with PostgreSQL's code, is the cause.
      return Promise.reject(
        new Error('Failed query', { cause: Object.assign(new Error(), { code: '40001' }) }),
      );
    }).catch((error: unknown) => error);
    expect(attempts).toBe(MAX_ATTEMPTS);
    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ statusCode: 503, extra: { code: 'BUSY' } });
  });

  it('is not run again when it failed for another reason', async () => {
    let attempts = 0;
    const failure = await retryConflicts(() => {
      attempts += 1;
      return Promise.reject(new HttpError(422, 'Only 1 left'));
    }).catch((error: unknown) => error);
    expect(attempts).toBe(1);
    expect(failure).toMatchObject({ statusCode: 422 });
  });
});
