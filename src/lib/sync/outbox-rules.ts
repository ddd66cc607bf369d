/**
 * The outbox's rules, without any I/O: which request each entry makes, what an answer
 * means for it, how long to wait before trying again, which entries must wait for an
 * earlier one that needs attention, which ones may be sent side by side, which waiting
 * changes of a cart line can travel as one request, and how waiting entries change the
 * cart the user sees. The page and the service worker share them.
 */
import type { DocumentField } from '../../contracts/accounts';
import type { RepCustomerForm } from '../../contracts/form-schemas';
import type { ShippingAddress, Cart, CartItem } from '../../contracts/orders';
import { cartLine, cartOf, MAX_LINE_QUANTITY, roundMoney } from '../../contracts/orders';

export type OutboxEntryState = 'waiting' | 'sending' | 'attention';

export type OutboxPayload =
  | { kind: 'cart.add'; productId: number; quantity: number }
  | { kind: 'cart.update'; productId: number; quantity: number }
  | { kind: 'cart.remove'; productId: number }
  | { kind: 'cart.clear' }
  | {
      kind: 'checkout';
      shippingAddress: ShippingAddress;
      notes: string;
      localRef: string;
      /**
       * The lines the user confirmed: exactly these are ordered, whatever another device of
       * the user did to the cart meanwhile. Absent from entries queued before they were sent.
       */
      items?: { productId: number; quantity: number }[];
    }
  | { kind: 'order.cancel'; orderId: number; orderNumber: string; cancellationReason: string }
  | { kind: 'profile.update'; firstName: string; lastName: string; email: string }
  | {
      /** An order a sales rep takes for its customer: the lines travel with it. */
      kind: 'rep.order';
      customerId: number;
      items: { productId: number; quantity: number }[];
      shippingAddress: ShippingAddress;
      notes: string;
      localRef: string;
      /** The customer's signature: a PNG in base64, or null when the customer did not sign. */
      signature: string | null;
    }
  | {
      /**
       * A salon a sales rep registers at the booth. Until the server has it, the device
       * knows it by `localId` (negative): its orders and documents name it so, and are
       * given the server's id when this entry is done.
       */
      kind: 'rep.customer';
      localId: number;
      fields: RepCustomerForm;
    }
  | {
      /** A document of a rep's customer: a photo or a file, sent as the salon's are. */
      kind: 'rep.document';
      customerId: number;
      field: DocumentField;
      fileName: string;
      contentType: string;
      bytes: ArrayBuffer;
    }
  | ListPayload;

/**
 * A change of one of a salon user's order lists (docs/api.md#order-lists): each sets a
 * value (a name, a quantity, a removal), so sent twice it leaves the list as once.
 * `listName` is the name list.put gives; the other changes carry the list's name only to
 * say in the sync centre which list they change.
 */
export type ListPayload =
  /** Makes the list under the id the device chose, or renames it. */
  | { kind: 'list.put'; listId: string; listName: string }
  | { kind: 'list.delete'; listId: string; listName: string }
  | { kind: 'list.item.put'; listId: string; listName: string; productId: number; quantity: number }
  | { kind: 'list.item.delete'; listId: string; listName: string; productId: number };

export type OutboxKind = OutboxPayload['kind'];

export interface OutboxEntry {
  /** Auto-increment: the replay order. */
  id?: number;
  userId: number;
  kind: OutboxKind;
  payload: OutboxPayload;
  idempotencyKey: string;
  createdAt: string;
  attempts: number;
  /** Not before this time (ms since epoch): the backoff after a failed attempt. */
  nextAttemptAt: number;
  state: OutboxEntryState;
  error?: ServerProblem | undefined;
  /**
   * Set before the entry's request first leaves the device, and never cleared: from then
   * on the server may hold its Idempotency-Key, so the entry is only ever sent again as it
   * is (see mayHaveReachedServer).
   */
  sent?: true | undefined;
  /**
   * Set when an attempt ended without the server's response (the connection dropped, a
   * timeout, a page that was not the server's, the app stopped while it was on its way) or
   * with "still in progress": the server may have made the change, though no response
   * said so.
   */
  responseLost?: true | undefined;
  /**
   * Attempts answered by the server with a fault (5xx, 408, 429) since the last one whose
   * response was lost: counted to offer a way out of a change the server keeps failing.
   */
  answeredFailures?: number | undefined;
}

/** What the server said about an entry it refused: its message, and a code to translate it by. */
export interface ServerProblem {
  status?: number | undefined;
  message: string;
  code?: string | undefined;
  params?: Record<string, string | number> | undefined;
}

