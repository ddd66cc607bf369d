/**
 * A rep's orders as its screens list them (the customer's orders, the day summary): the
 * orders the device holds and those the server answered, each once.
 */
import type { Order } from '../../contracts/orders';
import type { StoredOrder } from '../../lib/db/db';

/** One order of a list: the server's when it has it, with what the device adds. */
export interface ListedOrder {
  key: string;
  order: Order;
  state: StoredOrder['state'];
  /** The device's reference of an order taken on it. */
  localRef?: string | undefined;
  /** The customer's signature kept on the device (a PNG in base64). */
  signature?: string | undefined;
  /** Whether the device holds the order: otherwise its signature is asked of the server. */
  onDevice: boolean;
  /** The customer the device took the order for; the server's answer names it otherwise. */
  customerId?: number | undefined;
  /** What the server changed of the order taken on the device (prices, quantities). */
  changes?: StoredOrder['changes'];
}

const listedFromDevice = (stored: StoredOrder): ListedOrder => ({
  key: stored.ref,
  order: stored.order,
  state: stored.state,
  localRef: stored.localRef,
  signature: stored.signature,
  onDevice: true,
  customerId: stored.customerId,
  changes: stored.changes,
});

/**
 * The device's orders and the server's as one list, newest first. An order both hold is
 * listed once, as the server has it now: by its id once the device knows it was sent, by
 * the device's reference while the device still waits for the answer.
 */
export function mergeOrders(
  onDevice: readonly StoredOrder[],
  fromServer: readonly Order[],
): ListedOrder[] {
  const byId = new Map<number, StoredOrder>();
  const byLocalRef = new Map<string, StoredOrder>();
  for (const stored of onDevice) {
    if (stored.state === 'synced') byId.set(stored.order.id, stored);
    else if (stored.localRef) byLocalRef.set(stored.localRef, stored);
  }
  const taken = new Set<string>();
  const listed = fromServer.map((order): ListedOrder => {
    const stored =
      byId.get(order.id) ?? (order.clientReference ? byLocalRef.get(order.clientReference) : null);
    if (!stored) return { key: `order:${order.id}`, order, state: 'synced', onDevice: false };
    taken.add(stored.ref);
    return { ...listedFromDevice(stored), key: `order:${order.id}`, order, state: 'synced' };
  });
  for (const stored of onDevice) {
    if (!taken.has(stored.ref)) listed.push(listedFromDevice(stored));
  }
  return listed.sort((a, b) => b.order.createdAt.localeCompare(a.order.createdAt));
}
