/**
 * Replays the outbox against the server, for the page and for the service worker alike
 * (no DOM here). One pass, in the outbox's order:
 *
 * 1. Take the signed-in user; entries of any other user are never sent.
 * 2. Merge waiting changes of one cart line that no request has carried yet (compaction
 *    in ./outbox-rules): fewer requests, the same cart in the end.
 * 3. Take the first entry that is waiting (or was sending when the app stopped) and not
 *    held back by an earlier entry that needs attention. If it is still backing off, stop:
 *    the queue keeps its order. Steps 2 and 3 are one transaction, which also marks the
 *    entry as sending, and sent for good.
 * 4. Send it with its Idempotency-Key: a repeat after a lost answer gets the recorded
 *    answer, never a second order.
 * 5. Done: remove it and apply the server's answer (cart, order) in the same transaction.
 *    Retry: count the attempt, back off, stop. Sign-in needed: stop, keep it waiting.
 *    Refused: mark it as needing attention with the server's message, and go on.
 *
 * Backoff spaces out attempts while the server cannot be reached; news that it can be
 * reached again (see makeWaitingDue) ends the wait at once.
 */
import { EMPTY_CART, type Cart, type Order } from '../../contracts/orders';
import type { OrderChange, PortalDb, StoredOrder } from '../db/db';
import {
  backoffMs,
  classify,
  compaction,
  isBlockedBy,
  requestFor,
  type OutboxEntry,
  type OutboxRequest,
  type ServerProblem,
} from './outbox-rules';

export interface TransportResponse {
  status: number;
  body: unknown;
}

export interface Transport {
  /** Sends an entry's request. Rejects when the server was not reached (or answered no JSON). */
  send(entry: OutboxEntry, request: OutboxRequest): Promise<TransportResponse>;
}

export interface ReplayOptions {
  db: PortalDb;
  transport: Transport;
  currentUserId: () => number | null | Promise<number | null>;
  now?: () => number;
  random?: () => number;
  /** Work of the page after an entry went through (such as refreshing the signed-in user). */
  onDone?: (entry: OutboxEntry, body: unknown) => void | Promise<void>;
}

/**
 * What the service worker tells open pages after it sent an entry: the page does its own
 * work for it (tell that an order was confirmed, take the renamed user over), as when it
 * sends one itself.
 */
export const OUTBOX_DONE_MESSAGE = 'portal-outbox-done';

export interface OutboxDoneMessage {
  type: typeof OUTBOX_DONE_MESSAGE;
  userId: number;
  kind: OutboxEntry['kind'];
  body: unknown;
}

export interface ReplayResult {
  done: number;
  requests: number;
  /** When the next attempt is due, if the pass stopped on a retry. */
  retryAt: number | null;
  /**
   * The status of the response that made the entry holding the queue wait (a 5xx, 429…),
   * or undefined when the server was not reached: a failing server is not "offline".
   */
  retryStatus?: number | undefined;
  needsSignIn: boolean;
}

/** The server's message, code and values from an error body. */
function problemOf(status: number | undefined, body: unknown, fallback: string): ServerProblem {
  const error = (body && typeof body === 'object' ? body : {}) as {
    message?: unknown;
    code?: unknown;
    params?: unknown;
  };
  return {
    status,
    message: typeof error.message === 'string' ? error.message : fallback,
    code: typeof error.code === 'string' ? error.code : undefined,
    params:
      error.params && typeof error.params === 'object'
        ? (error.params as ServerProblem['params'])
        : undefined,
  };
}

/** Lines of the queued order that the server priced or counted differently. */
export function orderChanges(seen: Order, confirmed: Order): OrderChange[] {
  const changes: OrderChange[] = [];
  for (const line of seen.orderItems) {
    const after = confirmed.orderItems.find((item) => item.productId === line.productId);
    if (!after) {
      changes.push({
        productName: line.productName,
        kind: 'removed',
        before: line.quantity,
        after: 0,
      });
      continue;
    }
    if (after.unitPrice !== line.unitPrice) {
      changes.push({
        productName: line.productName,
        kind: 'price',
        before: line.unitPrice,
        after: after.unitPrice,
      });
    }
    if (after.quantity !== line.quantity) {
      changes.push({
        productName: line.productName,
        kind: 'quantity',
        before: line.quantity,
        after: after.quantity,
      });
    }
  }
  return changes;
}

export const localOrderRef = (localRef: string) => `local:${localRef}`;
export const serverOrderRef = (id: number) => `order:${id}`;

export function storedServerOrder(
  userId: number,
  order: Order,
  extra: Partial<StoredOrder> = {},
): StoredOrder {
  return {
    ref: serverOrderRef(order.id),
    userId,
    state: 'synced',
    createdAt: order.createdAt,
    order,
    ...extra,
  };
}

