/**
 * /api/lists: a salon user's order lists, changed as a device's outbox changes them.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { orderListItems, orderLists, products } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany, ensureAdmin } from '../../server/services/admin';
import type { ErrorBody } from '../../src/contracts/error-schema';
import {
  MAX_LIST_ITEMS,
  MAX_ORDER_LISTS,
  type OrderList,
  type OrderLists,
} from '../../src/contracts/order-lists';
import { bearer, register, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Tokens;
let productIds: number[];

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  await ensureAdmin(testDb.database.db, 'lists.staff@example.com', 'Lists-Staff-1');
  staff = await signIn(app, 'lists.staff@example.com', 'Lists-Staff-1');
  productIds = (
    await testDb.database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.active, true))
      .orderBy(products.id)
  ).map((row) => row.id);
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

async function approvedSalonUser(): Promise<{ tokens: Tokens; userId: number }> {
  const { email, password, user } = await register(app);
  await decideCompany(testDb.database.db, user.companyId, 'approve');
  return { tokens: await signIn(app, email, password), userId: user.id };
}

const call = (
  tokens: Tokens | null,
  method: 'PUT' | 'DELETE' | 'GET',
  url: string,
  payload?: object,
  key?: string,
) =>
  app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: { ...(tokens ? bearer(tokens) : {}), ...(key ? { 'idempotency-key': key } : {}) },
  });

const listsOf = async (tokens: Tokens) =>
  (await call(tokens, 'GET', '/api/lists')).json<OrderLists>().lists;

describe('order lists', () => {
  it('are made under the device’s id, renamed, filled, changed and emptied', async () => {
    const { tokens } = await approvedSalonUser();
    const [first, second] = productIds as [number, number];
    const id = randomUUID();
    const made = await call(tokens, 'PUT', `/api/lists/${id}`, { name: '  Back-bar ' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json<OrderList>()).toMatchObject({ id, name: 'Back-bar', items: [] });

    const renamed = await call(tokens, 'PUT', `/api/lists/${id}`, { name: 'Back-bar weekly' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<OrderList>().name).toBe('Back-bar weekly');

    await call(tokens, 'PUT', `/api/lists/${id}/items/${second}`, { quantity: 6 });
    const filled = await call(tokens, 'PUT', `/api/lists/${id}/items/${first}`, { quantity: 2 });
    expect(filled.statusCode, filled.body).toBe(200);
    // In the order the products were added.
    expect(filled.json<OrderList>().items).toEqual([
      { productId: second, quantity: 6 },
      { productId: first, quantity: 2 },
    ]);
    // Setting a quantity sets it, whatever the list held.
    const changed = await call(tokens, 'PUT', `/api/lists/${id}/items/${second}`, { quantity: 3 });
    expect(changed.json<OrderList>().items[0]).toEqual({ productId: second, quantity: 3 });
    expect(Date.parse(changed.json<OrderList>().updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(made.json<OrderList>().updatedAt),
    );

    const removed = await call(tokens, 'DELETE', `/api/lists/${id}/items/${second}`);
    expect(removed.json<OrderList>().items).toEqual([{ productId: first, quantity: 2 }]);
    // Removing a product the list no longer holds leaves it as it is.
    expect((await call(tokens, 'DELETE', `/api/lists/${id}/items/${second}`)).statusCode).toBe(200);

    expect(await listsOf(tokens)).toEqual([
      expect.objectContaining({
        id,
        name: 'Back-bar weekly',
        items: [{ productId: first, quantity: 2 }],
      }),
    ]);
    const deleted = await call(tokens, 'DELETE', `/api/lists/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Order list deleted.' });
    expect(await listsOf(tokens)).toEqual([]);
    // Deleted again (on another device, with another key): it is gone, as asked.
    const again = await call(tokens, 'DELETE', `/api/lists/${id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: 'Order list deleted.' });
    const lines = await testDb.database.db
      .select()
      .from(orderListItems)
      .where(eq(orderListItems.listId, id));
    expect(lines).toEqual([]);
  });

  it('answers a change sent twice with one key once, as the first time', async () => {
    const { tokens } = await approvedSalonUser();
    const id = randomUUID();
    const key = randomUUID();
    const first = await call(tokens, 'PUT', `/api/lists/${id}`, { name: 'Christmas' }, key);
    const again = await call(tokens, 'PUT', `/api/lists/${id}`, { name: 'Christmas' }, key);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json()).toEqual(first.json());
    expect(await listsOf(tokens)).toHaveLength(1);
  });

  it('are the user’s own: another user’s list is not found, and stays as it was', async () => {
    const owner = await approvedSalonUser();
    const other = await approvedSalonUser();
    const id = randomUUID();
    await call(owner.tokens, 'PUT', `/api/lists/${id}`, { name: 'Mine' });
    await call(owner.tokens, 'PUT', `/api/lists/${id}/items/${productIds[0]}`, { quantity: 1 });

    expect(await listsOf(other.tokens)).toEqual([]);
    for (const [method, url, body] of [
      ['PUT', `/api/lists/${id}`, { name: 'Taken' }],
      ['DELETE', `/api/lists/${id}`, undefined],
      ['PUT', `/api/lists/${id}/items/${productIds[1]}`, { quantity: 5 }],
      ['DELETE', `/api/lists/${id}/items/${productIds[0]}`, undefined],
    ] as const) {
      const refused = await call(other.tokens, method, url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(404);
      expect(refused.json<ErrorBody>().message).toBe('Order list not found');
    }
    expect(await listsOf(owner.tokens)).toEqual([
      expect.objectContaining({
        id,
        name: 'Mine',
        items: [{ productId: productIds[0], quantity: 1 }],
      }),
    ]);
  });

  it('refuse what is not a list, a name, a product or a quantity', async () => {
    const { tokens } = await approvedSalonUser();
    const id = randomUUID();
    await call(tokens, 'PUT', `/api/lists/${id}`, { name: 'Checks' });
    const cases = [
      ['PUT', '/api/lists/not-a-uuid', { name: 'X' }, 400],
      ['PUT', `/api/lists/${randomUUID()}`, { name: '' }, 400],
      ['PUT', `/api/lists/${randomUUID()}`, { name: '   ' }, 400],
      ['PUT', `/api/lists/${randomUUID()}`, { name: 'x'.repeat(61) }, 400],
      ['PUT', `/api/lists/${randomUUID()}`, { name: 'Extra', colour: 'red' }, 400],
      ['PUT', `/api/lists/${id}/items/${productIds[0]}`, { quantity: 0 }, 400],
      ['PUT', `/api/lists/${id}/items/${productIds[0]}`, { quantity: 1.5 }, 400],
      ['PUT', `/api/lists/${id}/items/999999`, { quantity: 1 }, 404],
      ['PUT', `/api/lists/${randomUUID()}/items/${productIds[0]}`, { quantity: 1 }, 404],
    ] as const;
    for (const [method, url, body, status] of cases) {
      const response = await call(tokens, method, url, body);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(response.json<ErrorBody>().message).toEqual(expect.any(String));
    }
    // A product staff took off sale cannot be put in a list.
    const [offSale] = await testDb.database.db
      .update(products)
      .set({ active: false })
      .where(and(eq(products.id, productIds.at(-1)!), ne(products.active, false)))
      .returning({ id: products.id });
    const refused = await call(tokens, 'PUT', `/api/lists/${id}/items/${offSale!.id}`, {
      quantity: 1,
    });
    expect(refused.statusCode).toBe(404);
    await testDb.database.db
      .update(products)
      .set({ active: true })
      .where(eq(products.id, offSale!.id));
  });

  it(`keep at most ${MAX_ORDER_LISTS} lists a user and ${MAX_LIST_ITEMS} products a list`, async () => {
    const { tokens, userId } = await approvedSalonUser();
    await testDb.database.db.insert(orderLists).values(
      Array.from({ length: MAX_ORDER_LISTS }, (_, index) => ({
        id: randomUUID(),
        userId,
        name: `List ${index + 1}`,
      })),
    );
    const tooMany = await call(tokens, 'PUT', `/api/lists/${randomUUID()}`, { name: 'One more' });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json()).toMatchObject({
      message: `You can keep at most ${MAX_ORDER_LISTS} order lists.`,
      code: 'TOO_MANY_LISTS',
    });
    // Renaming one of them is still fine.
    const [kept] = await listsOf(tokens);
    expect(
      (await call(tokens, 'PUT', `/api/lists/${kept!.id}`, { name: 'Renamed' })).statusCode,
    ).toBe(200);

    const full = randomUUID();
    const owner = await approvedSalonUser();
    await call(owner.tokens, 'PUT', `/api/lists/${full}`, { name: 'Full' });
    const filler = await testDb.database.db
      .insert(products)
      .values(
        Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, index) => ({
          sku: `LIST-FILL-${index}`,
          name: `Filler ${index}`,
          categoryId: 1,
          price: '1.00',
          searchText: `filler ${index}`,
          nameKey: `filler ${index}`,
        })),
      )
      .returning({ id: products.id });
    const [last, ...first] = filler.map((row) => row.id);
    await testDb.database.db
      .insert(orderListItems)
      .values(first.map((productId) => ({ listId: full, productId, quantity: 1 })));
    const overfull = await call(owner.tokens, 'PUT', `/api/lists/${full}/items/${last}`, {
      quantity: 1,
    });
    expect(overfull.statusCode).toBe(422);
    expect(overfull.json()).toMatchObject({ code: 'TOO_MANY_LIST_ITEMS' });
    // A product it already holds still takes a new quantity.
    expect(
      (await call(owner.tokens, 'PUT', `/api/lists/${full}/items/${first[0]}`, { quantity: 4 }))
        .statusCode,
    ).toBe(200);
  });

  it('are for salons that may order: 401 signed out, 403 unapproved and staff', async () => {
    const id = randomUUID();
    expect((await call(null, 'GET', '/api/lists')).statusCode).toBe(401);
    expect((await call(null, 'PUT', `/api/lists/${id}`, { name: 'X' })).statusCode).toBe(401);
    const { email, password } = await register(app);
    const pending = await signIn(app, email, password);
    for (const tokens of [pending, staff]) {
      expect((await call(tokens, 'GET', '/api/lists')).statusCode).toBe(403);
      expect((await call(tokens, 'PUT', `/api/lists/${id}`, { name: 'X' })).statusCode).toBe(403);
    }
  });
});
