/**
 * The outbox's lock, shared by every tab and the service worker (Web Locks): one replay
 * at a time, and what must not run while one is on its way waits for it to end.
 */
import { OUTBOX_LOCK } from '../../contracts/storage-names';

export async function withOutboxLock<T>(work: () => Promise<T>): Promise<T> {
  return typeof navigator !== 'undefined' && 'locks' in navigator
    ? navigator.locks.request(OUTBOX_LOCK, work)
    : work();
}
