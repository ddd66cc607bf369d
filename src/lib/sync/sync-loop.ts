/**
 * The sync loop: sends the outbox (./outbox-replay) when asked (on start, when the server
 * can be reached again, when the tab comes back, after sign-in, after each new entry) and
 * on a timer while backing off; one tab (or the service worker) at a time, under the
 * device's lock. It keeps the state the screens show (sending, backing off, why), reads
 * the server's cart and orders once nothing waits to change them, and tells who listens
 * when a queued order is confirmed. A failure of the device's storage during a replay is
 * shown and tried again, never left as an unhandled rejection.
 *
 * It is built on a device (its database, transport, session, clock…) given to
 * createSyncLoop: the page builds its one loop in ./device, a unit test builds its own
 * with the clock and the server it needs.
 */
import { canSeePrices, type User } from '../../contracts/accounts';
import type { RepCustomer } from '../../contracts/field-sales';
import type { Cart, Order } from '../../contracts/orders';
import type { CartBase, PortalDb } from '../db/db';
import { createListeners } from '../listeners';
import { makeWaitingDue, replayOutbox, storedServerOrder, type Transport } from './outbox-replay';
import {
  backoffMs,
  changesCart,
  type OutboxEntry,
  type OutboxPayload,
  type ServerProblem,
  stillToSend,
} from './outbox-rules';

/** Whether the device's kept cart is still the one read before (both may be missing). */
const sameStored = (now: CartBase | undefined, before: CartBase | undefined) =>
  now?.syncedAt === before?.syncedAt && JSON.stringify(now?.cart) === JSON.stringify(before?.cart);

const storedOrders = (db: PortalDb, userId: number) =>
  db.orders.where('userId').equals(userId).toArray();

/** What the loop runs on. */
export interface SyncDevice {
  db: PortalDb;
  /** How an entry reaches the server (./transport). */
  transport: Transport;
  session: {
    /** The signed-in user's id, or null. */
    userId: () => number | null;
    user: () => User | null;
    /** Keeps the user as the server last answered it (after a profile change went through). */
    storeUser: (user: User) => void;
  };
  /** A call failed to connect: connectivity should look again. */
  reportNetworkFailure: () => void;
  /**
   * An entry went through, sent by this page or by the service worker: the server can be
   * reached, whatever connectivity last found (it may have asked while the network was
   * still coming back), so it should look again if it says offline.
   */
  reportServerReached: () => void;
  clock: {
    now: () => number;
    setTimeout: (run: () => void, ms: number) => unknown;
    clearTimeout: (timer: unknown) => void;
  };
  /** Runs `work` while no other tab, nor the service worker, sends the outbox. */
  lock: <T>(work: () => Promise<T>) => Promise<T>;
  /** Why the server would refuse an entry as it stands, or undefined. */
  check: (payload: OutboxPayload) => Promise<ServerProblem | undefined>;
  /** Online with someone signed in: gets `check` ready before a change needs it offline. */
  prepareCheck: () => void;
  /** The server's side, read after a drain. */
  server: {
    cart: () => Promise<Cart>;
    orders: () => Promise<Order[]>;
    /** Reads the account's own data (its company, a rep's customers); never rejects. */
    refreshAccount: () => Promise<void>;
    /** Whether a failed read only meant that the server could not be reached. */
    isNetworkError: (error: unknown) => boolean;
  };
  /** Asks the browser to replay the outbox even after the app is closed (where it can). */
  registerBackgroundSync: () => void;
}

export interface SyncState {
  running: boolean;
  /** When the next attempt is due, while backing off. */
  retryAt: number | null;
  /** The server answered the last attempt with a failure (5xx, 429…): it was reached. */
  serverFailed: boolean;
  needsSignIn: boolean;
  /** The device's storage failed during the last replay; it is tried again. */
  storageFailed: boolean;
}

export interface SyncRequest {
  /**
   * Read the server's cart and orders afterwards (start, reconnect, sign-in): a change's
   * own response already carries the cart or order it changed, so a new entry does not.
   */
  refresh?: boolean;
  /** Make entries that are backing off due now: there is news the server can be reached. */
  now?: boolean;
}

