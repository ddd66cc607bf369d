import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_CART, type Cart, type Order } from '../../src/contracts/orders';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import {
  localOrderRef,
  makeWaitingDue,
  replayOutbox,
  type Transport,
  type TransportResponse,
} from '../../src/lib/sync/outbox-replay';
import {
  applyEntries,
  backoffMs,
  BACKOFF_CAP_MS,
  classify,
  requestFor,
  type OutboxEntry,
  type OutboxPayload,
  type OutboxRequest,
} from '../../src/lib/sync/outbox-rules';
import { ADDRESS } from '../fixtures/shipping-address';

let db: PortalDb;
let now = 1_000_000;

beforeEach(() => {
  db = createPortalDb(`outbox-${Math.random()}`);
  now = 1_000_000;
});
afterEach(async () => {
  await db.delete();
});

let keys = 0;
async function queue(userId: number, payload: OutboxPayload): Promise<number> {
  const entry: OutboxEntry = {
    userId,
    kind: payload.kind,
    payload,
    idempotencyKey: `key-${(keys += 1)}`,
    createdAt: new Date(now).toISOString(),
    attempts: 0,
    nextAttemptAt: 0,
    state: 'waiting',
  };
  return (await db.outbox.add(entry)) as number;
}

const cartWith = (...lines: [number, number][]): Cart => ({
  items: lines.map(([productId, quantity]) => ({
    id: productId,
    productId,
    quantity,
    price: 10,
    lineTotal: 10 * quantity,
    product: {
      id: productId,
      name: `P${productId}`,
      sku: `S${productId}`,
      images: [],
      stock: 99,
      stockQuantity: 99,
      inStock: true,
    },
  })),
  subtotal: 0,
  total: 0,
  itemCount: 0,
  currency: 'EUR',
});

/** A server that answers from a script, and records the requests it was sent. */
function fakeServer(
  answer: (request: OutboxRequest, entry: OutboxEntry) => TransportResponse | 'network',
) {
  const sent: { request: OutboxRequest; key: string }[] = [];
  const transport: Transport = {
    send(entry, request) {
      sent.push({ request, key: entry.idempotencyKey });
      const result = answer(request, entry);
      if (result === 'network') return Promise.reject(new TypeError('Failed to fetch'));
      return Promise.resolve(result);
    },
  };
  return { transport, sent };
}

const ok = (body: unknown = cartWith()): TransportResponse => ({ status: 200, body });
const replay = (transport: Transport, userId: number | null = 1) =>
  replayOutbox({ db, transport, currentUserId: () => userId, now: () => now, random: () => 0.5 });

describe('what an answer means for an entry', () => {
  it.each([
    [200, undefined, 'done'],
    [201, undefined, 'done'],
    ['network', undefined, 'retry'],
    [500, undefined, 'retry'],
    [503, undefined, 'retry'],
    [429, undefined, 'retry'],
    [408, undefined, 'retry'],
    [409, 'REQUEST_IN_PROGRESS', 'retry'],
    [409, 'ORDER_NOT_CANCELLABLE', 'attention'],
    [401, undefined, 'signIn'],
    [400, undefined, 'attention'],
    [403, undefined, 'attention'],
    [404, undefined, 'attention'],
    [422, undefined, 'attention'],
  ] as const)('%s (%s) → %s', (status, code, outcome) => {
    expect(classify(status, code ? { code } : null)).toBe(outcome);
  });
});

describe('backoff', () => {
  it('doubles with each attempt, with jitter between half and all of it, up to a cap', () => {
    expect(backoffMs(1, () => 0)).toBe(500);
    expect(backoffMs(1, () => 1)).toBe(1000);
    expect(backoffMs(3, () => 1)).toBe(4000);
    expect(backoffMs(4, () => 0.5)).toBe(6000);
    expect(backoffMs(30, () => 1)).toBe(BACKOFF_CAP_MS);
  });
});

