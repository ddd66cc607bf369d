/**
 * Background Sync: when the browser regains a connection (even with the app closed), it
 * wakes the service worker, which replays the outbox with the session the page left in
 * IndexedDB, through the same transport as the page (timeout, Idempotency-Key, a body's
 * content type only with a body). A refused access token is renewed once, under the
 * page's refresh lock, and the renewed tokens are left in IndexedDB for the page.
 */
import { SYNC_TAG } from '../src/contracts/storage-names';
import { createPortalDb } from '../src/lib/db/db';
import {
  makeWaitingDue,
  OUTBOX_DONE_MESSAGE,
  replayOutbox,
  type OutboxDoneMessage,
} from '../src/lib/sync/outbox-replay';
import { withOutboxLock } from '../src/lib/sync/outbox-lock';
import { storedSessionCredentials } from '../src/lib/sync/stored-session';
import { createTransport } from '../src/lib/sync/transport';

declare const self: ServiceWorkerGlobalScope;

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

const db = createPortalDb();
const transport = createTransport(storedSessionCredentials(db));
const signedInUser = async () => (await db.session.get('current'))?.userId ?? null;

/** Open pages say what the user would have been told had they sent the entry themselves. */
async function tellPages(
  entry: { userId: number; kind: OutboxDoneMessage['kind'] },
  body: unknown,
  status: number,
) {
  const message: OutboxDoneMessage = {
    type: OUTBOX_DONE_MESSAGE,
    userId: entry.userId,
    kind: entry.kind,
    body,
    status,
  };
  for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage(message);
}

async function replay(): Promise<void> {
  const result = await withOutboxLock(async () => {
    // The browser wakes the worker because the connection is back: what was backing
    // off is worth trying now, not after its wait.
    const userId = await signedInUser();
    if (userId !== null) await makeWaitingDue(db, userId);
    return replayOutbox({ db, transport, currentUserId: signedInUser, onDone: tellPages });
  });
  // Rejecting asks the browser to try the sync again later.
  if (result.retryAt !== null) throw new Error('The outbox is waiting for the server');
}

export function registerBackgroundSync(): void {
  self.addEventListener('sync', (event) => {
    const sync = event as SyncEvent;
    if (sync.tag === SYNC_TAG) sync.waitUntil(replay());
  });
}
