import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app';
import { cartItems, orders, products } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany, ensureAdmin } from '../../server/services/admin';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { MAX_ORDER_LINES } from '../../src/contracts/field-sales';
import { MAX_LINE_QUANTITY, type Cart, type Order } from '../../src/contracts/orders';
import { ADDRESS, bearer, like, register, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let admin: Tokens;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  await ensureAdmin(testDb.database.db, 'orders.staff@example.com', 'Orders-Staff-1');
  admin = await signIn(app, 'orders.staff@example.com', 'Orders-Staff-1');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

async function approvedBuyer(): Promise<{ tokens: Tokens; companyId: number }> {
  const { email, password, user } = await register(app);
  await decideCompany(testDb.database.db, user.companyId, 'approve');
  return { tokens: await signIn(app, email, password), companyId: user.companyId };
}

/** A product of the demo catalogue with a given stock, at a known price. */
/** Products already handed to a test: each test's products are its own. */
const handedOut = new Set<number>();

/** A product no other test of this file uses, set to this stock and price. */
async function productWithStock(stock: number, price = '12.50'): Promise<number> {
  const rows = await testDb.database.db.select({ id: products.id }).from(products);
  const free = rows.map((row) => row.id).filter((id) => !handedOut.has(id));
  const id = free[Math.floor(Math.random() * free.length)];
  if (id === undefined) throw new Error('Every product of the catalogue is in use by a test');
  handedOut.add(id);
  await testDb.database.db.update(products).set({ stock, price }).where(eq(products.id, id));
  return id;
}

const call = (
  tokens: Tokens | string,
  method: 'POST' | 'PUT' | 'DELETE' | 'GET',
  url: string,
  payload?: object,
  key?: string,
) =>
  app.inject({
    method,
    url,
    payload: payload as object,
    headers: { ...bearer(tokens), ...(key ? { 'idempotency-key': key } : {}) },
  });

const stockOf = async (id: number) =>
  (
    await testDb.database.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, id))
  )[0]?.stock;