describe('replaying the outbox', () => {
  it('sends entries in the order they were made, each with its own key, and applies the server cart', async () => {
    await queue(1, { kind: 'cart.add', productId: 5, quantity: 1 });
    await queue(1, { kind: 'cart.update', productId: 5, quantity: 3 });
    await queue(1, { kind: 'cart.clear' });
    const server = fakeServer(() => ok(cartWith([5, 3])));
    const result = await replay(server.transport);
    expect(server.sent.map((s) => `${s.request.method} ${s.request.path}`)).toEqual([
      'POST cart/add',
      'PUT cart/items/5',
      'DELETE cart',
    ]);
    expect(new Set(server.sent.map((s) => s.key)).size).toBe(3);
    expect(result).toMatchObject({ done: 3, requests: 3, retryAt: null });
    expect(await db.outbox.count()).toBe(0);
    expect((await db.carts.get(1))?.cart.items[0]?.quantity).toBe(3);
  });

  it('backs off after a lost connection, keeping the order, then resends with the same key', async () => {
    await queue(1, { kind: 'cart.add', productId: 5, quantity: 1 });
    await queue(1, { kind: 'cart.clear' });
    let online = false;
    const server = fakeServer(() => (online ? ok() : 'network'));
    const first = await replay(server.transport);
    expect(first.retryAt).toBe(now + 750);
    expect(server.sent).toHaveLength(1);
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ attempts: 1, state: 'waiting', nextAttemptAt: now + 750 });

    // Too early: nothing is sent, not even the later entry.
    now += 500;
    expect((await replay(server.transport)).requests).toBe(0);

    now += 500;
    online = true;
    await replay(server.transport);
    expect(server.sent).toHaveLength(3);
    expect(server.sent[0]?.key).toBe(server.sent[1]?.key);
    expect(server.sent[2]?.key).not.toBe(server.sent[0]?.key);
    expect(await db.outbox.count()).toBe(0);
  });

  it('makes entries backed off to the longest wait due at once, keeping their attempts', async () => {
    await queue(1, { kind: 'cart.remove', productId: 5 });
    await queue(1, { kind: 'cart.clear' });
    let online = false;
    const server = fakeServer(() => (online ? ok() : 'network'));
    let retryAt = (await replay(server.transport)).retryAt;
    for (let attempt = 2; attempt <= 8; attempt += 1) {
      now = retryAt ?? now;
      retryAt = (await replay(server.transport)).retryAt;
    }
    const [backedOff] = await db.outbox.toArray();
    expect(backedOff).toMatchObject({ attempts: 8, nextAttemptAt: now + BACKOFF_CAP_MS * 0.75 });

    // The connection is back: without making them due, the entries would wait 45 s more.
    online = true;
    expect((await replay(server.transport)).requests).toBe(0);
    await makeWaitingDue(db, 1);
    expect((await db.outbox.toArray()).map((e) => e.attempts)).toEqual([8, 0]);
    expect(await replay(server.transport)).toMatchObject({ done: 2, retryAt: null });
    expect(server.sent.at(-1)?.request.path).toBe('cart');
  });

  it('leaves entries that need attention, and other users’ entries, as they are when making entries due', async () => {
    const refused = await queue(1, { kind: 'cart.add', productId: 5, quantity: 9 });
    const other = await queue(2, { kind: 'cart.clear' });
    await db.outbox.update(refused, { state: 'attention', nextAttemptAt: now + 5_000 });
    await db.outbox.update(other, { attempts: 3, nextAttemptAt: now + 5_000 });
    await makeWaitingDue(db, 1);
    expect((await db.outbox.toArray()).map((e) => e.nextAttemptAt)).toEqual([
      now + 5_000,
      now + 5_000,
    ]);
  });

  it('says whether a pass waits because the server failed or because it was not reached', async () => {
    await queue(1, { kind: 'cart.clear' });
    const failing = fakeServer(() => ({ status: 503, body: { message: 'Down for a moment' } }));
    expect(await replay(failing.transport)).toMatchObject({ retryStatus: 503 });
    // Still backing off: the entry that holds the queue tells what its last attempt got.
    expect(await replay(failing.transport)).toMatchObject({ requests: 0, retryStatus: 503 });
    now += BACKOFF_CAP_MS;
    const unreachable = fakeServer(() => 'network');
    const result = await replay(unreachable.transport);
    expect(result.retryAt).not.toBeNull();
    expect(result.retryStatus).toBeUndefined();
  });

  it('stops on a refused session and keeps the entry waiting for sign-in', async () => {
    await queue(1, { kind: 'cart.add', productId: 5, quantity: 1 });
    await queue(1, { kind: 'cart.clear' });
    const server = fakeServer(() => ({
      status: 401,
      body: { message: 'Your session has expired.' },
    }));
    const result = await replay(server.transport);
    expect(result.needsSignIn).toBe(true);
    expect(server.sent).toHaveLength(1);
    expect((await db.outbox.toArray()).map((e) => [e.state, e.attempts])).toEqual([
      ['waiting', 0],
      ['waiting', 0],
    ]);
    // Signed in again: everything goes.
    const after = fakeServer(() => ok());
    expect((await replay(after.transport)).done).toBe(2);
  });

  it('never sends another user’s entries, nor anything when nobody is signed in', async () => {
    await queue(2, { kind: 'cart.clear' });
    await queue(1, { kind: 'cart.add', productId: 5, quantity: 1 });
    const server = fakeServer(() => ok());
    await replay(server.transport, null);
    expect(server.sent).toHaveLength(0);
    await replay(server.transport, 1);
    expect(server.sent).toHaveLength(1);
    expect((await db.outbox.toArray()).map((e) => e.userId)).toEqual([2]);
  });

  it('marks a refused entry as needing attention and goes on with what does not depend on it', async () => {
    await queue(1, { kind: 'cart.add', productId: 5, quantity: 9 });
    await queue(1, { kind: 'cart.add', productId: 6, quantity: 1 });
    await queue(1, { kind: 'cart.update', productId: 5, quantity: 2 });
    await queue(1, { kind: 'checkout', shippingAddress: ADDRESS, notes: '', localRef: 'L-1' });
    await queue(1, { kind: 'profile.update', firstName: 'Ana', lastName: 'Pop', email: 'a@b.co' });
    const server = fakeServer((request) =>
      request.path === 'cart/add' && (request.body as { productId: number }).productId === 5
        ? { status: 422, body: { message: 'P5 is out of stock.' } }
        : ok(),
    );
    await replay(server.transport);
    // The profile edit depends on no cart change: it goes side by side with them.
    expect(server.sent.map((s) => s.request.path).sort()).toEqual([
      'cart/add',
      'cart/add',
      'users/profile',
    ]);
    const left = await db.outbox.toArray();
    expect(left.map((e) => [e.kind, e.state])).toEqual([
      ['cart.add', 'attention'],
      ['cart.update', 'waiting'],
      ['checkout', 'waiting'],
    ]);
    expect(left[0]?.error).toEqual({ status: 422, message: 'P5 is out of stock.' });
  });

  it('replaces a queued order by the confirmed one, noting what the server changed', async () => {
    const seen: Order = {
      id: 0,
      orderNumber: '',
      status: 'PENDING',
      paymentStatus: 'PENDING',
      paymentMethod: 'BANK_TRANSFER',
      subtotal: 20,
      total: 20,
      currency: 'EUR',
      notes: '',
      clientReference: 'L-9',
      shippingAddress: ADDRESS,
      orderItems: [
        {
          id: -1,
          productId: 5,
          quantity: 2,
          unitPrice: 10,
          totalPrice: 20,
          productName: 'P5',
          productSku: 'S5',
          product: { id: 5, name: 'P5', sku: 'S5', images: [] },
        },
      ],
      itemCount: 2,
      cancellationReason: '',
      trackingNumber: '',
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
    };
    await db.orders.put({
      ref: localOrderRef('L-9'),
      userId: 1,
      state: 'waiting',
      createdAt: seen.createdAt,
      order: seen,
      localRef: 'L-9',
    });
    await queue(1, { kind: 'checkout', shippingAddress: ADDRESS, notes: '', localRef: 'L-9' });
    const confirmed: Order = {
      ...seen,
      id: 41,
      orderNumber: 'FP-2026-001041',
      total: 22,
      subtotal: 22,
      orderItems: [{ ...seen.orderItems[0]!, id: 7, unitPrice: 11, totalPrice: 22 }],
    };
    await db.carts.put({ userId: 1, cart: cartWith([5, 2]), syncedAt: '' });
    await replay(fakeServer(() => ({ status: 201, body: { order: confirmed } })).transport);
    expect(await db.orders.get(localOrderRef('L-9'))).toBeUndefined();
    const stored = await db.orders.get('order:41');
    expect(stored).toMatchObject({
      state: 'synced',
      localRef: 'L-9',
      changes: [{ productName: 'P5', kind: 'price', before: 10, after: 11 }],
    });
    expect((await db.carts.get(1))?.cart.items).toEqual([]);
  });

  it('marks a queued order as needing attention when its checkout is refused', async () => {
    await db.orders.put({
      ref: localOrderRef('L-2'),
      userId: 1,
      state: 'waiting',
      createdAt: '',
      order: {} as Order,
      localRef: 'L-2',
    });
    await queue(1, { kind: 'checkout', shippingAddress: ADDRESS, notes: '', localRef: 'L-2' });
    await replay(
      fakeServer(() => ({ status: 400, body: { message: 'Your cart is empty' } })).transport,
    );
    expect((await db.orders.get(localOrderRef('L-2')))?.state).toBe('attention');
  });
});