export interface SyncLoop {
  /** Drains the outbox now (or right after the drain under way). */
  requestSync: (options?: SyncRequest) => void;
  getState: () => SyncState;
  /** Called each time the state changes; returns the call that stops it. */
  subscribe: (listener: () => void) => () => void;
  /** Called when the server confirmed a queued order, with the order as confirmed. */
  onOrderConfirmed: (listener: (order: Order) => void) => () => void;
  /** Called when the server took a queued cancellation, with the order as cancelled. */
  onOrderCancelled: (listener: (order: Order) => void) => () => void;
  /**
   * Called when a salon registered at the booth turned out to be the rep's customer
   * already (the same tax number): with that customer, under which the device now keeps
   * what the rep took for the salon, and whether details typed at the booth that its
   * record does not hold are kept beside it.
   */
  onAlreadyCustomer: (
    listener: (customer: RepCustomer, boothDetailsKept: boolean) => void,
  ) => () => void;
  /**
   * The page's work after an entry went through, whoever sent it (this tab or the service
   * worker), with the server's response: its body and status (which a service worker of an
   * earlier version does not tell).
   */
  afterDone: (entry: Pick<OutboxEntry, 'userId' | 'kind'>, body: unknown, status?: number) => void;
}

export function createSyncLoop(device: SyncDevice): SyncLoop {
  const { db, clock, session } = device;
  const changes = createListeners();
  const confirmed = createListeners<[Order]>();
  const cancelled = createListeners<[Order]>();
  const alreadyCustomer = createListeners<[RepCustomer, boolean]>();
  let state: SyncState = {
    running: false,
    retryAt: null,
    serverFailed: false,
    needsSignIn: false,
    storageFailed: false,
  };
  const setState = (next: Partial<SyncState>) => {
    state = { ...state, ...next };
    changes.emit();
  };

  let again = false;
  let retryTimer: unknown;
  /** Storage failures in a row: the retries after them back off like the server's. */
  let storageFailures = 0;
  /** Set when the server's cart and orders should be read again once the outbox is drained. */
  let refreshWanted = false;
  /** Set when waiting entries should stop backing off before the next pass. */
  let dueWanted = false;

  const retryAt = (at: number) => {
    retryTimer = clock.setTimeout(() => requestSync(), Math.max(0, at - clock.now()));
  };

  function afterDone(
    entry: Pick<OutboxEntry, 'userId' | 'kind'>,
    body: unknown,
    status?: number,
  ): void {
    device.reportServerReached();
    if (entry.userId !== session.userId()) return;
    if (entry.kind === 'profile.update') session.storeUser((body as { user: User }).user);
    if (entry.kind === 'checkout' || entry.kind === 'rep.order')
      confirmed.emit((body as { order: Order }).order);
    if (entry.kind === 'order.cancel') cancelled.emit((body as { order: Order }).order);
    // 200, not 201: the server found the salon among the rep's customers. Whether details
    // typed at the booth were kept beside its record is read from the device, which has
    // kept them by now, whoever sent the registration.
    if (entry.kind === 'rep.customer' && status === 200) {
      const { customer } = body as { customer: RepCustomer };
      void db.repCustomers.get([entry.userId, customer.id]).then(
        (stored) => alreadyCustomer.emit(customer, stored?.boothDetails !== undefined),
        () => alreadyCustomer.emit(customer, false),
      );
    }
  }

  function requestSync(options: SyncRequest = {}): void {
    if (options.refresh) refreshWanted = true;
    if (options.now) dueWanted = true;
    if (state.running) {
      again = true;
      return;
    }
    clock.clearTimeout(retryTimer);
    setState({ running: true });
    void drain();
    device.registerBackgroundSync();
  }

  async function drain(): Promise<void> {
    let due = false;
    try {
      do {
        again = false;
        due ||= dueWanted;
        dueWanted = false;
        const result = await device.lock(async () => {
          const userId = session.userId();
          if (due && userId !== null) await makeWaitingDue(db, userId);
          due = false;
          return replayOutbox({
            db,
            transport: device.transport,
            currentUserId: session.userId,
            now: clock.now,
            onDone: afterDone,
            check: device.check,
          });
        });
        storageFailures = 0;
        const serverFailed = result.retryAt !== null && result.retryStatus !== undefined;
        setState({
          retryAt: result.retryAt,
          serverFailed,
          needsSignIn: result.needsSignIn,
          storageFailed: false,
        });
        if (result.retryAt !== null) {
          // A server that answered was reached: only a lost connection is worth a check.
          if (!serverFailed) device.reportNetworkFailure();
          retryAt(result.retryAt);
        } else if (!result.needsSignIn && refreshWanted) {
          refreshWanted = false;
          await refreshServerState();
        }
      } while (again);
    } catch (error) {
      // IndexedDB refused (storage full, the database closed by an upgrade in another
      // tab…): nothing was lost, the entries are where they were. Say so and try again.
      console.warn('The outbox could not be replayed', error);
      if (due) dueWanted = true;
      storageFailures += 1;
      const at = clock.now() + backoffMs(storageFailures);
      setState({ storageFailed: true, retryAt: at });
      retryAt(at);
    } finally {
      setState({ running: false });
    }
  }

  /**
   * Reads the server's cart and orders when nothing is waiting to change them (after a
   * drain), and the account's data: the company whose address the checkout is prefilled
   * with, a rep's customers. That is not waited for: the next drain never hangs on it.
   */
  async function refreshServerState(): Promise<void> {
    void device.server.refreshAccount();
    const userId = session.userId();
    const user = session.user();
    if (userId === null || !user?.company) return;
    device.prepareCheck();
    try {
      // Not while a change of the cart is still to be sent: the server's cart is not the
      // user's yet. A refused one, and those it holds back, wait for the user instead.
      const entries = await db.outbox.where('userId').equals(userId).sortBy('id');
      // A company that may not order has no cart: the server answers 403 for it.
      const readCart = !stillToSend(entries, changesCart) && canSeePrices(user.company);
      const before = await db.carts.get(userId);
      const ordersBefore = JSON.stringify(await storedOrders(db, userId));
      const [cart, orders] = await Promise.all([
        readCart ? device.server.cart() : Promise.resolve(null),
        device.server.orders(),
      ]);
      await db.transaction('rw', db.carts, db.orders, async () => {
        // Signed out meanwhile (the device has forgotten the user's data), or another user
        // signed in: what was read is not to be kept.
        if (session.userId() !== userId) return;
        // An answer written meanwhile (another tab's change, sent while this read was on
        // its way) is newer than the cart the server gave: it stays.
        const unchanged = sameStored(await db.carts.get(userId), before);
        if (cart && unchanged) {
          await db.carts.put({ userId, cart, syncedAt: new Date(clock.now()).toISOString() });
        }
        // The same for the orders: one confirmed or cancelled meanwhile (by another tab, by
        // the service worker) is newer than the list read; the next refresh reads it again.
        const current = await storedOrders(db, userId);
        if (JSON.stringify(current) !== ordersBefore) return;
        const kept = new Map(current.map((o) => [o.ref, o]));
        await db.orders
          .where('userId')
          .equals(userId)
          .filter((o) => o.state === 'synced')
          .delete();
        await db.orders.bulkPut(
          orders.map((order) => {
            const previous = kept.get(`order:${order.id}`);
            return storedServerOrder(userId, order, {
              localRef: previous?.localRef,
              changes: previous?.changes,
            });
          }),
        );
      });
    } catch (error) {
      // Best effort: offline, or refused, the device keeps what it has.
      if (!device.server.isNetworkError(error)) {
        console.warn('Could not refresh the cart and orders', error);
      }
    }
  }

  return {
    requestSync,
    getState: () => state,
    subscribe: changes.add,
    onOrderConfirmed: confirmed.add,
    onOrderCancelled: cancelled.add,
    onAlreadyCustomer: alreadyCustomer.add,
    afterDone,
  };
}
