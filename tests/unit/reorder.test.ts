import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../src/contracts/catalogue';
import {
  cartLine,
  cartOf,
  EMPTY_CART,
  type Cart,
  type OrderItem,
} from '../../src/contracts/orders';
import { generatedProduct } from '../fixtures/generated-products';

// "Order again" with the session and the sync loop faked: what it queues stays in the outbox.
const session = vi.hoisted((): { userId: number | null } => ({ userId: 7 }));
vi.mock('../../src/lib/auth/session-store', () => ({
  getSession: () =>
    session.userId === null
      ? null
      : { accessToken: 'token', refreshToken: 'refresh', user: { id: session.userId } },
  signedInUserId: () => session.userId,
  subscribeSession: () => () => undefined,
}));
vi.mock('../../src/lib/sync/device', () => ({ requestSync: () => undefined }));

const { db } = await import('../../src/lib/db/db');
const { storeProducts } = await import('../../src/lib/db/stored-products');
const { orderAgain, planReorder } = await import('../../src/lib/sync/reorder');

/** A product on sale with this stock, at 10 €. */
function product(id: number, stock: number): Product {
  return { ...generatedProduct(id), price: 10, stock, stockQuantity: stock, inStock: stock > 0 };
}

/** An order's line: `quantity` of product `id` (null: deleted since). */
const ordered = (id: number | null, quantity: number, sku = `P-${id ?? 'gone'}`): OrderItem => ({
  id: Math.floor(Math.random() * 1e6),
  productId: id,
  quantity,
  unitPrice: 9,
  totalPrice: 9 * quantity,
  productName: `Product ${id ?? 'gone'}`,
  productSku: sku,
  product: { id, name: `Product ${id ?? 'gone'}`, sku, images: [] },
});

const byId = (...products: Product[]) => new Map(products.map((p) => [p.id, p]));
const cartHolding = (...lines: [Product, number][]): Cart =>
  cartOf(lines.map(([p, quantity]) => cartLine(p, quantity, 10)));