export interface OutboxRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data instead: one file under its field's name. */
  file?: { field: string; name: string; type: string; bytes: ArrayBuffer };
}

/** The /api call an entry makes (path without the /api prefix). */
export function requestFor(payload: OutboxPayload): OutboxRequest {
  switch (payload.kind) {
    case 'cart.add':
      return {
        method: 'POST',
        path: 'cart/add',
        body: { productId: payload.productId, quantity: payload.quantity },
      };
    case 'cart.update':
      return {
        method: 'PUT',
        path: `cart/items/${payload.productId}`,
        body: { quantity: payload.quantity },
      };
    case 'cart.remove':
      return { method: 'DELETE', path: `cart/items/${payload.productId}` };
    case 'cart.clear':
      return { method: 'DELETE', path: 'cart' };
    case 'checkout':
      return {
        method: 'POST',
        path: 'cart/checkout',
        body: {
          shippingAddress: payload.shippingAddress,
          notes: payload.notes,
          clientReference: payload.localRef,
          ...(payload.items ? { items: payload.items } : {}),
        },
      };
    case 'order.cancel':
      return {
        method: 'DELETE',
        path: `orders/${payload.orderId}`,
        body: { cancellationReason: payload.cancellationReason },
      };
    case 'profile.update':
      return {
        method: 'PUT',
        path: 'users/profile',
        body: { firstName: payload.firstName, lastName: payload.lastName, email: payload.email },
      };
    case 'rep.order':
      return {
        method: 'POST',
        path: `rep/customers/${payload.customerId}/orders`,
        body: {
          items: payload.items,
          shippingAddress: payload.shippingAddress,
          notes: payload.notes,
          clientReference: payload.localRef,
          ...(payload.signature ? { signature: payload.signature } : {}),
        },
      };
    case 'rep.customer':
      return { method: 'POST', path: 'rep/customers', body: payload.fields };
    case 'rep.document':
      return {
        method: 'POST',
        path: `rep/customers/${payload.customerId}/documents`,
        file: {
          field: payload.field,
          name: payload.fileName,
          type: payload.contentType,
          bytes: payload.bytes,
        },
      };
    case 'list.put':
      return { method: 'PUT', path: `lists/${payload.listId}`, body: { name: payload.listName } };
    case 'list.delete':
      return { method: 'DELETE', path: `lists/${payload.listId}` };
    case 'list.item.put':
      return {
        method: 'PUT',
        path: `lists/${payload.listId}/items/${payload.productId}`,
        body: { quantity: payload.quantity },
      };
    case 'list.item.delete':
      return { method: 'DELETE', path: `lists/${payload.listId}/items/${payload.productId}` };
  }
}

/** A change of an order list. */
export const isListChange = (payload: OutboxPayload): payload is ListPayload =>
  payload.kind.startsWith('list.');

/**
 * The lines of two carts of one customer as one: the first's in their order, then the
 * second's new ones; a product in both gets both quantities, within a line's largest.
 */
export function mergeLines(
  first: readonly { productId: number; quantity: number }[],
  second: readonly { productId: number; quantity: number }[],
): { productId: number; quantity: number }[] {
  const lines = first.map((line) => ({ ...line }));
  for (const line of second) {
    const same = lines.find((kept) => kept.productId === line.productId);
    if (same) same.quantity = Math.min(MAX_LINE_QUANTITY, same.quantity + line.quantity);
    else lines.push({ ...line });
  }
  return lines;
}

/** The customer an entry is for, as the device knows it (negative: registered offline). */
export const customerOf = (payload: OutboxPayload): number | undefined =>
  payload.kind === 'rep.order' || payload.kind === 'rep.document'
    ? payload.customerId
    : payload.kind === 'rep.customer'
      ? payload.localId
      : undefined;

export type Outcome = 'done' | 'retry' | 'signIn' | 'attention';

/**
 * What an answer means for an entry. Lost connections, timeouts, server errors, rate
 * limits and "still running" conflicts are tried again; a refused session asks the user
 * to sign in; any other refusal needs the user's attention (it would fail again).
 */
export function classify(status: number | 'network', body?: { code?: string } | null): Outcome {
  if (status === 'network') return 'retry';
  if (status >= 200 && status < 300) return 'done';
  if (status === 401) return 'signIn';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  if (status === 409 && (body?.code === undefined || body.code === 'REQUEST_IN_PROGRESS'))
    return 'retry';
  return 'attention';
}

