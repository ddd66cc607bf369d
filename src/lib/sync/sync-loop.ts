/**
 * The sync loop: sends the outbox (./outbox-replay) on start, when the server can be
 * reached again, when the tab comes back, after sign-in, after each new entry, and on a
 * timer while backing off; one tab (or the service worker) at a time, under a Web Lock.
 * It keeps the state the screens show (sending, backing off, why), reads the server's
 * cart and orders once nothing waits to change them, and tells who listens when a queued
 * order is confirmed. A failure of the device's storage during a replay is shown and
 * tried again, never left as an unhandled rejection.
 */
import { useSyncExternalStore } from 'react';
import { canSeePrices, type User } from '../../contracts/accounts';
import type { Cart, Order } from '../../contracts/orders';
import { OUTBOX_LOCK, SYNC_TAG } from '../../contracts/storage-names';
import { api, isNetworkError, renewSession } from '../api/client';
import {
  getSession,
  signedInUserId,
  subscribeSession,
  updateStoredUser,
} from '../auth/session-store';
import { db } from '../db/db';
import { refreshCompany } from './company';
import {
  onReconnect,
  reportNetworkFailure,
  startConnectivity,
  useConnectivity,
} from './connectivity';
import {
  makeWaitingDue,
  OUTBOX_DONE_MESSAGE,
  replayOutbox,
  storedServerOrder,
  type OutboxDoneMessage,
} from './outbox-replay';
import { backoffMs, type OutboxEntry, type OutboxPayload } from './outbox-rules';
import { createTransport } from './transport';

type ConfirmedListener = (order: Order) => void;
const confirmedListeners = new Set<ConfirmedListener>();

/** Called when the server confirmed a queued order, with the order as confirmed. */
export function onOrderConfirmed(listener: ConfirmedListener): () => void {
  confirmedListeners.add(listener);
  return () => confirmedListeners.delete(listener);
}

let check: Promise<typeof import('./outbox-check')> | undefined;

/** The check of entries before they are sent: loaded for a signed-in user, not a visitor. */
function loadCheck(): Promise<typeof import('./outbox-check')> {
  check ??= import('./outbox-check').catch((error: unknown) => {
    check = undefined; // offline before it ever loaded: tried again next time
    throw error;
  });
  return check;
}

/**
 * Why the server would refuse an entry. Not loaded (offline before the first load, with no
 * service worker to keep it), the entry goes unchecked: the server checks the same schema,
 * and its 400 puts the entry in "needs attention" too.
 */
const checkEntry = async (payload: OutboxPayload) => {
  try {
    return (await loadCheck()).problemOfPayload(payload);
  } catch {
    return undefined;
  }
};

/** The same transport as the service worker's, with the page's session and its renewal. */
const pageTransport = createTransport({
  accessToken: () => getSession()?.accessToken ?? null,
  renew: async (refused) => (await renewSession(refused))?.accessToken ?? null,
});

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

type SyncListener = () => void;
const syncListeners = new Set<SyncListener>();
let syncState: SyncState = {
  running: false,
  retryAt: null,
  serverFailed: false,
  needsSignIn: false,
  storageFailed: false,
};
const setSyncState = (next: Partial<SyncState>) => {
  syncState = { ...syncState, ...next };
  for (const listener of syncListeners) listener();
};

export const getSyncState = (): SyncState => syncState;

export function useSyncState(): SyncState {
  return useSyncExternalStore((listener) => {
    syncListeners.add(listener);
    return () => syncListeners.delete(listener);
  }, getSyncState);
}

/**
 * Why waiting changes have not reached the server, for the screens to say: the device is
 * offline (as the connectivity module decides, not navigator.onLine), the server failed,
 * the server could not be reached by the last attempt, or the device's storage failed.
 */
export type SendingProblem = 'offline' | 'serverFailed' | 'unreachable' | 'storageFailed';

export function useSendingProblem(): SendingProblem | null {
  const sync = useSyncState();
  const connectivity = useConnectivity();
  if (sync.storageFailed) return 'storageFailed';
  if (connectivity === 'offline') return 'offline';
  if (sync.retryAt === null) return null;
  return sync.serverFailed ? 'serverFailed' : 'unreachable';
}

/** The page's work after an entry went through, whoever sent it (this tab or the service worker). */
function afterDone(entry: Pick<OutboxEntry, 'userId' | 'kind'>, body: unknown): void {
  if (entry.userId !== signedInUserId()) return;
  if (entry.kind === 'profile.update') updateStoredUser((body as { user: User }).user);
  if (entry.kind === 'checkout') {
    for (const listener of confirmedListeners) listener((body as { order: Order }).order);
  }
}

let again = false;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** Storage failures in a row: the retries after them back off like the server's. */
let storageFailures = 0;

async function withOutboxLock<T>(work: () => Promise<T>): Promise<T> {
  return typeof navigator !== 'undefined' && 'locks' in navigator
    ? navigator.locks.request(OUTBOX_LOCK, work)
    : work();
}

