/**
 * The page's device: its database, the transport the outbox travels by, the session, the
 * connectivity check, the clock and the lock shared with other tabs and the service worker,
 * put together once, here, with the sync loop that runs on them (./sync-loop). Screens and
 * the outbox reach the loop through this module; unit tests build a loop of their own.
 */
import type { Cart, Order } from '../../contracts/orders';
import { SYNC_TAG } from '../../contracts/storage-names';
import { api, renewSession } from '../api/client';
import { isNetworkError } from '../api/errors';
import { getSession, signedInUserId, subscribeSession } from '../auth/session-store';
import { updateStoredUser } from '../auth/session-tokens';
import { watchLeftSession } from '../auth/left-session';
import { db } from '../db/db';
import { refreshCompany } from './company';
import { refreshMaker } from './maker';
import { refreshOrderLists } from './order-lists';
import { refreshCustomers } from './rep-customers';
import {
  getConnectivity,
  onReconnect,
  recheckConnectivity,
  startConnectivity,
} from './connectivity';
import { withOutboxLock } from './outbox-lock';
import { OUTBOX_DONE_MESSAGE, type OutboxDoneMessage } from './outbox-replay';
import type { OutboxPayload } from './outbox-rules';
import { createSyncLoop, type SyncRequest } from './sync-loop';
import { createTransport } from './transport';

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
async function checkEntry(payload: OutboxPayload) {
  try {
    return (await loadCheck()).problemOfPayload(payload);
  } catch {
    return undefined;
  }
}

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

/** The topic of the messages about an order being placed: the last one replaces the one before. */
export const ORDER_TOPIC = 'order';
/** The topic of the messages about an order being cancelled. */
export const CANCEL_TOPIC = 'cancel';

export const syncLoop = createSyncLoop({
  db,
  // The same transport as the service worker's, with the page's session and its renewal.
  transport: createTransport({
    accessToken: (userId) => {
      const session = getSession();
      return session?.user.id === userId ? session.accessToken : null;
    },
    // The session renewed meanwhile may be another user's, who signed in since.
    renew: async (refused, userId) => {
      const session = await renewSession(refused);
      return session?.user.id === userId ? session.accessToken : null;
    },
  }),
  session: {
    userId: signedInUserId,
    user: () => getSession()?.user ?? null,
    storeUser: (user) => void updateStoredUser(user),
  },
  reportNetworkFailure: recheckConnectivity,
  reportServerReached: () => {
    if (getConnectivity() === 'offline') recheckConnectivity();
  },
  clock: {
    now: () => Date.now(),
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout> | undefined),
  },
  lock: withOutboxLock,
  check: checkEntry,
  prepareCheck: () => void loadCheck().catch(() => undefined),
  server: {
    cart: () => api.get('cart').json<Cart>(),
    orders: async () => (await api.get('orders').json<{ orders: Order[] }>()).orders,
    refreshAccount: async () => {
      await Promise.all([
        refreshCompany(),
        refreshCustomers(),
        refreshMaker(),
        refreshOrderLists(),
      ]);
    },
    isNetworkError,
  },
  registerBackgroundSync,
});

/** Drains the outbox now (or right after the drain under way). */
export const requestSync = (options?: SyncRequest): void => syncLoop.requestSync(options);

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
  watchLeftSession().catch((error: unknown) => {
    console.warn('A session left on this device could not be forgotten', error);
  });
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as Partial<OutboxDoneMessage> | null;
    if (message?.type === OUTBOX_DONE_MESSAGE && message.userId !== undefined && message.kind)
      syncLoop.afterDone(
        { userId: message.userId, kind: message.kind },
        message.body,
        message.status,
      );
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
