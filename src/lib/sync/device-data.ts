/**
 * What the screens read from the device about the signed-in user (live, through
 * ./use-device-data): the cart with its waiting changes on top, the orders and the outbox;
 * and what leaves the device when the user signs out.
 */
import { EMPTY_CART, type Cart } from '../../contracts/orders';
import { db, type StoredOrder } from '../db/db';
import { readProducts } from '../db/stored-products';
import { applyEntries, changesCart, type OutboxEntry } from './outbox-rules';

/**
 * The cart as the user sees it: the server's cart with the waiting changes on top; how
 * many changes wait, and how many of its changes the server refused (not in the cart: the
 * sync centre says why).
 */
export async function readCart(
  userId: number | null,
): Promise<{ cart: Cart; waiting: number; refused: number }> {
  if (userId === null) return { cart: EMPTY_CART, waiting: 0, refused: 0 };
  // Read together: an answer applied between the two reads would take its entry away
  // after the cart was read without it, and the change would not show (nor be ordered).
  const [base, entries, refused] = await db.transaction('r', db.carts, db.outbox, async () => {
    const stored = await db.carts.get(userId);
    const queued = await db.outbox.where('userId').equals(userId).sortBy('id');
    return [
      stored?.cart ?? EMPTY_CART,
      queued.filter((e) => e.state !== 'attention'),
      queued.filter((e) => e.state === 'attention' && e.kind.startsWith('cart.')).length,
    ] as const;
  });
  const cartEntries = entries.filter((e) => changesCart(e.payload));
  const ids = [
    ...new Set(cartEntries.flatMap((e) => ('productId' in e.payload ? [e.payload.productId] : []))),
  ];
  const products = await readProducts(db, ids);
  return {
    cart: applyEntries(base, cartEntries, (id) => products.get(id)),
    waiting: cartEntries.length,
    refused,
  };
}

export async function readOrders(userId: number | null): Promise<StoredOrder[]> {
  return userId === null
    ? []
    : await db.orders
        .where('[userId+createdAt]')
        .between([userId, ''], [userId, '\uffff'])
        .reverse()
        .toArray();
}

export type OutboxView = OutboxEntry & { productName?: string | undefined };

/** The user's outbox, with the names of the products it changes. */
export async function readOutbox(userId: number | null): Promise<OutboxView[]> {
  if (userId === null) return [];
  const entries = await db.outbox.where('userId').equals(userId).sortBy('id');
  const ids = [
    ...new Set(entries.flatMap((e) => ('productId' in e.payload ? [e.payload.productId] : []))),
  ];
  const products = await readProducts(db, ids);
  return entries.map((e) => ({
    ...e,
    productName: 'productId' in e.payload ? products.get(e.payload.productId)?.name : undefined,
  }));
}

const NOTHING_WAITING = { waiting: 0, sending: false };

/** How many changes wait for the server, and whether one is being sent (navigation, prompts). */
export async function readOutboxSummary(
  userId: number | null,
): Promise<{ waiting: number; sending: boolean }> {
  if (userId === null) return NOTHING_WAITING;
  const entries = await db.outbox.where('userId').equals(userId).toArray();
  return { waiting: entries.length, sending: entries.some((e) => e.state === 'sending') };
}

/**
 * Signing out: the user's priced and personal data (cart, orders, company, order lists, a
 * rep's customers) leaves the device; the outbox stays, bound to the user, and so do a rep's
 * carts and the salons it registered that are not sent yet.
 */
export async function forgetUserData(userId: number): Promise<void> {
  const tables = [db.carts, db.orders, db.companies, db.orderLists, db.repCustomers, db.repState];
  await db.transaction('rw', tables, async () => {
    await db.carts.delete(userId);
    await db.companies.delete(userId);
    // The lists as the server has them; changes of them not sent yet stay, with the outbox.
    await db.orderLists.where('userId').equals(userId).delete();
    // Salons registered at the booth and not sent yet stay, with the outbox: they are work
    // not sent yet, and their waiting orders name them.
    await db.repCustomers
      .where('userId')
      .equals(userId)
      .filter((stored) => stored.id > 0)
      .delete();
    await db.repState.delete(userId);
    await db.orders
      .where('userId')
      .equals(userId)
      .filter((o) => o.state === 'synced')
      .delete();
  });
}