/** Set when the server's cart and orders should be read again once the outbox is drained. */
let refreshWanted = false;
/** Set when waiting entries should stop backing off before the next pass. */
let dueWanted = false;

export interface SyncRequest {
  /**
   * Read the server's cart and orders afterwards (start, reconnect, sign-in): a change's
   * own response already carries the cart or order it changed, so a new entry does not.
   */
  refresh?: boolean;
  /** Make entries that are backing off due now: there is news the server can be reached. */
  now?: boolean;
}

/** Drains the outbox now (or right after the drain under way). */
export function requestSync(options: SyncRequest = {}): void {
  if (options.refresh) refreshWanted = true;
  if (options.now) dueWanted = true;
  if (syncState.running) {
    again = true;
    return;
  }
  clearTimeout(retryTimer);
  setSyncState({ running: true });
  void (async () => {
    let due = false;
    try {
      do {
        again = false;
        due ||= dueWanted;
        dueWanted = false;
        const result = await withOutboxLock(async () => {
          const userId = signedInUserId();
          if (due && userId !== null) await makeWaitingDue(db, userId);
          due = false;
          return replayOutbox({
            db,
            transport: pageTransport,
            currentUserId: signedInUserId,
            onDone: afterDone,
            check: checkEntry,
          });
        });
        storageFailures = 0;
        const serverFailed = result.retryAt !== null && result.retryStatus !== undefined;
        setSyncState({
          retryAt: result.retryAt,
          serverFailed,
          needsSignIn: result.needsSignIn,
          storageFailed: false,
        });
        if (result.retryAt !== null) {
          // A server that answered was reached: only a lost connection is worth a check.
          if (!serverFailed) reportNetworkFailure();
          retryTimer = setTimeout(() => requestSync(), Math.max(0, result.retryAt - Date.now()));
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
      const retryAt = Date.now() + backoffMs(storageFailures);
      setSyncState({ storageFailed: true, retryAt });
      retryTimer = setTimeout(() => requestSync(), retryAt - Date.now());
    } finally {
      setSyncState({ running: false });
    }
  })();
  registerBackgroundSync();
}

/** Asks the browser to replay the outbox even after the app is closed (where it can). */
function registerBackgroundSync(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready
    .then((registration) =>
      (
        registration as ServiceWorkerRegistration & {
          sync?: { register(tag: string): Promise<void> };
        }
      ).sync?.register(SYNC_TAG),
    )
    .catch(() => undefined);
}

/**
 * Reads the server's cart and orders when nothing is waiting to change them (after a
 * drain), and the company whose address the checkout is prefilled with. The company is
 * not waited for: the outbox's next drain never hangs on it.
 */
async function refreshServerState(): Promise<void> {
  void refreshCompany();
  await refreshCartAndOrders();
}

async function refreshCartAndOrders(): Promise<void> {
  const userId = signedInUserId();
  const user = getSession()?.user;
  if (userId === null || !user?.company) return;
  // Online with someone signed in: ready before a change of theirs needs it offline.
  void loadCheck().catch(() => undefined);
  try {
    const waiting = await db.outbox.where('userId').equals(userId).count();
    // A company that may not order has no cart: the server answers 403 for it.
    const readCart = waiting === 0 && canSeePrices(user.company);
    const [cart, orders] = await Promise.all([
      readCart ? api.get('cart').json<Cart>() : Promise.resolve(null),
      api.get('orders').json<{ orders: Order[] }>(),
    ]);
    await db.transaction('rw', db.carts, db.orders, async () => {
      if (cart) await db.carts.put({ userId, cart, syncedAt: new Date().toISOString() });
      const kept = new Map(
        (await db.orders.where('userId').equals(userId).toArray()).map((o) => [o.ref, o]),
      );
      await db.orders
        .where('userId')
        .equals(userId)
        .filter((o) => o.state === 'synced')
        .delete();
      await db.orders.bulkPut(
        orders.orders.map((order) => {
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
    if (!isNetworkError(error)) console.warn('Could not refresh the cart and orders', error);
  }
}

let started = false;

/**
 * Starts replaying: now, whenever the server can be reached again, the tab comes back, or
 * someone signs in. Each of these is news that sending may work, so nothing waits for
 * its backoff.
 */
export function startSync(): void {
  if (started) return;
  started = true;
  startConnectivity();
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as Partial<OutboxDoneMessage> | null;
    if (message?.type === OUTBOX_DONE_MESSAGE && message.userId !== undefined && message.kind)
      afterDone({ userId: message.userId, kind: message.kind }, message.body);
  });
  const sendNow = () => requestSync({ refresh: true, now: true });
  onReconnect(sendNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') sendNow();
  });
  let lastUser = signedInUserId();
  subscribeSession(() => {
    const user = signedInUserId();
    if (user !== lastUser) {
      lastUser = user;
      if (user !== null) sendNow();
    }
  });
  sendNow();
}