describe('the cart the user sees', () => {
  const product = (id: number) => ({
    id,
    name: `P${id}`,
    sku: `S${id}`,
    images: [],
    stock: 10,
    price: 2.5,
  });
  const entry = (payload: OutboxPayload): OutboxEntry => ({
    userId: 1,
    kind: payload.kind,
    payload,
    idempotencyKey: 'k',
    createdAt: '',
    attempts: 0,
    nextAttemptAt: 0,
    state: 'waiting',
  });

  it('is the server cart with the waiting changes applied on top', () => {
    const base = { ...cartWith([1, 2]), subtotal: 20, total: 20, itemCount: 2 };
    const cart = applyEntries(
      base,
      [
        entry({ kind: 'cart.add', productId: 1, quantity: 1 }),
        entry({ kind: 'cart.add', productId: 2, quantity: 4 }),
        entry({ kind: 'cart.update', productId: 2, quantity: 3 }),
      ],
      product,
    );
    expect(cart.items.map((i) => [i.productId, i.quantity, i.lineTotal])).toEqual([
      [1, 3, 30],
      [2, 3, 7.5],
    ]);
    expect(cart).toMatchObject({ itemCount: 6, total: 37.5 });
  });

  it('is empty after a waiting clear or checkout', () => {
    expect(applyEntries(cartWith([1, 2]), [entry({ kind: 'cart.clear' })], product)).toEqual(
      EMPTY_CART,
    );
    expect(
      applyEntries(
        cartWith([1, 2]),
        [entry({ kind: 'checkout', shippingAddress: ADDRESS, notes: '', localRef: 'x' })],
        product,
      ).items,
    ).toEqual([]);
  });

  it('keeps after a waiting checkout what it does not order, as the server does', () => {
    // Another device of the user made line 1 five and added line 3; this device ordered two
    // of line 1 and line 2 as it showed them.
    const items = [
      { productId: 1, quantity: 2 },
      { productId: 2, quantity: 1 },
    ];
    const checkout = entry({
      kind: 'checkout',
      shippingAddress: ADDRESS,
      notes: '',
      localRef: 'x',
      items,
    });
    const cart = applyEntries(cartWith([1, 5], [2, 1], [3, 1]), [checkout], product);
    expect(cart.items.map((i) => [i.productId, i.quantity])).toEqual([
      [1, 3],
      [3, 1],
    ]);
    expect(requestFor(checkout.payload).body).toMatchObject({ items });
  });
});

