/**
 * A sales rep's carts (docs/product.md#field-sales): one per customer, kept only on the
 * device until the order is taken, so that a rep serving several salons at the booth keeps
 * each one's lines when switching between them. Taking the order queues it in the outbox
 * as one `rep.order` entry carrying its lines, address, note and signature: it reaches the
 * server exactly once, like a salon's checkout (./outbox-replay).
 */
import { cartLine, cartOf, MAX_LINE_QUANTITY, type Cart } from '../../contracts/orders';
import type { ShippingAddress } from '../../contracts/orders';
import { MAX_ORDER_LINES } from '../../contracts/field-sales';
import { getSession } from '../auth/session-store';
import { db, type RepCartLine, type StoredOrder } from '../db/db';
import { readProducts } from '../db/stored-products';
import { requestSync } from './device';
import { entryOf, localOrder, newLocalRef } from './outbox';
import { localOrderRef } from './outbox-replay';

/**
 * A rep tried to add to a cart before choosing whom it is ordering for. `textKey` is what
 * the page says (the catalogue's pages say it without loading this module).
 */
export class NoCustomerChosen extends Error {
  readonly textKey = 'fieldSales.orderingFor.chooseFirst';
  constructor() {
    super('Choose the customer you are ordering for first');
    this.name = 'NoCustomerChosen';
  }
}

/** The customer shown is no longer on the device under that id: show it again, then retry. */
export class CustomerChanged extends Error {
  constructor() {
    super('The customer has changed on this device: try again');
    this.name = 'CustomerChanged';
  }
}

/** A rep's order has as many lines as the server takes in one order, at most. */
export class TooManyLines extends Error {
  constructor() {
    super(`An order has at most ${MAX_ORDER_LINES} lines`);
    this.name = 'TooManyLines';
  }
}

function signedInRep(): number {
  const user = getSession()?.user;
  if (user?.role !== 'SALES_REP') throw new Error('Only a sales rep has carts for customers');
  return user.id;
}

const clamp = (quantity: number) =>
  Math.min(Math.max(Number.isFinite(quantity) ? Math.floor(quantity) : 1, 1), MAX_LINE_QUANTITY);

/**
 * The id a customer goes by now: a salon registered at the booth (a negative id of the
 * device's) that the server has registered since goes by the server's id, and so does its
 * cart (see `registered` in ./outbox-replay). A line added while that happened, by a screen
 * that still held the booth id, goes to that cart rather than to one no screen shows.
 */
async function currentCustomerId(userId: number, customerId: number): Promise<number> {
  if (customerId >= 0) return customerId;
  const registered = await db.repCustomers
    .where('userId')
    .equals(userId)
    .filter((stored) => stored.localId === customerId)
    .first();
  return registered?.id ?? customerId;
}

/** Changes the lines of one customer's cart in one transaction. */
async function changeLines(
  givenId: number,
  change: (lines: RepCartLine[]) => RepCartLine[],
): Promise<void> {
  const userId = signedInRep();
  await db.transaction('rw', db.repCarts, db.repCustomers, async () => {
    const customerId = await currentCustomerId(userId, givenId);
    const kept = await db.repCarts.get([userId, customerId]);
    const lines = change(kept?.lines.map((line) => ({ ...line })) ?? []);
    if (lines.length > MAX_ORDER_LINES) throw new TooManyLines();
    if (lines.length === 0) await db.repCarts.delete([userId, customerId]);
    else await db.repCarts.put({ userId, customerId, lines, updatedAt: new Date().toISOString() });
  });
}

/** Adds to the cart of `customerId` (by default the customer the rep is ordering for). */
export async function addToRepCart(
  productId: number,
  quantity: number,
  customerId?: number,
): Promise<void> {
  const userId = signedInRep();
  const forCustomer = customerId ?? (await db.repState.get(userId))?.actingFor;
  if (forCustomer == null) throw new NoCustomerChosen();
  await changeLines(forCustomer, (lines) => {
    const line = lines.find((item) => item.productId === productId);
    if (line) line.quantity = clamp(line.quantity + quantity);
    else lines.push({ productId, quantity: clamp(quantity) });
    return lines;
  });
}

export async function setRepCartQuantity(
  customerId: number,
  productId: number,
  quantity: number,
): Promise<void> {
  await changeLines(customerId, (lines) =>
    lines.map((line) =>
      line.productId === productId ? { productId, quantity: clamp(quantity) } : line,
    ),
  );
}