describe('the cart', () => {
  it('adds, changes and removes lines with the catalogue price', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(10, '19.90');
    const added = await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 2 });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      itemCount: 2,
      total: 39.8,
      currency: 'EUR',
      items: [{ id: productId, quantity: 2, price: 19.9, lineTotal: 39.8 }],
    });
    const more = await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 3 });
    expect(more.json<Cart>().items[0]?.quantity).toBe(5);
    const set = await call(tokens, 'PUT', `/api/cart/items/${productId}`, { quantity: 1 });
    expect(set.json()).toMatchObject({ itemCount: 1, total: 19.9 });
    const get = await call(tokens, 'GET', '/api/cart');
    expect(get.json<Cart>().items).toHaveLength(1);
    expect(
      (await call(tokens, 'DELETE', `/api/cart/items/${productId}`)).json<Cart>().items,
    ).toEqual([]);
    // Removing again is not an error: the cart is as asked.
    expect((await call(tokens, 'DELETE', `/api/cart/items/${productId}`)).statusCode).toBe(200);
  });

  it('sets a quantity on a line another device removed meanwhile, making it again', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(10);
    await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 1 });
    // The tablet removes the line; the phone's quantity, typed before, arrives after.
    await call(tokens, 'DELETE', `/api/cart/items/${productId}`);
    const set = await call(tokens, 'PUT', `/api/cart/items/${productId}`, { quantity: 4 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Cart>().items).toMatchObject([{ id: productId, quantity: 4 }]);
    expect(
      (await call(tokens, 'PUT', '/api/cart/items/999999999', { quantity: 1 })).json(),
    ).toMatchObject({ code: 'PRODUCT_NOT_FOUND' });
  });

  it('never holds more than the stock, and says why', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(3);
    const tooMany = await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 4 });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json<ErrorBody>().message).toMatch(/Only 3 .* left in stock/);
    // What the client needs to say it in the user's language.
    expect(tooMany.json()).toMatchObject({
      code: 'insufficientStock',
      params: { stock: 3, wanted: 4, name: like.any(String) },
    });
    await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 3 });
    expect(
      (await call(tokens, 'PUT', `/api/cart/items/${productId}`, { quantity: 4 })).statusCode,
    ).toBe(422);
    const soldOut = await productWithStock(0);
    const none = await call(tokens, 'POST', '/api/cart/add', { productId: soldOut, quantity: 1 });
    expect(none.statusCode).toBe(422);
    expect(none.json<ErrorBody>().message).toMatch(/out of stock/);
    expect(none.json()).toMatchObject({ code: 'outOfStock', params: { stock: 0 } });
  });

  it('never holds more than 9,999 in a line, however it is added up', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(30_000);
    const full = await call(tokens, 'POST', '/api/cart/add', {
      productId,
      quantity: MAX_LINE_QUANTITY,
    });
    expect(full.statusCode).toBe(200);
    const past = await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 1 });
    expect(past.statusCode).toBe(422);
    expect(past.json()).toMatchObject({
      code: 'LINE_LIMIT',
      params: { max: MAX_LINE_QUANTITY, wanted: MAX_LINE_QUANTITY + 1, name: like.any(String) },
      details: [{ field: `product:${productId}`, code: 'LINE_LIMIT' }],
    });
    // The line is as it was.
    expect((await call(tokens, 'GET', '/api/cart')).json<Cart>().items).toMatchObject([
      { id: productId, quantity: MAX_LINE_QUANTITY },
    ]);
  });

  it('holds at most as many products as an order may have, so that the cart can be ordered', async () => {
    const { tokens } = await approvedBuyer();
    const me = await call(tokens, 'GET', '/api/auth/me');
    const userId = me.json<{ user: { id: number } }>().user.id;
    const made = await testDb.database.db
      .insert(products)
      .values(
        Array.from({ length: MAX_ORDER_LINES + 1 }, (_, i) => ({
          sku: `FULL-${randomUUID()}-${i}`,
          name: `Full cart ${i}`,
          categoryId: 1,
          price: '2.00',
          stock: 50,
          searchText: `full cart ${i}`,
          nameKey: `full cart ${i}`,
        })),
      )
      .returning({ id: products.id });
    const [last, ...first] = made.map((row) => row.id).reverse();
    await testDb.database.db
      .insert(cartItems)
      .values(first.map((productId) => ({ userId, productId, quantity: 1 })));

    const added = await call(tokens, 'POST', '/api/cart/add', { productId: last, quantity: 1 });
    expect(added.statusCode).toBe(422);
    expect(added.json()).toMatchObject({ code: 'CART_FULL', params: { max: MAX_ORDER_LINES } });
    const set = await call(tokens, 'PUT', `/api/cart/items/${last}`, { quantity: 1 });
    expect(set.json()).toMatchObject({ code: 'CART_FULL' });
    // A line it holds still changes, and a removed one makes room.
    expect(
      (await call(tokens, 'POST', '/api/cart/add', { productId: first[0], quantity: 2 }))
        .statusCode,
    ).toBe(200);
    await call(tokens, 'DELETE', `/api/cart/items/${first[1]}`);
    const room = await call(tokens, 'POST', '/api/cart/add', { productId: last, quantity: 1 });
    expect(room.json<Cart>().items).toHaveLength(MAX_ORDER_LINES);
  });

  it.each([{ quantity: 0 }, { quantity: -1 }, { quantity: 1.5 }, { quantity: 'two' }, {}])(
    'refuses the quantity %j',
    async (body) => {
      const { tokens } = await approvedBuyer();
      const productId = await productWithStock(10);
      const response = await call(tokens, 'POST', '/api/cart/add', { productId, ...body });
      expect(response.statusCode).toBe(400);
    },
  );

  it('answers 404 for a product that does not exist', async () => {
    const { tokens } = await approvedBuyer();
    expect(
      (await call(tokens, 'POST', '/api/cart/add', { productId: 999999, quantity: 1 })).statusCode,
    ).toBe(404);
  });

  it("numbers an order with the year of Bucharest's calendar, on New Year's Eve too", async () => {
    // 00:30 on 1 January in Bucharest, still 31 December in UTC.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-31T22:30:00Z') });
    try {
      const { tokens } = await approvedBuyer();
      const productId = await productWithStock(5);
      await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 1 });
      const placed = await call(tokens, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS });
      expect(placed.json<{ order: Order }>().order.orderNumber).toMatch(/^FP-2027-\d{6}$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is closed to companies that are not verified and approved', async () => {
    const { email, password, user } = await register(app);
    const tokens = await signIn(app, email, password);
    const productId = await productWithStock(10);
    const read = await call(tokens, 'GET', '/api/cart');
    expect(read.statusCode).toBe(403);
    expect(read.json<ErrorBody>().code).toBe('NOT_APPROVED');
    const pending = await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 1 });
    expect(pending.statusCode).toBe(403);
    expect(
      (await call(tokens, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS })).statusCode,
    ).toBe(403);
    await decideCompany(testDb.database.db, user.companyId, 'approve');
    await decideCompany(testDb.database.db, user.companyId, 'suspend');
    expect(
      (await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 1 })).statusCode,
    ).toBe(403);
    expect((await call(tokens, 'GET', '/api/cart')).json<ErrorBody>().code).toBe('NOT_APPROVED');
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/cart/add',
          payload: { productId, quantity: 1 },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('Idempotency-Key', () => {
  it('replays the recorded response and applies the change once', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(10);
    const key = randomUUID();
    const first = await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 2 }, key);
    const again = await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 2 }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await call(tokens, 'GET', '/api/cart')).json<Cart>().itemCount).toBe(2);
  });

  it('answers 422 when a key comes back with another request', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(10);
    const key = randomUUID();
    await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 1 }, key);
    const other = await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 5 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json<ErrorBody>().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps keys apart per user', async () => {
    const a = await approvedBuyer();
    const b = await approvedBuyer();
    const productId = await productWithStock(10);
    const key = randomUUID();
    await call(a.tokens, 'POST', '/api/cart/add', { productId, quantity: 1 }, key);
    const response = await call(b.tokens, 'POST', '/api/cart/add', { productId, quantity: 1 }, key);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(response.json<Cart>().itemCount).toBe(1);
  });

  it('makes one order of a checkout sent many times at once', async () => {
    const { tokens, companyId } = await approvedBuyer();
    const productId = await productWithStock(10);
    await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 2 });
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(tokens, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS }, key),
      ),
    );
    for (const response of responses) expect([201, 409]).toContain(response.statusCode);
    const created = responses
      .filter((r) => r.statusCode === 201)
      .map((r) => r.json<{ order: Order }>().order.orderNumber);
    expect(new Set(created).size).toBe(1);
    const [row] = await testDb.database.db
      .select({ n: count() })
      .from(orders)
      .where(eq(orders.companyId, companyId));
    expect(row?.n).toBe(1);
    expect(await stockOf(productId)).toBe(8);
    const replay = await call(
      tokens,
      'POST',
      '/api/cart/checkout',
      { shippingAddress: ADDRESS },
      key,
    );
    expect(replay.statusCode).toBe(201);
    expect(replay.json<{ order: Order }>().order.orderNumber).toBe(created[0]);
  });

  it('refuses a malformed key', async () => {
    const { tokens } = await approvedBuyer();
    expect(
      (await call(tokens, 'DELETE', '/api/cart', undefined, 'no spaces allowed')).statusCode,
    ).toBe(400);
  });
});

