import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/contracts/accounts';
import type { RepCustomer } from '../../src/contracts/field-sales';
import type { Cart, Order } from '../../src/contracts/orders';
import { createPortalDb } from '../../src/lib/db/db';
import { storedServerOrder, type TransportResponse } from '../../src/lib/sync/outbox-replay';
import type { OutboxEntry, OutboxPayload, OutboxRequest } from '../../src/lib/sync/outbox-rules';
import { createSyncLoop, type SyncDevice, type SyncLoop } from '../../src/lib/sync/sync-loop';

// The replay loop on a device of its own: its database, a server the test scripts, and a
// clock that moves only when the test moves it.

const EMPTY: Cart = { items: [], subtotal: 0, total: 0, itemCount: 0, currency: 'EUR' };

/** A clock whose timers run when the test moves the time on. */
function testClock() {
  let now = Date.UTC(2026, 10, 27, 9);
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run: () => void, ms: number) {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout(id: unknown) {
      timers.delete(id as number);
    },
    /** When the earliest timer is due, or null when none waits. */
    nextTimerAt: () => Math.min(...[...timers.values()].map((timer) => timer.at)),
    /** Moves the time on by `ms`, running the timers due by then. */
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...timers]) {
        if (timer.at <= now) {
          timers.delete(id);
          timer.run();
        }
      }
    },
  };
}

type Answer = (request: OutboxRequest) => Promise<TransportResponse>;
/** The server's answer to a cart change: the cart as it now is. */
const answered: Answer = () => Promise.resolve({ status: 200, body: EMPTY });

let db: ReturnType<typeof createPortalDb>;
let clock: ReturnType<typeof testClock>;
let loop: SyncLoop;
let answer: Answer;
let sent: string[];
let networkFailures: number;
let serverReached: number;
let device: SyncDevice;

beforeEach(() => {
  db = createPortalDb(`outbox-loop-${crypto.randomUUID()}`);
  clock = testClock();
  sent = [];
  networkFailures = 0;
  serverReached = 0;
  answer = answered;
  device = {
    db,
    transport: {
      send: (_entry: OutboxEntry, request: OutboxRequest) => {
        sent.push(`${request.method} ${request.path}`);
        return answer(request);
      },
    },
    session: {
      userId: () => 1,
      user: () => ({ id: 1, company: null }) as unknown as User,
      storeUser: () => undefined,
    },
    reportNetworkFailure: () => {
      networkFailures += 1;
    },
    reportServerReached: () => {
      serverReached += 1;
    },
    clock,
    lock: (work) => work(),
    check: () => Promise.resolve(undefined),
    prepareCheck: () => undefined,
    server: {
      cart: () => Promise.resolve(EMPTY),
      orders: () => Promise.resolve([]),
      refreshAccount: () => Promise.resolve(),
      isNetworkError: () => true,
    },
    registerBackgroundSync: () => undefined,
  };
  loop = createSyncLoop(device);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await db.delete();
});

async function queue(payload: OutboxPayload, backoff: Partial<OutboxEntry> = {}) {
  await db.outbox.add({
    userId: 1,
    kind: payload.kind,
    payload,
    idempotencyKey: crypto.randomUUID(),
    createdAt: new Date(clock.now()).toISOString(),
    attempts: 0,
    nextAttemptAt: 0,
    state: 'waiting',
    ...backoff,
  });
}

/** The loop has stopped (the device database answers in its own time). */
const settled = () =>
  vi.waitFor(() => expect(loop.getState().running).toBe(false), { timeout: 5_000 });

