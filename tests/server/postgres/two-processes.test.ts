/**
 * Two real server processes on one PostgreSQL, requests split between them over HTTP: the
 * way the portal grows past one machine. Row locks, deadlocks and the stock are decided by
 * the database here, across processes and connection pools.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, sql, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/database';
import {
  cartItems,
  companies,
  orderItems,
  orders,
  products,
  refreshTokens,
  users,
} from '../../../server/db/schema';
import { seedDatabase } from '../../../server/db/seed';
import { hashPassword } from '../../../server/services/passwords';
import { openSession } from '../../../server/services/sessions';
import { createTestDatabase, type TestDatabase } from '../test-database';
import { startServers, type Servers } from './servers';
import { ADDRESS } from '../helpers';

let testDb: TestDatabase;
let db: Db;
let servers: Servers;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.database.db;
  // Seeded here, so that the processes find a catalogue and skip the demo accounts.
  await seedDatabase(db, { demoAccounts: false });
  servers = await startServers(testDb.url as string, 2);
}, 180_000);

afterAll(async () => {
  await servers?.stop();
  await testDb?.drop();
});

/** Approved buyers of one new company, each with an access token of its own session. */
async function approvedBuyers(
  n: number,
): Promise<{ tokens: string[]; userIds: number[]; companyId: number }> {
  const [company] = await db
    .insert(companies)
    .values({ name: `Race Co ${randomUUID()}`, status: 'APPROVED', isVerified: true })
    .returning({ id: companies.id });
  const companyId = company?.id ?? 0;
  const passwordHash = await hashPassword('Race-Pass-1');
  const buyers = await db
    .insert(users)
    .values(
      Array.from({ length: n }, (_, i) => ({
        email: `buyer.${i}.${randomUUID()}@example.com`,
        passwordHash,
        firstName: 'R',
        lastName: String(i),
        companyId,
      })),
    )
    .returning({ id: users.id });
  const tokens = await Promise.all(
    buyers.map((b) => openSession(db, b.id).then((session) => session.accessToken)),
  );
  return { tokens, userIds: buyers.map((b) => b.id), companyId };
}

/** Demo products set to a known stock. */
async function productsWithStock(n: number, stock: number): Promise<number[]> {
  const rows = await db.select({ id: products.id }).from(products).orderBy(products.id).limit(n);
  const ids = rows.map((r) => r.id);
  await db.update(products).set({ stock, price: '10.00' }).where(inArray(products.id, ids));
  return ids;
}

/** One request to the process `i` picks (round robin), answering its status and body. */
async function send(
  i: number,
  token: string,
  method: string,
  path: string,
  body?: object,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const base = servers.urls[i % servers.urls.length] as string;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : null,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('two server processes on one PostgreSQL', () => {
  it('answer cart changes and checkouts of one user at the same time without a 500, and stock, orders and cart add up', async () => {
    const {
      tokens: [token = ''],
      userIds: [userId = 0],
      companyId,
    } = await approvedBuyers(1);
    const START_STOCK = 10_000;
    const ids = await productsWithStock(3, START_STOCK);
    // Every product already in the cart: each checkout locks lines that the adds lock too.
    for (const productId of ids) {
      expect(
        (await send(0, token, 'POST', '/api/cart/add', { productId, quantity: 1 })).status,
      ).toBe(200);
    }

    // 60 requests at once, split across both processes: 45 adds and 15 checkouts, mixed.
    const plan = Array.from({ length: 60 }, (_, i) =>
      i % 4 === 3
        ? ({ kind: 'checkout' } as const)
        : ({
            kind: 'add',
            productId: ids[i % ids.length] as number,
            quantity: 1 + (i % 3),
          } as const),
    );
    const results = await Promise.all(
      plan.map((step, i) =>
        step.kind === 'checkout'
          ? send(i, token, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS })
          : send(i, token, 'POST', '/api/cart/add', {
              productId: step.productId,
              quantity: step.quantity,
            }),
      ),
    );

    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    results.forEach((result, i) => {
      expect(plan[i]?.kind === 'add' ? [200] : [201, 400]).toContain(result.status);
    });

    // What was added is either ordered or still in the cart, product by product, and the
    // stock went down by exactly what was ordered.
    for (const productId of ids) {
      const added =
        1 +
        plan.reduce(
          (total, step) =>
            step.kind === 'add' && step.productId === productId ? total + step.quantity : total,
          0,
        );
      const [ordered] = await db
        .select({ n: sum(orderItems.quantity) })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(and(eq(orders.companyId, companyId), eq(orderItems.productId, productId)));
      const [inCart] = await db
        .select({ n: sum(cartItems.quantity) })
        .from(cartItems)
        .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)));
      const [stock] = await db
        .select({ stock: products.stock })
        .from(products)
        .where(eq(products.id, productId));
      const orderedQuantity = Number(ordered?.n ?? 0);
      expect(orderedQuantity + Number(inCart?.n ?? 0)).toBe(added);
      expect(stock?.stock).toBe(START_STOCK - orderedQuantity);
    }
    const [made] = await db
      .select({ n: count() })
      .from(orders)
      .where(eq(orders.companyId, companyId));
    expect(made?.n).toBe(statuses.filter((s) => s === 201).length);
  }, 60_000);

  it('never sell more than the stock when 200 buyers race for 50 units', async () => {
    const [productId = 0] = await productsWithStock(1, 50);
    const { tokens, companyId } = await approvedBuyers(200);
    // Every buyer has the product in the cart (the stock allows one each, as carts do).
    const added = await Promise.all(
      tokens.map((token, i) => send(i, token, 'POST', '/api/cart/add', { productId, quantity: 1 })),
    );
    expect(added.map((r) => r.status)).toEqual(tokens.map(() => 200));

    const results = await Promise.all(
      tokens.map((token, i) =>
        send(i, token, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 422)).toHaveLength(150);
    const [stock] = await db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, productId));
    expect(stock?.stock).toBe(0);
    const [made] = await db
      .select({ n: count() })
      .from(orders)
      .where(eq(orders.companyId, companyId));
    expect(made?.n).toBe(50);
  }, 180_000);
});