describe('checkout', () => {
  it('turns the cart into an order at the catalogue price, takes the stock and empties the cart', async () => {
    const { tokens } = await approvedBuyer();
    const first = await productWithStock(10, '10.00');
    const second = await productWithStock(5, '2.35');
    await call(tokens, 'POST', '/api/cart/add', { productId: first, quantity: 3 });
    await call(tokens, 'POST', '/api/cart/add', { productId: second, quantity: 2 });
    // The price changes after the line was added: the order takes the price of the moment.
    await testDb.database.db.update(products).set({ price: '11.00' }).where(eq(products.id, first));
    const response = await call(tokens, 'POST', '/api/cart/checkout', {
      shippingAddress: ADDRESS,
      notes: 'Deliver after 10:00',
      clientReference: 'local-123',
    });
    expect(response.statusCode).toBe(201);
    const { order, message } = response.json<{ order: Order; message: string }>();
    expect(message).toBe(`Order ${order.orderNumber} created successfully!`);
    expect(order).toMatchObject({
      orderNumber: like.stringMatching(/^FP-\d{4}-\d{6}$/),
      status: 'PENDING',
      paymentStatus: 'PENDING',
      paymentMethod: 'BANK_TRANSFER',
      currency: 'EUR',
      total: 37.7,
      itemCount: 5,
      notes: 'Deliver after 10:00',
      clientReference: 'local-123',
      shippingAddress: ADDRESS,
    });
    expect(order.orderItems.map((i) => [i.unitPrice, i.quantity]).sort()).toEqual(
      [
        [11, 3],
        [2.35, 2],
      ].sort(),
    );
    expect(await stockOf(first)).toBe(7);
    expect(await stockOf(second)).toBe(3);
    expect((await call(tokens, 'GET', '/api/cart')).json<Cart>().items).toEqual([]);
  });

  it('refuses an empty cart and an incomplete address', async () => {
    const { tokens } = await approvedBuyer();
    const empty = await call(tokens, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<ErrorBody>().message).toBe('Your cart is empty');
    const productId = await productWithStock(10);
    await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 1 });
    const missing = await call(tokens, 'POST', '/api/cart/checkout', {
      shippingAddress: { ...ADDRESS, street: ' ', phone: 'call me' },
    });
    expect(missing.statusCode).toBe(400);
    expect(
      missing
        .json<ErrorBody>()
        .details?.map((d) => d.field)
        .sort(),
    ).toEqual(['shippingAddress.phone', 'shippingAddress.street']);
  });

  it('refuses a cart whose stock ran out, keeping the cart', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(4);
    await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 4 });
    await testDb.database.db.update(products).set({ stock: 1 }).where(eq(products.id, productId));
    const response = await call(tokens, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS });
    expect(response.statusCode).toBe(422);
    expect(response.json<ErrorBody>().message).toMatch(/Only 1 .* left/);
    expect((await call(tokens, 'GET', '/api/cart')).json<Cart>().itemCount).toBe(4);
  });
});