describe('the page’s replay loop', () => {
  it('sends entries backed off to the longest wait at once when there is news the server can be reached', async () => {
    await queue(
      { kind: 'cart.remove', productId: 5 },
      { attempts: 9, nextAttemptAt: clock.now() + 60_000 },
    );
    loop.requestSync();
    await settled();
    expect(sent).toEqual([]);
    // It waits for its time: a timer is set for the minute its backoff asked for.
    expect(clock.nextTimerAt()).toBe(clock.now() + 60_000);

    // Reconnected: sent without the clock moving at all.
    loop.requestSync({ now: true });
    await settled();
    expect(sent).toEqual(['DELETE cart/items/5']);
    expect(await db.outbox.count()).toBe(0);
    expect(loop.getState()).toMatchObject({ retryAt: null, storageFailed: false });
  });

  it('shows a failure of the device’s storage and tries again, without an unhandled rejection', async () => {
    await queue({ kind: 'cart.clear' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(db.outbox, 'where').mockImplementationOnce(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    loop.requestSync();
    await settled();
    expect(loop.getState()).toMatchObject({ storageFailed: true });
    const retryAt = loop.getState().retryAt;
    expect(retryAt).toBeGreaterThan(clock.now());
    expect(clock.nextTimerAt()).toBe(retryAt);
    expect(warn).toHaveBeenCalled();
    expect(sent).toEqual([]);

    // Tried again once its backoff is over: the storage works again and the change goes.
    clock.advance((retryAt ?? 0) - clock.now());
    await vi.waitFor(() => expect(sent).toEqual(['DELETE cart']), { timeout: 10_000 });
    await settled();
    expect(loop.getState()).toMatchObject({ storageFailed: false, retryAt: null });
    expect(await db.outbox.count()).toBe(0);
  });

  it('tells a failing server apart from one that cannot be reached', async () => {
    answer = () => Promise.resolve({ status: 500, body: { message: 'Internal Server Error' } });
    await queue({ kind: 'cart.clear' });
    loop.requestSync();
    await settled();
    expect(loop.getState()).toMatchObject({ serverFailed: true });
    expect(loop.getState().retryAt).not.toBeNull();
    // A server that answered was reached: connectivity has no reason to look again.
    expect(networkFailures).toBe(0);

    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    loop.requestSync({ now: true });
    await settled();
    expect(loop.getState()).toMatchObject({ serverFailed: false });
    expect(loop.getState().retryAt).not.toBeNull();
    expect(networkFailures).toBe(1);
  });

  it('says the server was reached when an entry went through, sent here or by the service worker', async () => {
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await queue({ kind: 'cart.clear' });
    loop.requestSync();
    await settled();
    expect(serverReached).toBe(0);

    answer = answered;
    loop.requestSync({ now: true });
    await settled();
    expect(sent).toEqual(['DELETE cart', 'DELETE cart']);
    expect(serverReached).toBe(1);
    // The service worker sent one for another user of the device: still news of the server.
    loop.afterDone({ userId: 2, kind: 'cart.clear' }, EMPTY);
    expect(serverReached).toBe(2);
  });

  it('tells who listens when a queued order is confirmed, and only for the signed-in user', () => {
    const confirmed: string[] = [];
    const stop = loop.onOrderConfirmed((order) => confirmed.push(order.orderNumber));
    loop.afterDone({ userId: 1, kind: 'checkout' }, { order: { orderNumber: 'ORD-1' } });
    loop.afterDone({ userId: 2, kind: 'checkout' }, { order: { orderNumber: 'ORD-2' } });
    stop();
    loop.afterDone({ userId: 1, kind: 'checkout' }, { order: { orderNumber: 'ORD-3' } });
    expect(confirmed).toEqual(['ORD-1']);
  });

  it('tells when a salon registered at the booth was the rep’s customer already, and whether details typed there were kept', async () => {
    const told: [string, boolean][] = [];
    loop.onAlreadyCustomer((customer, kept) => told.push([customer.name, kept]));
    // The replay has kept, beside one of them, what the rep typed that its record lacks.
    await db.repCustomers.put({
      userId: 1,
      id: 5,
      customer: { id: 5, name: 'Salon Iris' } as RepCustomer,
      syncedAt: '',
      boothDetails: { companyPhone: '+40 721 000 000' },
    });
    const registered = (id: number, name: string, status: number) =>
      loop.afterDone({ userId: 1, kind: 'rep.customer' }, { customer: { id, name } }, status);
    registered(3, 'Salon Nou', 201);
    registered(4, 'Salon Ștefania', 200);
    registered(5, 'Salon Iris', 200);
    await vi.waitFor(() => expect(told).toHaveLength(2));
    expect(told).toEqual(
      expect.arrayContaining([
        ['Salon Ștefania', false],
        ['Salon Iris', true],
      ]),
    );
  });

  it('keeps a cart an answer wrote while the server’s cart was being read', async () => {
    const approved = { status: 'APPROVED', isVerified: true };
    device.session.user = () => ({ id: 1, company: approved }) as unknown as User;
    const older: Cart = { ...EMPTY, itemCount: 1, items: [] };
    const answeredMeanwhile: Cart = { ...EMPTY, itemCount: 2, items: [] };
    // Another tab's change is answered while this tab waits for GET /api/cart, whose
    // response was made before that change reached the server.
    device.server.cart = async () => {
      await db.carts.put({ userId: 1, cart: answeredMeanwhile, syncedAt: 'answer' });
      return older;
    };
    loop.requestSync({ refresh: true });
    await settled();
    expect((await db.carts.get(1))?.cart.itemCount).toBe(2);

    // Nothing written meanwhile: the server's cart is kept.
    device.server.cart = () => Promise.resolve(older);
    loop.requestSync({ refresh: true });
    await settled();
    expect((await db.carts.get(1))?.cart.itemCount).toBe(1);
  });

  it('reads the server’s cart while the only changes left wait for the user', async () => {
    const approved = { status: 'APPROVED', isVerified: true };
    device.session.user = () => ({ id: 1, company: approved }) as unknown as User;
    const problem = { status: 422, message: 'Out of stock' };
    // A change of product 5 was refused, and a later change of it is held back behind it.
    await queue(
      { kind: 'cart.add', productId: 5, quantity: 2 },
      { state: 'attention', error: problem },
    );
    await queue({ kind: 'cart.update', productId: 5, quantity: 4 });
    const fromOtherDevice: Cart = { ...EMPTY, itemCount: 3 };
    device.server.cart = () => Promise.resolve(fromOtherDevice);
    loop.requestSync({ refresh: true });
    await settled();
    expect((await db.carts.get(1))?.cart.itemCount).toBe(3);

    // A change still to be sent: the server's cart is not the user's yet.
    await db.carts.clear();
    await queue(
      { kind: 'cart.add', productId: 8, quantity: 1 },
      { nextAttemptAt: clock.now() + 60_000 },
    );
    loop.requestSync({ refresh: true });
    await settled();
    expect(await db.carts.get(1)).toBeUndefined();
  });

  it('keeps an order confirmed while the server’s orders were being read', async () => {
    device.session.user = () => ({ id: 1, company: { status: 'PENDING' } }) as unknown as User;
    const order = (id: number, status: string) =>
      ({ id, orderNumber: `ORD-${id}`, status, createdAt: '2026-11-27T09:00:00Z' }) as Order;
    await db.orders.put(storedServerOrder(1, order(1, 'PENDING')));
    // The service worker sends a queued order while this tab waits for GET /api/orders,
    // whose response was made before that order reached the server.
    const confirmed = storedServerOrder(1, order(2, 'PENDING'), { localRef: 'local:7' });
    device.server.orders = async () => {
      await db.orders.put(confirmed);
      return [order(1, 'PENDING')];
    };
    loop.requestSync({ refresh: true });
    await settled();
    expect(await db.orders.get('order:2')).toEqual(confirmed);

    // Nothing written meanwhile: the server's list is kept, the order's local reference too.
    device.server.orders = () => Promise.resolve([order(1, 'SHIPPED'), order(2, 'CONFIRMED')]);
    loop.requestSync({ refresh: true });
    await settled();
    const stored = await db.orders.where('userId').equals(1).sortBy('ref');
    expect(stored.map((o) => [o.order.status, o.localRef])).toEqual([
      ['SHIPPED', undefined],
      ['CONFIRMED', 'local:7'],
    ]);
  });

  it('keeps nothing it read for a user who signed out meanwhile', async () => {
    const approved = { status: 'APPROVED', isVerified: true };
    device.session.user = () => ({ id: 1, company: approved }) as unknown as User;
    let signedIn: number | null = 1;
    device.session.userId = () => signedIn;
    // The user signs out (the device forgets their data) while the reads are on their way.
    device.server.orders = () => {
      signedIn = null;
      return Promise.resolve([
        { id: 1, orderNumber: 'ORD-1', status: 'PENDING', createdAt: '' } as Order,
      ]);
    };
    device.server.cart = () => Promise.resolve({ ...EMPTY, itemCount: 3 });
    loop.requestSync({ refresh: true });
    await settled();
    expect(await db.orders.count()).toBe(0);
    expect(await db.carts.count()).toBe(0);
  });
});
