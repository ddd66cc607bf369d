/**
 * The changes a user makes, as the page queues them (docs/product.md#offline): each one is
 * written to IndexedDB together with its outbox entry in one transaction (the cart line,
 * the local order, the profile), and the sync loop (./sync-loop) is asked to send it.
 * Entries that need attention are edited, retried or discarded here too.
 */
import type { User } from '../../contracts/accounts';
import { clampQuantity } from '../../contracts/order-lines';
import { roundMoney, type Cart, type Order, type ShippingAddress } from '../../contracts/orders';
import { signedInUserId } from '../auth/session-store';
import { db } from '../db/db';
import { readCart } from './device-data';
import { localOrderRef } from './outbox-replay';
import { customerOf, mergeLines, type OutboxEntry, type OutboxPayload } from './outbox-rules';
import { requestSync } from './device';

function requireUser(): number {
  const id = signedInUserId();
  if (id === null) throw new Error('Sign in first');
  return id;
}

const newEntry = (userId: number, payload: OutboxPayload): OutboxEntry => ({
  userId,
  kind: payload.kind,
  payload,
  idempotencyKey: crypto.randomUUID(),
  createdAt: new Date().toISOString(),
  attempts: 0,
  nextAttemptAt: 0,
  state: 'waiting',
});

async function enqueue(payload: OutboxPayload): Promise<number> {
  const id = await db.outbox.add(newEntry(requireUser(), payload));
  requestSync();
  return id as number;
}

/** A new outbox entry of the signed-in user, for changes queued with other records. */
export const entryOf = (payload: OutboxPayload): OutboxEntry => newEntry(requireUser(), payload);

export async function addToCart(productId: number, quantity: number): Promise<void> {
  await enqueue({ kind: 'cart.add', productId, quantity });
}

/**
 * Several products added at once ("Order again", a quick order): one entry per line, as if
 * each had been added on its own, written together so that all of them are queued or none.
 */
export async function addLinesToCart(
  lines: readonly { productId: number; quantity: number }[],
): Promise<void> {
  if (lines.length === 0) return;
  const userId = requireUser();
  await db.outbox.bulkAdd(
    lines.map(({ productId, quantity }) =>
      newEntry(userId, { kind: 'cart.add', productId, quantity }),
    ),
  );
  requestSync();
}

export async function setCartQuantity(productId: number, quantity: number): Promise<void> {
  await enqueue({ kind: 'cart.update', productId, quantity });
}

export async function removeFromCart(productId: number): Promise<void> {
  await enqueue({ kind: 'cart.remove', productId });
}

export async function clearCart(): Promise<void> {
  await enqueue({ kind: 'cart.clear' });
}

