/**
 * Replays the outbox against the server, for the page and for the service worker alike
 * (no DOM here). One pass:
 *
 * 1. Take the signed-in user; entries of any other user are never sent.
 * 2. Merge waiting changes of one cart line that no request has carried yet (compaction
 *    in ./outbox-rules): fewer requests, the same cart in the end.
 * 3. Pick, in the outbox's order, the entries that can go now: waiting (or sending when
 *    the app stopped), not held back by an earlier entry that needs attention, and not
 *    bound to follow an earlier entry still on its way (mustFollow: changes of different
 *    lines go side by side, a checkout after every change before it). An entry still
 *    backing off ends the picking: the queue keeps its order. Steps 2 and 3 are one
 *    transaction, which also marks the picked entries as sending, and sent for good.
 * 4. Check each with `check` (the page: the body schema the server applies, ./outbox-check):
 *    one the server would refuse needs attention at once and is not sent. The service
 *    worker sends without it (the schemas' code would grow it by about a third): the server
 *    checks the same schema, and its 400 puts the entry in "needs attention" all the same.
 *    Send the others with their Idempotency-Key, at most REPLAY_CONCURRENCY at once: a
 *    repeat after a lost response gets the recorded response, never a second order.
 * 5. Done: remove it and apply the server's response (cart, order, order list) in the same
 *    transaction. Retry: count the attempt, back off, pick nothing more. Sign-in needed:
 *    keep it waiting, pick nothing more. Refused: mark it as needing attention with the
 *    server's message. Then back to step 1, until nothing can go and nothing is on its way.
 *
 * Backoff spaces out attempts while the server cannot be reached; news that it can be
 * reached again (see makeWaitingDue) ends the wait at once.
 */
import type { OrderList } from '../../contracts/order-lists';
import { EMPTY_CART, type Cart, type Order } from '../../contracts/orders';
import { boothDetailsNotApplied, type RepCustomer } from '../../contracts/field-sales';
import type { OrderChange, PortalDb, StoredOrder } from '../db/db';
import {
  backoffMs,
  classify,
  compaction,
  customerOf,
  isBlockedBy,
  isLineChange,
  isListChange,
  mayHaveReachedServer,
  mergeLines,
  mustFollow,
  requestFor,
  withLineFrom,
  type OutboxEntry,
  type OutboxRequest,
  type ServerProblem,
} from './outbox-rules';

/**
 * Requests on their way at once, at most. Changes of different cart lines need not wait
 * for each other's answers, and a few side by side hide the device's own work (IndexedDB,
 * rendering) behind the server's. Browsers open six connections to a server: four leave
 * the page two for its own reads; more would only queue at a server that runs one
 * transaction at a time (PGlite).
 */
export const REPLAY_CONCURRENCY = 4;

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
  /**
   * Work of the page after an entry went through (such as refreshing the signed-in user),
   * with the server's response: its body and status.
   */
  onDone?: (entry: OutboxEntry, body: unknown, status: number) => void | Promise<void>;
  /** Requests on their way at once, at most; REPLAY_CONCURRENCY unless a test says. */
  concurrency?: number;
  /** Why the server would refuse an entry as it stands (step 4), or undefined. */
  check?: (payload: OutboxEntry['payload']) => Promise<ServerProblem | undefined>;
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
  status: number;
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

/**
 * Removes a done entry and applies the server's answer. An answer to a change of a cart
 * line that shared its flight with another (`sideBySide`) may be older than the cart an
 * answer already brought: only its own line is taken from it.
 */