// One user on a phone and a tablet (docs/product.md#one-user-on-two-devices): the phone
// checks out the lines it showed, while the tablet has changed the same cart meanwhile.
describe('a checkout naming the lines the user confirmed', () => {
  it('orders exactly those, and leaves in the cart what another device added', async () => {
    const { tokens } = await approvedBuyer();
    const [shampoo, mask, oil] = [
      await productWithStock(20, '10.00'),
      await productWithStock(20, '20.00'),
      await productWithStock(20, '5.00'),
    ] as [number, number, number];
    // The phone's view: 2 shampoos. The tablet then made them 5 and added an oil.
    await call(tokens, 'POST', '/api/cart/add', { productId: shampoo, quantity: 5 });
    await call(tokens, 'POST', '/api/cart/add', { productId: oil, quantity: 1 });

    const response = await call(tokens, 'POST', '/api/cart/checkout', {
      shippingAddress: ADDRESS,
      // The mask is not in the server's cart (the tablet removed it): the phone's user
      // confirmed it, so it is ordered.
      items: [
        { productId: shampoo, quantity: 2 },
        { productId: mask, quantity: 1 },
      ],
    });

    expect(response.statusCode).toBe(201);
    const order = response.json<{ order: Order }>().order;
    expect(order.orderItems.map((item) => [item.productId, item.quantity]).sort()).toEqual(
      [
        [shampoo, 2],
        [mask, 1],
      ].sort(),
    );
    expect(order.total).toBe(40);
    // Nothing the tablet did is lost: the 3 shampoos not ordered and the oil stay.
    const cart = (await call(tokens, 'GET', '/api/cart')).json<Cart>();
    expect(cart.items.map((item) => [item.id, item.quantity]).sort()).toEqual(
      [
        [shampoo, 3],
        [oil, 1],
      ].sort(),
    );
    expect([await stockOf(shampoo), await stockOf(mask), await stockOf(oil)]).toEqual([18, 19, 20]);
  });

  it('adds up a product named twice, within the most one line may hold', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(1000);
    const twice = await call(tokens, 'POST', '/api/cart/checkout', {
      shippingAddress: ADDRESS,
      items: [
        { productId, quantity: 2 },
        { productId, quantity: 3 },
      ],
    });
    expect(twice.statusCode).toBe(201);
    expect(twice.json<{ order: Order }>().order.orderItems).toMatchObject([{ quantity: 5 }]);

    const tooMany = await call(tokens, 'POST', '/api/cart/checkout', {
      shippingAddress: ADDRESS,
      items: [
        { productId, quantity: MAX_LINE_QUANTITY },
        { productId, quantity: 1 },
      ],
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<ErrorBody>().details).toMatchObject([{ field: `product:${productId}` }]);
  });

  it('refuses an unknown product, a line beyond the stock and an empty list, ordering nothing', async () => {
    const { tokens } = await approvedBuyer();
    const productId = await productWithStock(2);
    await call(tokens, 'POST', '/api/cart/add', { productId, quantity: 1 });
    const checkout = (items: object[]) =>
      call(tokens, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS, items });

    expect((await checkout([{ productId: 999999, quantity: 1 }])).statusCode).toBe(404);
    const short = await checkout([{ productId, quantity: 3 }]);
    expect(short.statusCode).toBe(422);
    // What the device needs to say it in the user's language, as for the cart.
    expect(short.json()).toMatchObject({
      code: 'insufficientStock',
      params: { stock: 2, wanted: 3, name: like.any(String) },
      details: [{ field: `product:${productId}`, code: 'insufficientStock' }],
    });
    const soldOut = await productWithStock(0);
    const both = await checkout([
      { productId, quantity: 3 },
      { productId: soldOut, quantity: 1 },
    ]);
    expect(both.statusCode).toBe(422);
    expect(both.json()).toMatchObject({
      code: 'STOCK_SHORT',
      params: { names: like.stringContaining(',') },
      details: [{ code: 'insufficientStock' }, { code: 'outOfStock' }],
    });
    expect((await checkout([])).statusCode).toBe(400);
    expect((await call(tokens, 'GET', '/api/orders')).json<{ orders: Order[] }>().orders).toEqual(
      [],
    );
    expect((await call(tokens, 'GET', '/api/cart')).json<Cart>().itemCount).toBe(1);
    expect(await stockOf(productId)).toBe(2);
  });
});