describe('the sync centre actions', () => {
  it('retry, edit and discard an entry that needs attention', async () => {
    const { db: shared } = await import('../../src/lib/db/db');
    const { retryEntry, editEntryQuantity, discardEntry } =
      await import('../../src/lib/sync/outbox');
    const make = (payload: OutboxPayload): OutboxEntry => ({
      userId: 1,
      kind: payload.kind,
      payload,
      idempotencyKey: crypto.randomUUID(),
      createdAt: '',
      attempts: 3,
      nextAttemptAt: now + 60_000,
      state: 'attention',
      error: { status: 422, message: 'Out of stock' },
    });
    const added = (await shared.outbox.add(
      make({ kind: 'cart.add', productId: 5, quantity: 9 }),
    )) as number;
    await retryEntry(added);
    const retried = await shared.outbox.get(added);
    expect(retried).toMatchObject({ state: 'waiting', attempts: 0, nextAttemptAt: 0 });
    expect(retried?.error).toBeUndefined();

    await shared.outbox.update(added, { state: 'attention' });
    await editEntryQuantity(added, 2);
    expect(await shared.outbox.get(added)).toMatchObject({
      state: 'waiting',
      payload: { quantity: 2 },
    });

    const checkout = (await shared.outbox.add(
      make({ kind: 'checkout', shippingAddress: ADDRESS, notes: '', localRef: 'L-5' }),
    )) as number;
    await shared.orders.put({
      ref: localOrderRef('L-5'),
      userId: 1,
      state: 'attention',
      createdAt: '',
      order: {} as Order,
      localRef: 'L-5',
    });
    await discardEntry(checkout);
    expect(await shared.outbox.get(checkout)).toBeUndefined();
    expect(await shared.orders.get(localOrderRef('L-5'))).toBeUndefined();
    await shared.delete();
  });
});