/** Attempts after which an entry the server keeps failing may be given up by the user. */
export const KEEPS_FAILING_ATTEMPTS = 3;

/**
 * Whether the server keeps failing to take a waiting entry, which holds back the changes
 * after it, so that the user may discard it: a server fault at each of the last
 * KEEPS_FAILING_ATTEMPTS attempts or more. `notMade` when every attempt had the server's
 * response, so that the server surely has not made the change; `mayBeMade` when an earlier
 * attempt's response was lost: it may have been a success, so the user is told to look
 * before making the change again (discarded and made again, it would be made twice).
 */
export function serverKeepsFailing(entry: OutboxEntry): 'notMade' | 'mayBeMade' | undefined {
  if (entry.state !== 'waiting' || entry.error?.status === undefined) return undefined;
  if (entry.responseLost !== true) {
    return entry.attempts >= KEEPS_FAILING_ATTEMPTS ? 'notMade' : undefined;
  }
  return (entry.answeredFailures ?? 0) >= KEEPS_FAILING_ATTEMPTS ? 'mayBeMade' : undefined;
}

/** First wait after a failure; doubled with every further failure. */
export const BACKOFF_BASE_MS = 1_000;
/** Longest wait between attempts: a rep back in range should not wait longer than this. */
export const BACKOFF_CAP_MS = 60_000;

/** Exponential backoff with "equal jitter": half fixed, half random, so tabs and devices spread out. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const exponential = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}

/** The product whose cart line a change changes (a list's item is not a cart line). */
const productOf = (payload: OutboxPayload): number | undefined =>
  isLineChange(payload) ? payload.productId : undefined;

/**
 * Whether an entry must wait for an earlier one that needs attention. A checkout waits
 * for every earlier cart change (it orders the whole cart); a cart change waits for an
 * earlier change of the same product; a cancellation or a profile edit waits only for
 * one of its own kind on the same thing. A refused order holds nothing back: it names its
 * own lines, and the user told to lower a quantity and order again must see that go out
 * (docs/product.md#offline). A rep's order carries its own lines: it waits
 * only for the registration of a salon registered at the booth, as its documents do. A
 * change of an order list waits for an earlier change of the same list: a list the server
 * refused to make cannot be filled. Everything else goes ahead.
 */
export function isBlockedBy(entry: OutboxEntry, earlier: OutboxEntry): boolean {
  const a = entry.payload;
  const b = earlier.payload;
  if (a.kind === 'checkout') return b.kind.startsWith('cart.');
  if (a.kind === 'cart.add' || a.kind === 'cart.update' || a.kind === 'cart.remove') {
    return productOf(b) === productOf(a);
  }
  if (a.kind === 'order.cancel') return b.kind === 'order.cancel' && b.orderId === a.orderId;
  // The server knows a salon registered at the booth only once its registration went through.
  if (a.kind === 'rep.order' || a.kind === 'rep.document')
    return b.kind === 'rep.customer' && b.localId === a.customerId;
  if (a.kind === 'profile.update') return b.kind === 'profile.update';
  if (isListChange(a)) return isListChange(b) && b.listId === a.listId;
  return false;
}

/**
 * The refused entry that holds `entry` back (the earliest, of `entries`: one user's
 * outbox), if any: `entry` is not sent before the user has tried it again or discarded it.
 */
export function heldBackBy(
  entry: OutboxEntry,
  entries: readonly OutboxEntry[],
): OutboxEntry | undefined {
  if (entry.state === 'attention') return undefined;
  return entries.find(
    (earlier) =>
      earlier.state === 'attention' &&
      (earlier.id ?? 0) < (entry.id ?? 0) &&
      isBlockedBy(entry, earlier),
  );
}

/**
 * The earlier entry that a waiting `entry` must follow (see mustFollow, taking every
 * addition as a new line, as the device cannot tell) and that the server keeps failing
 * to take (see serverKeepsFailing), if any: `entry` waits for it, however long that takes,
 * unless the user discards it.
 */
export function waitsForFailing(
  entry: OutboxEntry,
  entries: readonly OutboxEntry[],
): OutboxEntry | undefined {
  if (entry.state !== 'waiting') return undefined;
  return entries.find(
    (earlier) =>
      (earlier.id ?? 0) < (entry.id ?? 0) &&
      serverKeepsFailing(earlier) !== undefined &&
      mustFollow(entry, earlier),
  );
}

