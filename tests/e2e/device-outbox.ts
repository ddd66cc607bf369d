/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { DB_NAME, OUTBOX_LOCK } from '../../src/contracts/storage-names';
import { BACKOFF_CAP_MS } from '../../src/lib/sync/outbox-rules';

/**
 * Changes the device's database directly, as only a test or a benchmark may: the outbox's
 * waiting entries backed off to the longest wait (as after minutes without a connection),
 * or the session's access token replaced. It holds the outbox's lock, as a replay does: a
 * retry under way would otherwise write its own backoff over this one when it fails.
 */
export async function editDeviceDb(
  page: Page,
  change: { backOffToTheCap: true } | { accessToken: string },
) {
  await page.evaluate(
    ({ name, lock, change, cap }) =>
      navigator.locks.request(lock, async () => {
        const store = 'accessToken' in change ? 'session' : 'outbox';
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error!);
        });
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction(store, 'readwrite');
          const cursor = tx.objectStore(store).openCursor();
          cursor.onsuccess = () => {
            const row = cursor.result;
            if (!row) return;
            const value = row.value as Record<string, unknown>;
            if ('accessToken' in change) row.update({ ...value, accessToken: change.accessToken });
            else if (value.state !== 'attention')
              row.update({ ...value, attempts: 9, nextAttemptAt: Date.now() + cap });
            row.continue();
          };
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error ?? new Error('the transaction failed'));
        });
        db.close();
      }),
    { name: DB_NAME, lock: OUTBOX_LOCK, change, cap: BACKOFF_CAP_MS },
  );
}

/** How many times each entry of the device's outbox has been tried, in the outbox's order. */
export const outboxAttempts = (page: Page) =>
  page.evaluate(
    async (name) =>
      new Promise<number[]>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error!);
        open.onsuccess = () => {
          const all = open.result.transaction('outbox').objectStore('outbox').getAll();
          all.onsuccess = () => {
            resolve((all.result as { attempts: number }[]).map((e) => e.attempts));
            open.result.close();
          };
        };
      }),
    DB_NAME,
  );