/** A new reference for an order queued on the device, shown until the server numbers it. */
export const newLocalRef = () => `L-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;

/**
 * The order as the user saw it when queueing: the lines and prices of `cart`, marked as
 * waiting. It becomes the server's order only once confirmed.
 */
export function localOrder(
  cart: Cart,
  shippingAddress: ShippingAddress,
  notes: string,
  localRef: string,
  now: string,
  placedBy: Order['placedBy'] = null,
): Order {
  return {
    id: 0,
    orderNumber: '',
    status: 'PENDING',
    paymentStatus: 'PENDING',
    paymentMethod: 'BANK_TRANSFER',
    subtotal: cart.subtotal,
    total: cart.total,
    currency: 'EUR',
    notes,
    clientReference: localRef,
    shippingAddress,
    orderItems: cart.items.map((item, i) => ({
      id: -(i + 1),
      productId: item.productId,
      quantity: item.quantity,
      unitPrice: item.price,
      totalPrice: roundMoney(item.price * item.quantity),
      productName: item.product.name,
      productSku: item.product.sku,
      product: {
        id: item.productId,
        name: item.product.name,
        sku: item.product.sku,
        images: item.product.images,
      },
    })),
    itemCount: cart.itemCount,
    cancellationReason: '',
    trackingNumber: '',
    placedBy,
    createdAt: now,
    updatedAt: now,
  };
}

/** The device's reference of the order an entry queues (a checkout, a rep's order), if any. */
const queuedOrderOf = ({ payload }: OutboxEntry): string | undefined =>
  payload.kind === 'checkout' || payload.kind === 'rep.order' ? payload.localRef : undefined;

/** Takes entries out of the outbox with the local orders they queued (in the caller's transaction). */
async function removeEntries(entries: readonly OutboxEntry[]): Promise<void> {
  for (const entry of entries) {
    await db.outbox.delete(entry.id);
    const localRef = queuedOrderOf(entry);
    if (localRef) await db.orders.delete(localOrderRef(localRef));
  }
}

/** Nothing to order: the cart was emptied (by another device's order, say) meanwhile. */
export class EmptyCartError extends Error {
  constructor() {
    super('The cart is empty');
    this.name = 'EmptyCartError';
  }
}

/**
 * Queues the order of the cart as the user sees it, with a local order that records the
 * lines and prices shown, in one transaction. The cart is read from the device as the
 * order is queued, with every change asked for before it: a quantity typed and left for
 * "Place order" is ordered as typed. It replaces the user's orders the server
 * refused: their lines are in the cart again (a refused order took nothing from it), so
 * the order placed now is the one the user wants, and trying the old one again as well
 * would order the same goods twice (docs/product.md#offline).
 */
export async function queueCheckout(
  shippingAddress: ShippingAddress,
  notes: string,
): Promise<string> {
  const userId = requireUser();
  const { cart } = await readCart(userId);
  if (cart.items.length === 0) throw new EmptyCartError();
  const localRef = newLocalRef();
  const now = new Date().toISOString();
  await db.transaction('rw', db.outbox, db.orders, async () => {
    const refused = await db.outbox
      .where('userId')
      .equals(userId)
      .filter((entry) => entry.payload.kind === 'checkout' && entry.state === 'attention')
      .toArray();
    await removeEntries(refused);
    const outboxId = await db.outbox.add(
      newEntry(userId, {
        kind: 'checkout',
        shippingAddress,
        notes,
        localRef,
        items: cart.items.map(({ productId, quantity }) => ({ productId, quantity })),
      }),
    );
    await db.orders.put({
      ref: localOrderRef(localRef),
      userId,
      state: 'waiting',
      createdAt: now,
      order: localOrder(cart, shippingAddress, notes, localRef, now),
      localRef,
      outboxId,
    });
  });
  requestSync();
  return localRef;
}

export async function queueCancellation(order: Order, cancellationReason: string): Promise<void> {
  await enqueue({
    kind: 'order.cancel',
    orderId: order.id,
    orderNumber: order.orderNumber,
    cancellationReason,
  });
}

export async function queueProfileUpdate(
  user: User,
  firstName: string,
  lastName: string,
): Promise<void> {
  await enqueue({ kind: 'profile.update', firstName, lastName, email: user.email });
}

/** Sync centre: send an entry that needed attention again. */
export async function retryEntry(id: number): Promise<void> {
  await db.transaction('rw', db.outbox, db.orders, async () => {
    const entry = await db.outbox.get(id);
    if (!entry) return;
    await db.outbox.update(id, {
      state: 'waiting',
      attempts: 0,
      answeredFailures: 0,
      nextAttemptAt: 0,
      error: undefined,
    });
    const localRef = queuedOrderOf(entry);
    if (localRef) await db.orders.update(localOrderRef(localRef), { state: 'waiting' });
  });
  requestSync();
}

/** Sync centre: change the quantity of a cart entry that needed attention, and send it again. */
export async function editEntryQuantity(id: number, quantity: number): Promise<void> {
  const entry = await db.outbox.get(id);
  if (!entry || (entry.payload.kind !== 'cart.add' && entry.payload.kind !== 'cart.update')) return;
  await db.outbox.update(id, {
    payload: { ...entry.payload, quantity: clampQuantity(quantity, Number.MAX_SAFE_INTEGER) },
  });
  await retryEntry(id);
}

/**
 * Sync centre: give an entry up. A queued order is given up with it; a rep's order puts
 * its lines back into the customer's cart, so that nothing typed at the booth is lost. A
 * salon registered at the booth is given up whole: its documents and orders (whose lines
 * go nowhere: the salon is gone from the device), its cart, and the rep's choice of it.
 */
export async function discardEntry(id: number): Promise<void> {
  const tables = [db.outbox, db.orders, db.repCarts, db.repCustomers, db.repState];
  let lost = false;
  await db.transaction('rw', tables, async () => {
    const entry = await db.outbox.get(id);
    // On its way meanwhile: its response decides (the server may already have it).
    if (!entry || entry.state === 'sending') return;
    const { payload, userId } = entry;
    const gone = [entry];
    if (payload.kind === 'rep.customer') {
      const localId = payload.localId;
      const dependents = await db.outbox
        .where('userId')
        .equals(userId)
        .filter((other) => other.id !== id && customerOf(other.payload) === localId)
        .toArray();
      gone.push(...dependents);
      await db.repCarts.delete([userId, localId]);
      await db.repCustomers.delete([userId, localId]);
      const state = await db.repState.get(userId);
      if (state?.actingFor === localId) await db.repState.put({ userId, actingFor: null });
    } else if (payload.kind === 'rep.order') {
      const cart = await db.repCarts.get([userId, payload.customerId]);
      await db.repCarts.put({
        userId,
        customerId: payload.customerId,
        lines: mergeLines(cart?.lines ?? [], payload.items),
        updatedAt: new Date().toISOString(),
      });
    }
    await removeEntries(gone);
    lost = entry.responseLost === true;
  });
  // A change whose response was lost may be on the server after all: its cart and orders
  // are read again, so that the device shows what the server has.
  requestSync(lost ? { refresh: true } : undefined);
}