/**
 * Whether one of these entries (one user's outbox) that `counts` is still to be sent:
 * neither refused nor held back by a refused one. While one is, what the server returns
 * is not what the user will have; once none is, it is, whatever else waits for the user's
 * answer (the device shows a refused change left out, and one it holds back applied on
 * top).
 */
export function stillToSend(
  entries: readonly OutboxEntry[],
  counts: (payload: OutboxPayload) => boolean,
): boolean {
  return entries.some(
    (entry) => entry.state !== 'attention' && counts(entry.payload) && !heldBackBy(entry, entries),
  );
}

/** A change the server's cart shows once made: a cart change or a checkout. */
export const changesCart = (payload: OutboxPayload): boolean =>
  payload.kind.startsWith('cart.') || payload.kind === 'checkout';

type LinePayload = Extract<OutboxPayload, { kind: 'cart.add' | 'cart.update' | 'cart.remove' }>;

/** A change of one cart line: add to it, set its quantity, remove it. */
export const isLineChange = (payload: OutboxPayload): payload is LinePayload =>
  payload.kind === 'cart.add' || payload.kind === 'cart.update' || payload.kind === 'cart.remove';

/**
 * Whether an entry must wait until an earlier one is done before it is sent; entries that
 * need not are sent side by side. Changes of different cart lines touch different rows
 * and different stock, so they commute, with one exception: the cart lists its lines in
 * the order they were made, so two additions that may each make their line
 * (`createsLine`, by default any addition) keep their order. A profile edit touches
 * nothing an order needs. A sales rep's order or document needs only its salon's
 * registration at the booth, if it has one waiting; the rep's registrations, and its
 * orders (each takes stock a later one may need), keep their order among themselves, and
 * nothing waits for a document. Order lists touch no cart, order or stock: their changes
 * keep their order among themselves (a list is made before its items, its items are
 * listed in the order they were added, and the server counts a user's lists), and nothing
 * else waits for them. Everything else keeps the queue's order: a clear and a checkout take the
 * whole cart, and a cancellation puts back stock that a later change or order may need.
 */
export function mustFollow(
  entry: OutboxEntry,
  earlier: OutboxEntry,
  createsLine: (entry: OutboxEntry) => boolean = () => true,
): boolean {
  const a = entry.payload;
  const b = earlier.payload;
  if (a.kind === 'profile.update' || b.kind === 'profile.update') return a.kind === b.kind;
  if (isListChange(a) || isListChange(b)) return isListChange(a) && isListChange(b);
  const registers = b.kind === 'rep.customer' && b.localId === customerOf(a);
  if (a.kind === 'rep.document') return registers;
  if (a.kind === 'rep.order') return registers || b.kind === 'rep.order';
  if (a.kind === 'rep.customer') return b.kind === 'rep.customer';
  if (b.kind === 'rep.document') return false;
  if (isLineChange(a) && isLineChange(b)) {
    if (a.productId === b.productId) return true;
    return (
      a.kind === 'cart.add' && b.kind === 'cart.add' && createsLine(entry) && createsLine(earlier)
    );
  }
  return true;
}

/**
 * Whether the server may already know an entry: it was handed to the transport, is being
 * sent, was tried before (a lost answer can hide a change the server made) or was
 * refused. Such an entry is only sent again as it is, under its own Idempotency-Key:
 * merged into another, its change could be made twice, or its key come back with another
 * body (which the server refuses).
 */
export function mayHaveReachedServer(entry: OutboxEntry): boolean {
  return entry.sent === true || entry.state !== 'waiting' || entry.attempts > 0;
}

/**
 * One change with the effect of two consecutive changes of the same cart line, or
 * undefined when no single call of the API has it:
 * - add a, then add b: add a + b, within the largest quantity of a line. Refused for
 *   stock, the sum needs attention as a whole, with its quantity to edit;
 * - set x, then set y: set y (the cart ends as the later one asks);
 * - add, set or remove, then remove: remove (removing a line that is not there is fine).
 * Never merged: set then add and add then set (setting needs the line to exist, and an add
 * refused for stock leaves none), remove then add or set.
 */
export function mergeLineChanges(first: LinePayload, second: LinePayload): LinePayload | undefined {
  if (first.productId !== second.productId) return undefined;
  if (second.kind === 'cart.remove') return second;
  if (first.kind === 'cart.add' && second.kind === 'cart.add') {
    const quantity = first.quantity + second.quantity;
    return quantity <= MAX_LINE_QUANTITY ? { ...first, quantity } : undefined;
  }
  if (first.kind === 'cart.update' && second.kind === 'cart.update') return second;
  return undefined;
}