describe('orders', () => {
  async function placeOrder(tokens: Tokens, quantity = 2) {
    const productId = await productWithStock(20);
    await call(tokens, 'POST', '/api/cart/add', { productId, quantity });
    const response = await call(tokens, 'POST', '/api/cart/checkout', { shippingAddress: ADDRESS });
    return { order: response.json<{ order: Order }>().order, productId };
  }

  it('are listed and read by their company only', async () => {
    const owner = await approvedBuyer();
    const stranger = await approvedBuyer();
    const { order } = await placeOrder(owner.tokens);
    const list = await call(owner.tokens, 'GET', '/api/orders');
    expect(list.json<{ orders: Order[] }>().orders.map((o) => o.id)).toEqual([order.id]);
    expect(
      (await call(owner.tokens, 'GET', `/api/orders/${order.id}`)).json<{ order: Order }>().order
        .orderNumber,
    ).toBe(order.orderNumber);
    expect((await call(stranger.tokens, 'GET', `/api/orders/${order.id}`)).statusCode).toBe(404);
    expect(
      (await call(stranger.tokens, 'GET', '/api/orders')).json<{ orders: Order[] }>().orders,
    ).toEqual([]);
    expect(
      (
        await call(stranger.tokens, 'DELETE', `/api/orders/${order.id}`, {
          cancellationReason: 'mine now',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('are cancelled while pending, with the stock restored and the reason kept', async () => {
    const { tokens } = await approvedBuyer();
    const { order, productId } = await placeOrder(tokens, 3);
    expect(await stockOf(productId)).toBe(17);
    const cancelled = await call(tokens, 'DELETE', `/api/orders/${order.id}`, {
      cancellationReason: 'Ordered twice',
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<{ order: Order }>().order).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'Ordered twice',
    });
    expect(await stockOf(productId)).toBe(20);
    const again = await call(tokens, 'DELETE', `/api/orders/${order.id}`, {
      cancellationReason: 'again',
    });
    expect(again.statusCode).toBe(409);
    expect(await stockOf(productId)).toBe(20);
  });

  it('are not cancelled once processing', async () => {
    const { tokens } = await approvedBuyer();
    const { order } = await placeOrder(tokens);
    const move = (status: string) =>
      call(admin, 'POST', `/api/admin/orders/${order.id}/status`, { status });
    expect((await move('CONFIRMED')).statusCode).toBe(200);
    expect(
      (await call(tokens, 'GET', `/api/orders/${order.id}`)).json<{ order: Order }>().order.status,
    ).toBe('CONFIRMED');
    expect((await move('PROCESSING')).statusCode).toBe(200);
    const refused = await call(tokens, 'DELETE', `/api/orders/${order.id}`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorBody>().message).toMatch(/can no longer be cancelled/);
    expect(refused.json()).toMatchObject({
      code: 'ORDER_NOT_CANCELLABLE',
      params: { orderNumber: order.orderNumber },
    });
  });

  it('move one step at a time for staff, who also record payments; users may not', async () => {
    const { tokens } = await approvedBuyer();
    const { order } = await placeOrder(tokens);
    expect(
      (await call(admin, 'POST', `/api/admin/orders/${order.id}/status`, { status: 'SHIPPED' }))
        .statusCode,
    ).toBe(409);
    const paid = await call(admin, 'POST', `/api/admin/orders/${order.id}/payment`, {
      paymentStatus: 'PAID',
    });
    expect(paid.json<{ order: Order }>().order.paymentStatus).toBe('PAID');
    expect(
      (await call(tokens, 'POST', `/api/admin/orders/${order.id}/status`, { status: 'CONFIRMED' }))
        .statusCode,
    ).toBe(403);
    expect((await call(tokens, 'GET', '/api/admin/orders')).statusCode).toBe(403);
    const all = await call(admin, 'GET', '/api/admin/orders?status=PENDING');
    expect(all.json<{ orders: Order[] }>().orders.some((o) => o.id === order.id)).toBe(true);
  });
});
