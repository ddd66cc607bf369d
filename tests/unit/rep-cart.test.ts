import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RepCustomer } from '../../src/contracts/field-sales';

// A sales rep's carts on the device, with the session faked: the rep is signed in.
const REP = 7;
vi.mock('../../src/lib/auth/session-store', () => ({
  getSession: () => ({
    accessToken: 'token',
    refreshToken: 'refresh',
    user: { id: REP, role: 'SALES_REP', company: null },
  }),
  signedInUserId: () => REP,
  subscribeSession: () => () => undefined,
  updateStoredUser: () => undefined,
}));

const { db } = await import('../../src/lib/db/db');
const { addToRepCart } = await import('../../src/lib/sync/rep-cart');

afterEach(async () => {
  await db.repCarts.clear();
  await db.repCustomers.clear();
});

describe('a rep’s cart for a salon registered at the booth', () => {
  it('takes a line added under the booth id after the server registered the salon', async () => {
    await addToRepCart(5, 1, -1);
    // The registration went through: the salon and its cart go by the server's id now.
    await db.transaction('rw', db.repCarts, db.repCustomers, async () => {
      const cart = await db.repCarts.get([REP, -1]);
      await db.repCarts.delete([REP, -1]);
      await db.repCarts.put({ ...cart!, customerId: 41 });
      await db.repCustomers.put({
        userId: REP,
        id: 41,
        customer: { id: 41, name: 'Salon Ștefania' } as RepCustomer,
        syncedAt: new Date().toISOString(),
        localId: -1,
      });
    });
    // A screen that still held the booth id adds a line (a barcode looked up meanwhile).
    await addToRepCart(6, 2, -1);
    expect(await db.repCarts.get([REP, -1])).toBeUndefined();
    expect((await db.repCarts.get([REP, 41]))?.lines).toEqual([
      { productId: 5, quantity: 1 },
      { productId: 6, quantity: 2 },
    ]);
  });
});