export async function removeFromRepCart(customerId: number, productId: number): Promise<void> {
  await changeLines(customerId, (lines) => lines.filter((line) => line.productId !== productId));
}

export async function clearRepCart(customerId: number): Promise<void> {
  await changeLines(customerId, () => []);
}

export interface RepCartView {
  /** The lines whose products the device's catalogue holds, at its prices. */
  cart: Cart;
  /** Lines whose product the device does not hold (not downloaded yet, or no longer sold). */
  missing: RepCartLine[];
}

/** The cart of one customer as the rep sees it, priced from the device's catalogue. */
export async function readRepCart(
  userId: number | null,
  customerId: number | null | undefined,
): Promise<RepCartView> {
  if (userId === null || customerId == null) return { cart: cartOf([]), missing: [] };
  const lines = (await db.repCarts.get([userId, customerId]))?.lines ?? [];
  const products = await readProducts(
    db,
    lines.map((line) => line.productId),
  );
  const missing: RepCartLine[] = [];
  const items = lines.flatMap((line) => {
    const product = products.get(line.productId);
    if (!product || product.price === undefined) {
      missing.push(line);
      return [];
    }
    return [cartLine(product, line.quantity, product.price)];
  });
  return { cart: cartOf(items), missing };
}

export interface RepOrderDraft {
  customerId: number;
  /** The cart as the rep and the customer saw it (readRepCart): its lines and prices. */
  cart: Cart;
  shippingAddress: ShippingAddress;
  notes: string;
  /** The customer's signature as a PNG in base64, or null. */
  signature: string | null;
}

/**
 * Takes the order: in one transaction, queues it in the outbox, keeps a local order with
 * the lines and prices shown (for the orders page and the pro-forma while it waits), and
 * empties that customer's cart. Returns the order's local reference.
 */
export async function queueRepOrder(draft: RepOrderDraft): Promise<string> {
  const user = getSession()?.user;
  const userId = signedInRep();
  if (draft.cart.items.length === 0) throw new Error('The cart is empty');
  if (draft.cart.items.length > MAX_ORDER_LINES) throw new TooManyLines();
  const localRef = newLocalRef();
  const now = new Date().toISOString();
  const placedBy = user
    ? { id: user.id, firstName: user.firstName, lastName: user.lastName }
    : null;
  const entry = entryOf({
    kind: 'rep.order',
    customerId: draft.customerId,
    items: draft.cart.items.map((item) => ({ productId: item.productId, quantity: item.quantity })),
    shippingAddress: draft.shippingAddress,
    notes: draft.notes,
    localRef,
    signature: draft.signature,
  });
  await db.transaction('rw', [db.outbox, db.orders, db.repCarts, db.repCustomers], async () => {
    // A salon registered at the booth may have just got the server's id: the screen then
    // showed the old one, and an order under it would belong to no one.
    if (!(await db.repCustomers.get([userId, draft.customerId]))) throw new CustomerChanged();
    const outboxId = await db.outbox.add(entry);
    await db.orders.put({
      ref: localOrderRef(localRef),
      userId,
      state: 'waiting',
      createdAt: now,
      order: localOrder(draft.cart, draft.shippingAddress, draft.notes, localRef, now, placedBy),
      localRef,
      outboxId,
      customerId: draft.customerId,
      signature: draft.signature ?? undefined,
    });
    await db.repCarts.delete([userId, draft.customerId]);
  });
  requestSync();
  return localRef;
}

/** The orders taken for `customerId` on this device, newest first: waiting and sent ones. */
export async function readRepOrdersOnDevice(userId: number | null, customerId: number) {
  if (userId === null) return [];
  const orders = await db.orders.where('userId').equals(userId).toArray();
  return orders
    .filter((stored) => stored.customerId === customerId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * Every order the rep took on this device at or after `since`, for any customer, newest
 * first: waiting, needing attention and sent ones (for its day). A waiting order is dated
 * when it was taken, a sent one as the server placed it.
 */
export async function readRepOrdersSince(
  userId: number | null,
  since: Date,
): Promise<StoredOrder[]> {
  if (userId === null) return [];
  const orders = await db.orders
    .where('[userId+createdAt]')
    .between([userId, since.toISOString()], [userId, '\uffff'], true, true)
    .reverse()
    .toArray();
  return orders.filter((stored) => stored.customerId !== undefined);
}