describe('what the processes share through the database', () => {
  it('count sign-in guesses together: of 100 simultaneous wrong guesses split between them, at most 5 are checked', async () => {
    const email = `guessed.${randomUUID()}@example.com`;
    await db.insert(users).values({
      email,
      passwordHash: await hashPassword('Right-Pass-1'),
      firstName: 'G',
      lastName: 'H',
    });
    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const response = await fetch(`${servers.urls[i % 2]}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: `Wrong-${i}-Pass` }),
        });
        return { status: response.status, retryAfter: response.headers.get('retry-after') };
      }),
    );
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(95);
    expect(refused.every((a) => Number(a.retryAfter) > 0)).toBe(true);
  });

  it('never answer a price from a copy kept before a change made straight in the database was seen', async () => {
    const {
      tokens: [token = ''],
    } = await approvedBuyers(1);
    const [productId = 0] = await productsWithStock(1, 100);
    const priceVia = async (i: number) =>
      (await send(i, token, 'GET', `/api/products/${productId}`)).body.product as { price: number };
    // Both processes hold the answer in their caches.
    expect((await priceVia(0)).price).toBe(10);
    expect((await priceVia(1)).price).toBe(10);
    await db.update(products).set({ price: '12.34' }).where(eq(products.id, productId));
    await testDb.settled();
    expect((await priceVia(0)).price).toBe(12.34);
    expect((await priceVia(1)).price).toBe(12.34);
  });

  it("never let a session or a company's approval outlive a change made straight in the database", async () => {
    const {
      tokens: [token = ''],
      userIds: [userId = 0],
      companyId,
    } = await approvedBuyers(1);
    const [productId = 0] = await productsWithStock(1, 100);
    const priceVia = async (i: number) =>
      (
        (await send(i, token, 'GET', `/api/products/${productId}`)).body.product as {
          price?: number;
        }
      ).price;
    // Both processes have read the account and the priced answer.
    expect(await priceVia(0)).toBe(10);
    expect(await priceVia(1)).toBe(10);
    await db.update(companies).set({ status: 'SUSPENDED' }).where(eq(companies.id, companyId));
    await testDb.settled();
    expect(await priceVia(0)).toBeUndefined();
    expect(await priceVia(1)).toBeUndefined();
    expect((await send(1, token, 'GET', '/api/cart')).status).toBe(403);

    await db.update(companies).set({ status: 'APPROVED' }).where(eq(companies.id, companyId));
    await testDb.settled();
    expect(await priceVia(1)).toBe(10);
    // Signed out elsewhere: the same access token stops working in both at once.
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(eq(refreshTokens.userId, userId));
    await testDb.settled();
    expect((await send(0, token, 'GET', '/api/auth/me')).status).toBe(401);
    expect((await send(1, token, 'GET', '/api/auth/me')).status).toBe(401);
  });

  it('show a change made through one process through the other as soon as it is answered', async () => {
    const {
      tokens: [token = ''],
      userIds: [userId = 0],
    } = await approvedBuyers(1);
    const [productId = 0] = await productsWithStock(1, 100);
    await testDb.settled();
    const stockVia = async (i: number) =>
      (
        (await send(i, token, 'GET', `/api/products/${productId}`)).body.product as {
          stock: number;
        }
      ).stock;
    expect(await stockVia(1)).toBe(100);
    // An order through process 0 takes stock: process 1 answers the new stock at once.
    const add = await send(0, token, 'POST', '/api/cart/add', { productId, quantity: 3 });
    expect(add.status).toBe(200);
    const order = await send(0, token, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS });
    expect(order.status).toBe(201);
    expect(await stockVia(1)).toBe(97);

    // Signed out through process 0: process 1 refuses the session's token at once.
    const [{ email = '' } = {}] = await db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    const post = (i: number, path: string, body: object, bearer?: string) =>
      fetch(`${servers.urls[i]}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const session = (await (
      await post(0, '/api/auth/login', { email, password: 'Race-Pass-1' })
    ).json()) as {
      accessToken: string;
      refreshToken: string;
    };
    expect((await send(1, session.accessToken, 'GET', '/api/auth/me')).status).toBe(200);
    const out = await post(
      0,
      '/api/auth/logout',
      { refreshToken: session.refreshToken },
      session.accessToken,
    );
    expect(out.status).toBe(200);
    expect((await send(1, session.accessToken, 'GET', '/api/auth/me')).status).toBe(401);
  });

  it('answer right while their listening connections are cut, and trust their copies again after', async () => {
    const {
      tokens: [token = ''],
    } = await approvedBuyers(1);
    const [productId = 0] = await productsWithStock(1, 100);
    await testDb.settled();
    const priceVia = async (i: number) =>
      (
        (await send(i, token, 'GET', `/api/products/${productId}`)).body.product as {
          price: number;
        }
      ).price;
    expect(await priceVia(0)).toBe(10);
    expect(await priceVia(1)).toBe(10);
    const rowsOf = async <Row>(query: ReturnType<typeof sql>) =>
      ((await db.execute(query)) as { rows: Row[] }).rows;
    // Listeners seen within the time after which writers stop waiting for them (4 s).
    const listening = async () =>
      (
        await rowsOf<{ id: string }>(
          sql`SELECT id FROM change_listeners WHERE seen_at > now() - interval '4 seconds'`,
        )
      ).map((row) => row.id);
    const listenersWhere = async (enough: (ids: string[]) => boolean, what: string) => {
      for (let tries = 0; ; tries += 1) {
        const ids = await listening();
        if (enough(ids)) return ids;
        if (tries > 100) throw new Error(what);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // Each process listens once its connection is up (on a loaded machine, a moment later).
    const before = await listenersWhere((ids) => ids.length === 2, 'the processes did not listen');
    // What a network fault or a restart of the database does to the listening connections.
    const cut = await rowsOf<unknown>(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'portal change listener' AND datname = current_database()`,
    );
    expect(cut).toHaveLength(2);
    await db.update(products).set({ price: '12.34' }).where(eq(products.id, productId));
    // Waits for the cut listeners until they no longer trust their copies.
    await testDb.settled();
    expect(await priceVia(0)).toBe(12.34);
    expect(await priceVia(1)).toBe(12.34);

    // Both listen again, and a change through one is again seen through the other at once.
    await listenersWhere(
      (ids) => ids.filter((id) => !before.includes(id)).length >= 2,
      'the processes did not listen again',
    );
    expect(await priceVia(1)).toBe(12.34);
    expect((await send(0, token, 'POST', '/api/cart/add', { productId, quantity: 1 })).status).toBe(
      200,
    );
    expect(
      (await send(0, token, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS })).status,
    ).toBe(201);
    expect(
      (
        (await send(1, token, 'GET', `/api/products/${productId}`)).body.product as {
          stock: number;
        }
      ).stock,
    ).toBe(99);
  });

  it('apply a change sent to both with one Idempotency-Key once', async () => {
    const {
      tokens: [token = ''],
      userIds: [userId = 0],
    } = await approvedBuyers(1);
    const [productId = 0] = await productsWithStock(1, 100);
    const key = randomUUID();
    const answers = await Promise.all(
      [0, 1, 0, 1].map(async (i) => {
        const response = await fetch(`${servers.urls[i]}/api/cart/add`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: JSON.stringify({ productId, quantity: 2 }),
        });
        return response.status;
      }),
    );
    expect(answers.every((status) => status === 200 || status === 409)).toBe(true);
    const [line] = await db
      .select({ quantity: cartItems.quantity })
      .from(cartItems)
      .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)));
    expect(line?.quantity).toBe(2);
  });
});