async function applyDone(db: PortalDb, entry: OutboxEntry, body: unknown): Promise<void> {
  await db.transaction('rw', db.outbox, db.carts, db.orders, async () => {
    await db.outbox.delete(entry.id as number);
    const payload = entry.payload;
    const syncedAt = new Date().toISOString();
    if (payload.kind.startsWith('cart.')) {
      await db.carts.put({ userId: entry.userId, cart: body as Cart, syncedAt });
    } else if (payload.kind === 'checkout') {
      const order = (body as { order: Order }).order;
      const local = await db.orders.get(localOrderRef(payload.localRef));
      await db.orders.delete(localOrderRef(payload.localRef));
      await db.orders.put(
        storedServerOrder(entry.userId, order, {
          localRef: payload.localRef,
          changes: local ? orderChanges(local.order, order) : undefined,
        }),
      );
      await db.carts.put({ userId: entry.userId, cart: EMPTY_CART, syncedAt });
    } else if (payload.kind === 'order.cancel') {
      const order = (body as { order: Order }).order;
      const previous = await db.orders.get(serverOrderRef(order.id));
      await db.orders.put(
        storedServerOrder(entry.userId, order, {
          localRef: previous?.localRef,
          changes: previous?.changes,
        }),
      );
    }
  });
}

async function markAttention(
  db: PortalDb,
  entry: OutboxEntry,
  error: ServerProblem,
): Promise<void> {
  await db.transaction('rw', db.outbox, db.orders, async () => {
    await db.outbox.update(entry.id as number, { state: 'attention', error });
    if (entry.payload.kind === 'checkout') {
      await db.orders.update(localOrderRef(entry.payload.localRef), { state: 'attention' });
    }
  });
}

/** The next entry to send for a user, or the one whose backoff holds the queue. */
export function nextEntry(entries: readonly OutboxEntry[]): OutboxEntry | undefined {
  const attention: OutboxEntry[] = [];
  for (const entry of entries) {
    if (entry.state === 'attention') {
      attention.push(entry);
      continue;
    }
    if (attention.some((earlier) => isBlockedBy(entry, earlier))) continue;
    return entry;
  }
  return undefined;
}

/**
 * Steps 2 and 3 in one transaction: merges what can travel together, takes the next entry
 * and, when it is due, marks it as sending (and sent, so that it is never merged again).
 */
async function pick(db: PortalDb, userId: number, now: number): Promise<OutboxEntry | undefined> {
  return db.transaction('rw', db.outbox, async () => {
    const stored = await db.outbox.where('userId').equals(userId).sortBy('id');
    const { merged, dropped } = compaction(stored);
    if (dropped.length > 0) {
      await db.outbox.bulkDelete(dropped);
      await db.outbox.bulkUpdate(
        [...merged].map(([key, payload]) => ({
          key,
          changes: { kind: payload.kind, payload },
        })),
      );
    }
    const gone = new Set(dropped);
    const entry = nextEntry(
      stored
        .filter((e) => !gone.has(e.id as number))
        .map((e) => {
          const payload = merged.get(e.id as number);
          return payload ? { ...e, kind: payload.kind, payload } : e;
        }),
    );
    if (entry && entry.nextAttemptAt <= now) {
      await db.outbox.update(entry.id as number, { state: 'sending', sent: true });
    }
    return entry;
  });
}

export async function replayOutbox(options: ReplayOptions): Promise<ReplayResult> {
  const { db, transport } = options;
  const now = options.now ?? Date.now;
  const result: ReplayResult = { done: 0, requests: 0, retryAt: null, needsSignIn: false };
  for (;;) {
    const userId = await options.currentUserId();
    if (userId === null) return result;
    const at = now();
    const entry = await pick(db, userId, at);
    if (!entry) return result;
    if (entry.nextAttemptAt > at) {
      result.retryAt = entry.nextAttemptAt;
      result.retryStatus = entry.error?.status;
      return result;
    }
    let status: number | 'network' = 'network';
    let body: unknown = null;
    try {
      result.requests += 1;
      ({ status, body } = await transport.send(entry, requestFor(entry.payload)));
    } catch {
      status = 'network';
    }
    const outcome = classify(status, body as { code?: string } | null);
    if (outcome === 'done') {
      await applyDone(db, entry, body);
      await options.onDone?.(entry, body);
      result.done += 1;
      continue;
    }
    if (outcome === 'attention') {
      await markAttention(
        db,
        entry,
        problemOf(status as number, body, 'The server refused this change.'),
      );
      continue;
    }
    if (outcome === 'signIn') {
      await db.outbox.update(entry.id as number, { state: 'waiting' });
      result.needsSignIn = true;
      return result;
    }
    const attempts = entry.attempts + 1;
    const retryAt = now() + backoffMs(attempts, options.random);
    await db.outbox.update(entry.id as number, {
      state: 'waiting',
      attempts,
      nextAttemptAt: retryAt,
      error: problemOf(
        status === 'network' ? undefined : status,
        body,
        'The server could not be reached.',
      ),
    });
    result.retryAt = retryAt;
    result.retryStatus = status === 'network' ? undefined : status;
    return result;
  }
}

/**
 * Makes a user's waiting entries due now, keeping their count of attempts. Backoff spares
 * a server that keeps failing; once there is news that it can be reached (the connection
 * back, the tab shown, a sign-in, "Send now", a Background Sync event) every further
 * second of waiting only delays the user's changes.
 */
export async function makeWaitingDue(db: PortalDb, userId: number): Promise<void> {
  await db.outbox
    .where('userId')
    .equals(userId)
    .filter((entry) => entry.state !== 'attention' && entry.nextAttemptAt > 0)
    .modify({ nextAttemptAt: 0 });
}
