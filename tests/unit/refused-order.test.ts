import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { cartLine, cartOf } from '../../src/contracts/orders';
import { generatedProduct } from '../fixtures/generated-products';
import { ADDRESS } from '../fixtures/shipping-address';

// A salon's order the server refused (not enough stock), and the order placed after the
// user lowered the quantity in the cart, as the refusal told them to; an order placed as a
// quantity typed is still being saved. The session and the sync loop are faked: what is
// queued stays in the outbox.
vi.mock('../../src/lib/auth/session-store', () => ({
  getSession: () => ({ accessToken: 'token', refreshToken: 'refresh', user: { id: 7 } }),
  signedInUserId: () => 7,
  subscribeSession: () => () => undefined,
}));
vi.mock('../../src/lib/sync/device', () => ({ requestSync: () => undefined }));

const { db } = await import('../../src/lib/db/db');
const { queueCheckout, setCartQuantity } = await import('../../src/lib/sync/outbox');
const { localOrderRef, sendable } = await import('../../src/lib/sync/outbox-replay');

const cartOfTen = (quantity: number) =>
  cartOf([cartLine({ ...generatedProduct(1), stock: 99 }, quantity, 10)]);

/** The server's cart of user 7, as the device last read it. */
const serverCart = (quantity: number) =>
  db.carts.put({ userId: 7, cart: cartOfTen(quantity), syncedAt: '2026-11-29T10:00:00.000Z' });

describe('an order placed again after the server refused it', () => {
  it('replaces the refused order, so that trying it again cannot order the goods twice', async () => {
    await serverCart(10);
    const first = await queueCheckout(ADDRESS, '');
    // Another user's refused order is theirs to decide on.
    const { id: _id, ...queued } = (await db.outbox.toArray())[0]!;
    const othersId = (await db.outbox.add({ ...queued, userId: 8, state: 'attention' })) as number;
    const refused = (await db.outbox.toArray()).find((entry) => entry.userId === 7)!;
    await db.outbox.update(refused.id, {
      state: 'attention',
      error: { status: 422, message: 'Not enough stock', code: 'STOCK_SHORT' },
    });
    await db.orders.update(localOrderRef(first), { state: 'attention' });

    // The user lowers the quantity, as the refusal told them to, and orders again.
    await serverCart(4);
    const again = await queueCheckout(ADDRESS, '');
    const mine = await db.outbox.where('userId').equals(7).toArray();
    expect(mine.map((entry) => entry.payload)).toEqual([
      expect.objectContaining({
        kind: 'checkout',
        localRef: again,
        items: [{ productId: 1, quantity: 4 }],
      }),
    ]);
    expect(await db.orders.get(localOrderRef(first))).toBeUndefined();
    expect(await db.orders.get(localOrderRef(again))).toMatchObject({ state: 'waiting' });
    expect(await db.outbox.get(othersId)).toMatchObject({ state: 'attention' });
    // Nothing holds the new order back.
    expect(sendable(mine, { onTheirWay: new Set(), now: Date.now() }).ready).toHaveLength(1);
  });
});

describe('the order placed', () => {
  it('orders a quantity typed and left for "Place order" as typed', async () => {
    await db.outbox.clear();
    await serverCart(3);
    // Leaving the quantity field queues the change; the click on "Place order" that left
    // it follows at once, before that change is written.
    void setCartQuantity(1, 5);
    const localRef = await queueCheckout(ADDRESS, '');
    const checkout = (await db.outbox.where('userId').equals(7).toArray()).at(-1)!;
    expect(checkout.payload).toMatchObject({
      kind: 'checkout',
      items: [{ productId: 1, quantity: 5 }],
    });
    expect((await db.orders.get(localOrderRef(localRef)))?.order.orderItems).toEqual([
      expect.objectContaining({ productId: 1, quantity: 5, totalPrice: 50 }),
    ]);
  });
});
