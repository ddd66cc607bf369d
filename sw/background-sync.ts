/**
 * Background Sync: when the browser regains a connection (even with the app closed), it
 * wakes the service worker, which replays the outbox with the session the page left in
 * IndexedDB. A refused token stops the replay: only the page renews sessions, so that a
 * refresh token is never spent twice.
 */
import { OUTBOX_LOCK, SYNC_TAG } from '../src/contracts/storage-names';
import { createPortalDb } from '../src/lib/db/db';
import { replayOutbox, type Transport } from '../src/lib/sync/outbox-engine';

declare const self: ServiceWorkerGlobalScope;

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

const db = createPortalDb();

const transport: Transport = {
  async send(entry, request) {
    const session = await db.session.get('current');
    const response = await fetch(`/api/${request.path}`, {
      method: request.method,
      headers: {
        'content-type': 'application/json',
        'idempotency-key': entry.idempotencyKey,
        ...(session ? { authorization: `Bearer ${session.accessToken}` } : {}),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) {
      throw new TypeError('The answer did not come from the server');
    }
    return { status: response.status, body: await response.json() };
  },
};

async function replay(): Promise<void> {
  const result = await self.navigator.locks.request(OUTBOX_LOCK, () =>
    replayOutbox({
      db,
      transport,
      currentUserId: async () => (await db.session.get('current'))?.userId ?? null,
    }),
  );
  // Rejecting asks the browser to try the sync again later.
  if (result.retryAt !== null) throw new Error('The outbox is waiting for the server');
}

export function registerBackgroundSync(): void {
  self.addEventListener('sync', (event) => {
    const sync = event as SyncEvent;
    if (sync.tag === SYNC_TAG) sync.waitUntil(replay());
  });
}