async function applyDone(
  db: PortalDb,
  entry: OutboxEntry,
  body: unknown,
  status: number,
  sideBySide: boolean,
): Promise<void> {
  if (entry.payload.kind === 'rep.customer') {
    await registered(db, entry, (body as { customer: RepCustomer }).customer, status);
    return;
  }
  await db.transaction('rw', [db.outbox, db.carts, db.orders, db.orderLists], async () => {
    await db.outbox.delete(entry.id);
    const payload = entry.payload;
    const syncedAt = new Date().toISOString();
    if (payload.kind === 'list.delete') {
      // Marked rather than removed: a read of the lists under way may still hold it.
      await db.orderLists.update([entry.userId, payload.listId], { deleted: true, syncedAt });
    } else if (isListChange(payload)) {
      // Every other change of a list answers with the list as the server now has it.
      const list = body as OrderList;
      await db.orderLists.put({ userId: entry.userId, id: list.id, list, syncedAt });
    } else if (isLineChange(payload) && sideBySide) {
      const base = (await db.carts.get(entry.userId))?.cart ?? EMPTY_CART;
      const cart = withLineFrom(base, body as Cart, payload.productId);
      await db.carts.put({ userId: entry.userId, cart, syncedAt });
    } else if (payload.kind.startsWith('cart.')) {
      await db.carts.put({ userId: entry.userId, cart: body as Cart, syncedAt });
    } else if (payload.kind === 'checkout' || payload.kind === 'rep.order') {
      // The order as the server confirmed it takes the place of the one queued on the
      // device, keeping its reference, what the server changed and, for a rep, the customer
      // and the signature (for the pro-forma).
      const order = (body as { order: Order }).order;
      const local = await db.orders.get(localOrderRef(payload.localRef));
      await db.orders.delete(localOrderRef(payload.localRef));
      await db.orders.put(
        storedServerOrder(entry.userId, order, {
          localRef: payload.localRef,
          changes: local ? orderChanges(local.order, order) : undefined,
          ...(payload.kind === 'rep.order'
            ? { customerId: payload.customerId, signature: local?.signature }
            : {}),
        }),
      );
      // A salon's cart was ordered whole; a rep's was emptied when the order was queued.
      if (payload.kind === 'checkout')
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

/**
 * A salon registered at the booth is now the server's: everything the device knew it by
 * its local id (its record among the rep's customers, the rep's choice of customer, its
 * cart, its orders, and the entries still waiting: orders and documents) takes the
 * server's id, in one transaction with the entry's removal. Those entries were queued
 * after the registration and wait for it, so none has been sent under the local id.
 * A salon that was the rep's customer already (200, not 201) keeps its record on the
 * server: what the rep typed that the record does not hold is kept with it on the device.
 */
async function registered(db: PortalDb, entry: OutboxEntry, customer: RepCustomer, status: number) {
  if (entry.payload.kind !== 'rep.customer') return;
  const { localId, fields } = entry.payload;
  const { userId } = entry;
  const tables = [db.outbox, db.repCustomers, db.repState, db.repCarts, db.orders];
  await db.transaction('rw', tables, async () => {
    await db.outbox.delete(entry.id);
    await db.repCustomers.delete([userId, localId]);
    const earlier = await db.repCustomers.get([userId, customer.id]);
    // Kept from an earlier registration, and typed for this one, where the record differs.
    const typed = status === 200 ? fields : {};
    const boothDetails = boothDetailsNotApplied({ ...earlier?.boothDetails, ...typed }, customer);
    await db.repCustomers.put({
      userId,
      id: customer.id,
      customer,
      syncedAt: new Date().toISOString(),
      localId,
      boothDetails,
    });
    await db.repState
      .where('userId')
      .equals(userId)
      .filter((state) => state.actingFor === localId)
      .modify({ actingFor: customer.id });
    const cart = await db.repCarts.get([userId, localId]);
    if (cart) {
      // A salon the rep already had (registered twice): its cart gets these lines too.
      const kept = await db.repCarts.get([userId, customer.id]);
      await db.repCarts.delete([userId, localId]);
      await db.repCarts.put({
        ...cart,
        customerId: customer.id,
        lines: kept ? mergeLines(kept.lines, cart.lines) : cart.lines,
      });
    }
    await db.outbox
      .where('userId')
      .equals(userId)
      .filter((waiting) => customerOf(waiting.payload) === localId)
      .modify((waiting) => {
        if (waiting.payload.kind === 'rep.order' || waiting.payload.kind === 'rep.document')
          waiting.payload.customerId = customer.id;
      });
    await db.orders
      .where('userId')
      .equals(userId)
      .filter((order) => order.customerId === localId)
      .modify({ customerId: customer.id });
  });
}

async function markAttention(
  db: PortalDb,
  entry: OutboxEntry,
  error: ServerProblem,
): Promise<void> {
  await db.transaction('rw', db.outbox, db.orders, async () => {
    await db.outbox.update(entry.id, { state: 'attention', error });
    if (entry.payload.kind === 'checkout' || entry.payload.kind === 'rep.order') {
      await db.orders.update(localOrderRef(entry.payload.localRef), { state: 'attention' });
    }
  });
}

export interface Sendable {
  /** Entries that can be sent now, in the outbox's order. */
  ready: OutboxEntry[];
  /**
   * The entry backing off whose next try comes first, if any: the one that ended the
   * picking, or a document set aside before it.
   */
  backingOff?: OutboxEntry | undefined;
}

/** What step 3 knows besides the outbox. */
export interface SendableContext {
  /** Entries on their way. */
  onTheirWay: ReadonlySet<number>;
  now: number;
  /** How many more may be sent at once. */
  room?: number;
  /** Products with a line in the last cart the server returned. */
  serverLines?: ReadonlySet<number>;
}

/**
 * Step 3: the entries of one user's outbox (in id order) that can be sent now. Entries
 * held back by one that needs attention are set aside: nothing waits for them either. An
 * addition makes its line unless the server's cart has it and no entry before removes it.
 */
export function sendable(entries: readonly OutboxEntry[], context: SendableContext): Sendable {
  const room = context.room ?? Number.POSITIVE_INFINITY;
  const lines = new Set(context.serverLines);
  const creating = new Set<OutboxEntry>();
  const createsLine = (entry: OutboxEntry) => creating.has(entry);
  const attention: OutboxEntry[] = [];
  const going: OutboxEntry[] = [];
  const ready: OutboxEntry[] = [];
  let backingOff: OutboxEntry | undefined;
  for (const entry of entries) {
    if (entry.state === 'attention') {
      attention.push(entry);
      continue;
    }
    if (attention.some((earlier) => isBlockedBy(entry, earlier))) continue;
    const payload = entry.payload;
    if (payload.kind === 'cart.add' && !lines.has(payload.productId)) creating.add(entry);
    if (!context.onTheirWay.has(entry.id as number)) {
      if (entry.nextAttemptAt <= context.now) {
        const waits = going.some((earlier) => mustFollow(entry, earlier, createsLine));
        if (ready.length < room && !waits) ready.push(entry);
      } else if (payload.kind === 'rep.document') {
        // Nothing needs a document (a photo taking long on a fair's network): it holds
        // back only itself, and the earliest such says when to try again.
        if (!backingOff || entry.nextAttemptAt < backingOff.nextAttemptAt) backingOff = entry;
      } else {
        const first = backingOff && backingOff.nextAttemptAt < entry.nextAttemptAt;
        return { ready, backingOff: first ? backingOff : entry };
      }
    }
    if (payload.kind === 'cart.add') lines.add(payload.productId);
    else if (payload.kind === 'cart.remove') lines.delete(payload.productId);
    else if (payload.kind === 'cart.clear' || payload.kind === 'checkout') lines.clear();
    going.push(entry);
  }
  return { ready, backingOff };
}

/**
 * Steps 2 and 3 in one transaction: merges what can travel together, picks what can go
 * and marks it as sending (and sent, so that it is never merged again).
 */
async function pick(
  db: PortalDb,
  userId: number,
  onTheirWay: ReadonlySet<number>,
  room: number,
  now: number,
): Promise<Sendable> {
  return db.transaction('rw', db.outbox, db.carts, async () => {
    const stored = await db.outbox.where('userId').equals(userId).sortBy('id');
    const cart = (await db.carts.get(userId))?.cart;
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
    const entries = stored
      .filter((entry) => !gone.has(entry.id as number))
      .map((entry) => {
        const payload = merged.get(entry.id as number);
        return payload ? { ...entry, kind: payload.kind, payload } : entry;
      });
    const picked = sendable(entries, {
      onTheirWay,
      now,
      room,
      serverLines: new Set(cart?.items.map((item) => item.productId)),
    });
    // What picking changes in each entry, written and handed on alike: the entry is sent as
    // it is from now on.
    const changes = picked.ready.map((entry) => ({
      state: 'sending' as const,
      sent: true as const,
      // Still marked as on its way: the app stopped before its response came.
      ...(entry.state === 'sending' ? { responseLost: true as const, answeredFailures: 0 } : {}),
    }));
    if (changes.length > 0) {
      await db.outbox.bulkUpdate(
        picked.ready.map((entry, i) => ({ key: entry.id as number, changes: changes[i] ?? {} })),
      );
    }
    return { ...picked, ready: picked.ready.map((entry, i) => ({ ...entry, ...changes[i] })) };
  });
}

/**
 * Whether an attempt ended without telling whether the server made the change: no response
 * from the server, or "still in progress" (another copy of the request was running).
 */
const fateUnknown = (status: number | 'network', body: unknown) =>
  status === 'network' ||
  (status === 409 && (body as { code?: unknown } | null)?.code === 'REQUEST_IN_PROGRESS');

export async function replayOutbox(options: ReplayOptions): Promise<ReplayResult> {
  const { db, transport } = options;
  const now = options.now ?? Date.now;
  const room = Math.max(1, options.concurrency ?? REPLAY_CONCURRENCY);
  const result: ReplayResult = { done: 0, requests: 0, retryAt: null, needsSignIn: false };
  const onTheirWay = new Map<number, Promise<void>>();
  /** Cart line changes on their way, and whether each has shared its flight with another. */
  const lines = new Map<number, { sideBySide: boolean }>();
  /** Set once nothing more is to be picked: a retry, a sign-in, nobody signed in, a failure. */
  let stopped = false;
  let failure: { error: unknown } | undefined;

  // Steps 4 and 5 for one entry.
  const send = async (entry: OutboxEntry, line: { sideBySide: boolean } | undefined) => {
    const id = entry.id as number;
    const invalid = await options.check?.(entry.payload);
    if (invalid) {
      await markAttention(db, entry, invalid);
      return;
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
      await applyDone(db, entry, body, status as number, line?.sideBySide ?? false);
      await options.onDone?.(entry, body, status as number);
      result.done += 1;
    } else if (outcome === 'attention') {
      await markAttention(
        db,
        entry,
        problemOf(status as number, body, 'The server refused this change.'),
      );
    } else if (outcome === 'signIn') {
      stopped = true;
      await db.outbox.update(id, { state: 'waiting' });
      result.needsSignIn = true;
    } else {
      stopped = true;
      const attempts = entry.attempts + 1;
      const retryAt = now() + backoffMs(attempts, options.random);
      await db.outbox.update(id, {
        state: 'waiting',
        attempts,
        nextAttemptAt: retryAt,
        ...(fateUnknown(status, body)
          ? { responseLost: true as const, answeredFailures: 0 }
          : { answeredFailures: (entry.answeredFailures ?? 0) + 1 }),
        error: problemOf(
          status === 'network' ? undefined : status,
          body,
          'The server could not be reached.',
        ),
      });
      if (result.retryAt === null || retryAt < result.retryAt) {
        result.retryAt = retryAt;
        result.retryStatus = status === 'network' ? undefined : status;
      }
    }
  };

  const launch = (entry: OutboxEntry) => {
    const id = entry.id as number;
    let line: { sideBySide: boolean } | undefined;
    if (isLineChange(entry.payload)) {
      // A repeat may get the answer the server recorded the first time, older than what
      // changes of other lines made of the cart since: only its own line counts, as for
      // an answer that shared its flight.
      line = { sideBySide: lines.size > 0 || mayHaveReachedServer(entry) };
      for (const other of lines.values()) other.sideBySide = true;
      lines.set(id, line);
    }
    const flight = send(entry, line)
      .catch((error: unknown) => {
        // The device's storage failed: the others on their way finish first.
        failure ??= { error };
        stopped = true;
      })
      .finally(() => {
        onTheirWay.delete(id);
        lines.delete(id);
      });
    onTheirWay.set(id, flight);
  };

  for (;;) {
    if (!stopped && onTheirWay.size < room) {
      try {
        const userId = await options.currentUserId();
        if (userId === null) stopped = true;
        else {
          const picked = await pick(
            db,
            userId,
            new Set(onTheirWay.keys()),
            room - onTheirWay.size,
            now(),
          );
          for (const entry of picked.ready) launch(entry);
          if (onTheirWay.size === 0) {
            if (picked.backingOff) {
              result.retryAt = picked.backingOff.nextAttemptAt;
              result.retryStatus = picked.backingOff.error?.status;
            }
            return result;
          }
        }
      } catch (error) {
        failure ??= { error };
        stopped = true;
      }
    }
    if (onTheirWay.size === 0) break;
    await Promise.race(onTheirWay.values());
  }
  if (failure) throw failure.error;
  return result;
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
