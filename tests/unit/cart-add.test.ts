import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../src/contracts/catalogue';
import { MAX_ORDER_LINES } from '../../src/contracts/field-sales';
import { cartLine, cartOf } from '../../src/contracts/orders';
import { generatedProduct } from '../fixtures/generated-products';

// "Add to cart" of a salon, with the session and the sync loop faked: what it queues stays
// in the outbox.
vi.mock('../../src/lib/auth/session-store', () => ({
  getSession: () => ({
    accessToken: 'token',
    refreshToken: 'refresh',
    user: { id: 7, role: 'USER' },
  }),
  signedInUserId: () => 7,
  subscribeSession: () => () => undefined,
}));
vi.mock('../../src/lib/sync/device', () => ({ requestSync: () => undefined }));

const { db } = await import('../../src/lib/db/db');
const { storeProducts } = await import('../../src/lib/db/stored-products');
const { addToCart, CannotAdd } = await import('../../src/lib/sync/engine');

/** A product on sale with this stock, at 10 €. */
function product(id: number, stock: number): Product {
  return { ...generatedProduct(id), price: 10, stock, stockQuantity: stock, inStock: stock > 0 };
}

const queued = async () => (await db.outbox.orderBy('id').toArray()).map((entry) => entry.payload);

afterEach(async () => {
  await Promise.all(db.tables.map((table) => table.clear()));
});

describe("a salon's “Add to cart”", () => {
  it('queues nothing when the cart holds all the stock, and says so', async () => {
    const conditioner = product(1, 3);
    await storeProducts(db, [conditioner]);
    await db.carts.put({ userId: 7, cart: cartOf([cartLine(conditioner, 3, 10)]), syncedAt: '' });

    await expect(addToCart(1, 1)).rejects.toMatchObject(new CannotAdd('cart.allInCart'));
    // Nothing the server would refuse, so nothing that would hold up the next checkout.
    expect(await queued()).toEqual([]);
  });

  it('counts the additions still waiting to be sent, and adds what is left of the stock', async () => {
    await storeProducts(db, [product(1, 5)]);
    await addToCart(1, 2);

    expect(await addToCart(1, 10)).toEqual({ limited: true });
    expect(await queued()).toEqual([
      { kind: 'cart.add', productId: 1, quantity: 2 },
      { kind: 'cart.add', productId: 1, quantity: 3 },
    ]);
    await expect(addToCart(1, 1)).rejects.toMatchObject(new CannotAdd('cart.allInCart'));
  });

  it('adds as asked within the stock, and leaves a product the device lacks to the server', async () => {
    await storeProducts(db, [product(1, 50)]);

    expect(await addToCart(1, 4)).toEqual({ limited: false });
    expect(await addToCart(99, 2)).toEqual({ limited: false });
    expect(await queued()).toEqual([
      { kind: 'cart.add', productId: 1, quantity: 4 },
      { kind: 'cart.add', productId: 99, quantity: 2 },
    ]);
  });

  it('adds no new product to a cart that holds as many as an order may have', async () => {
    const held = Array.from({ length: MAX_ORDER_LINES }, (_, i) => product(i + 1, 10));
    await storeProducts(db, [...held, product(500, 10)]);
    await db.carts.put({
      userId: 7,
      cart: cartOf(held.map((p) => cartLine(p, 1, 10))),
      syncedAt: '',
    });

    await expect(addToCart(500, 1)).rejects.toMatchObject({
      textKey: 'cart.full',
      textParams: { max: MAX_ORDER_LINES },
    });
    // A product it holds still goes in.
    expect(await addToCart(1, 1)).toEqual({ limited: false });
    expect(await queued()).toEqual([{ kind: 'cart.add', productId: 1, quantity: 1 }]);
  });

  it('adds the last unit once when “Add to cart” is clicked twice at once', async () => {
    await storeProducts(db, [product(1, 1)]);
    const clicks = await Promise.allSettled([addToCart(1, 1), addToCart(1, 1)]);
    expect(clicks.map((click) => click.status)).toEqual(['fulfilled', 'rejected']);
    expect(await queued()).toEqual([{ kind: 'cart.add', productId: 1, quantity: 1 }]);
  });

  it('queues nothing for a product the device knows is sold out', async () => {
    await storeProducts(db, [product(1, 0)]);
    await expect(addToCart(1, 1)).rejects.toMatchObject({ textKey: 'cart.soldOut' });
    expect(await queued()).toEqual([]);
  });

  it('says the device is full when its storage refuses the addition', async () => {
    await storeProducts(db, [product(1, 5)]);
    const add = vi
      .spyOn(db.outbox, 'add')
      .mockRejectedValueOnce(
        new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
      );
    await expect(addToCart(1, 1)).rejects.toMatchObject({ textKey: 'cart.storageFull' });
    add.mockRestore();
    // The next addition, once there is room, goes in.
    await addToCart(1, 1);
    expect(await queued()).toEqual([{ kind: 'cart.add', productId: 1, quantity: 1 }]);
  });
});