/** What compacting a user's outbox changes: entries given a merged change, entries merged away. */
export interface Compaction {
  merged: Map<number, LinePayload>;
  dropped: number[];
}

/**
 * Which waiting cart changes travel together (the outbox in id order, one user's).
 *
 * 1. Only runs of cart line changes are looked at: a clear, a checkout, a cancellation, a
 *    profile edit or any other change ends the run, so nothing moves across it.
 * 2. Within a run, changes of different lines do not touch each other: a change of line p
 *    is moved up next to the previous change of p and merged into it (mergeLineChanges),
 *    taking the earlier one's place, so that lines are still created in the order the user
 *    added them.
 * 3. Only entries the server cannot know yet are merged or moved (mayHaveReachedServer):
 *    one that may have reached it stays as it is, and nothing later of its line merges
 *    across it.
 */
export function compaction(entries: readonly OutboxEntry[]): Compaction {
  const merged = new Map<number, LinePayload>();
  const dropped: number[] = [];
  // Per line, the latest change in the run that a later one may still merge into.
  let open = new Map<number, { id: number; payload: LinePayload }>();
  for (const entry of entries) {
    const payload = entry.payload;
    if (!isLineChange(payload)) {
      open = new Map();
      continue;
    }
    if (entry.id === undefined || mayHaveReachedServer(entry)) {
      open.delete(payload.productId);
      continue;
    }
    const earlier = open.get(payload.productId);
    const together = earlier && mergeLineChanges(earlier.payload, payload);
    if (earlier && together) {
      earlier.payload = together;
      merged.set(earlier.id, together);
      dropped.push(entry.id);
    } else {
      open.set(payload.productId, { id: entry.id, payload });
    }
  }
  return { merged, dropped };
}

/**
 * The base cart with one line as the server answered it. Used for answers to changes sent
 * side by side: each answer is right about its own line, but the rest of it may be older
 * than what another answer already brought.
 */
export function withLineFrom(base: Cart, answer: Cart, productId: number): Cart {
  const line = answer.items.find((item) => item.productId === productId);
  const items = base.items.filter((item) => item.productId !== productId);
  if (line) {
    const at = base.items.findIndex((item) => item.productId === productId);
    items.splice(at === -1 ? items.length : at, 0, line);
  }
  return cartOf(items);
}

/** Product details a line needs when it was added on the device. */
export interface LineProduct {
  id: number;
  name: string;
  sku: string;
  images: string[];
  stock: number;
  price?: number | undefined;
}

/** The cart the user sees: the server's last cart with the entries not yet sent applied on top. */
export function applyEntries(
  base: Cart,
  entries: readonly OutboxEntry[],
  productById: (id: number) => LineProduct | undefined,
): Cart {
  let items = base.items.map((item) => ({ ...item }));
  const line = (productId: number, quantity: number): CartItem | undefined => {
    const product = productById(productId);
    return product ? cartLine(product, quantity, product.price ?? 0) : undefined;
  };
  const setQuantity = (productId: number, quantity: number) => {
    items = items.map((item) =>
      item.productId === productId
        ? { ...item, quantity, lineTotal: roundMoney(item.price * quantity) }
        : item,
    );
  };
  for (const entry of entries) {
    const payload = entry.payload;
    switch (payload.kind) {
      case 'cart.add': {
        const existing = items.find((item) => item.productId === payload.productId);
        if (existing) setQuantity(payload.productId, existing.quantity + payload.quantity);
        else {
          const added = line(payload.productId, payload.quantity);
          if (added) items.push(added);
        }
        break;
      }
      case 'cart.update':
        setQuantity(payload.productId, payload.quantity);
        break;
      case 'cart.remove':
        items = items.filter((item) => item.productId !== payload.productId);
        break;
      case 'cart.clear':
        items = [];
        break;
      case 'checkout': {
        // What it orders leaves the cart; a line it does not name stays, as on the server.
        const ordered = payload.items;
        if (!ordered) {
          items = [];
          break;
        }
        for (const { productId, quantity } of ordered) {
          const existing = items.find((item) => item.productId === productId);
          if (!existing) continue;
          if (existing.quantity > quantity) setQuantity(productId, existing.quantity - quantity);
          else items = items.filter((item) => item.productId !== productId);
        }
        break;
      }
      default:
        break;
    }
  }
  return cartOf(items);
}