describe('planReorder', () => {
  it('puts every line in as ordered while the stock allows it', () => {
    const plan = planReorder(
      [ordered(1, 2), ordered(2, 5)],
      byId(product(1, 10), product(2, 5)),
      EMPTY_CART,
    );
    expect(plan.additions).toEqual([
      { productId: 1, quantity: 2 },
      { productId: 2, quantity: 5 },
    ]);
    expect(plan.lines.every((line) => line.problem === undefined)).toBe(true);
  });

  it('leaves out a product no longer sold (deactivated, or deleted) and one out of stock', () => {
    const plan = planReorder(
      [ordered(1, 2), ordered(2, 1), ordered(null, 3, 'GONE-1'), ordered(3, 4)],
      byId(product(1, 0), product(3, 9)),
      EMPTY_CART,
    );
    expect(plan.lines.map((line) => [line.sku, line.problem, line.added])).toEqual([
      ['P-1', 'outOfStock', 0],
      ['P-2', 'notSold', 0],
      ['GONE-1', 'notSold', 0],
      ['P-3', undefined, 4],
    ]);
    expect(plan.additions).toEqual([{ productId: 3, quantity: 4 }]);
  });

  it('reduces a line to the stock, counting what the cart already holds', () => {
    const shampoo = product(1, 6);
    const mask = product(2, 4);
    const plan = planReorder(
      [ordered(1, 5), ordered(2, 3)],
      byId(shampoo, mask),
      cartHolding([shampoo, 2], [mask, 4]),
    );
    expect(plan.lines).toEqual([
      expect.objectContaining({
        productId: 1,
        ordered: 5,
        added: 4,
        inCart: 2,
        stock: 6,
        problem: 'reduced',
      }),
      expect.objectContaining({
        productId: 2,
        ordered: 3,
        added: 0,
        inCart: 4,
        problem: 'allInCart',
      }),
    ]);
    expect(plan.additions).toEqual([{ productId: 1, quantity: 4 }]);
  });

  it('adds to a line already in the cart when the stock allows it', () => {
    const shampoo = product(1, 20);
    const plan = planReorder([ordered(1, 5)], byId(shampoo), cartHolding([shampoo, 3]));
    expect(plan.lines[0]).toMatchObject({ added: 5, inCart: 3 });
    expect(plan.lines[0]?.problem).toBeUndefined();
    expect(plan.additions).toEqual([{ productId: 1, quantity: 5 }]);
  });

  it('counts a product on two lines once, and says when it could not be checked', () => {
    const plan = planReorder(
      [ordered(1, 2), ordered(1, 3), ordered(2, 1)],
      byId(product(1, 10)),
      EMPTY_CART,
      new Set([2]),
    );
    expect(plan.lines.map((line) => [line.productId, line.ordered, line.problem])).toEqual([
      [1, 5, undefined],
      [2, 1, 'unchecked'],
    ]);
    expect(plan.additions).toEqual([{ productId: 1, quantity: 5 }]);
  });

  it('adds no new product to a cart of 200, but still adds to the lines it holds', () => {
    const held = Array.from({ length: 199 }, (_, i) => product(1000 + i, 5));
    const cart = cartHolding(...held.map((p): [Product, number] => [p, 1]), [product(1, 10), 1]);
    const plan = planReorder(
      [ordered(1, 2), ordered(2, 1)],
      byId(product(1, 10), product(2, 5)),
      cart,
    );
    expect(plan.additions).toEqual([{ productId: 1, quantity: 2 }]);
    expect(plan.lines.map((line) => line.problem)).toEqual([undefined, 'cartFull']);
    // With room for one: the first new product goes in, the next does not.
    const roomForOne = cartHolding(...held.map((p): [Product, number] => [p, 1]));
    const fits = planReorder(
      [ordered(1, 1), ordered(2, 1)],
      byId(product(1, 10), product(2, 5)),
      roomForOne,
    );
    expect(fits.additions).toEqual([{ productId: 1, quantity: 1 }]);
    expect(fits.lines.map((line) => line.problem)).toEqual([undefined, 'cartFull']);
  });

  it('says a product without a price cannot be added', () => {
    const { price: _price, ...unpriced } = product(1, 10);
    const plan = planReorder([ordered(1, 1)], byId(unpriced), EMPTY_CART);
    expect(plan.lines[0]?.problem).toBe('noPrice');
  });
});

describe('orderAgain', () => {
  afterEach(async () => {
    await Promise.all([db.outbox.clear(), db.carts.clear(), db.productBlocks.clear()]);
    await db.mirrorState.clear();
  });

  it('queues one cart addition per line it can add, from the device’s catalogue and cart', async () => {
    const shampoo = product(1, 6);
    await storeProducts(db, [shampoo, product(2, 0), product(3, 50)]);
    await db.mirrorState.put({
      key: 'catalogue',
      cursor: null,
      syncedAt: '2026-11-27T10:00:00.000Z',
      complete: true,
      viewer: 'approved',
    });
    await db.carts.put({ userId: 7, cart: cartHolding([shampoo, 2]), syncedAt: '' });

    const plan = await orderAgain([ordered(1, 5), ordered(2, 1), ordered(3, 3), ordered(4, 1)]);

    expect(plan.lines.map((line) => line.problem)).toEqual([
      'reduced',
      'outOfStock',
      undefined,
      'notSold',
    ]);
    const entries = await db.outbox.orderBy('id').toArray();
    expect(entries.map((entry) => [entry.userId, entry.payload])).toEqual([
      [7, { kind: 'cart.add', productId: 1, quantity: 4 }],
      [7, { kind: 'cart.add', productId: 3, quantity: 3 }],
    ]);
    // Each with a key of its own: sent once each, exactly once.
    expect(new Set(entries.map((entry) => entry.idempotencyKey)).size).toBe(2);
  });
});
