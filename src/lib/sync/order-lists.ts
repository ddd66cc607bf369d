/**
 * A salon user's order lists kept on the device (docs/product.md#order-lists): read from
 * GET /api/lists whenever the account's data is refreshed (sign-in, each sync, the lists
 * page), kept in place of those kept before, and removed at sign-out (./device-data). The
 * changes the user makes travel through the outbox (./list-changes) and each answer
 * replaces its list here (./outbox-replay).
 */
import { canSeePrices, type User } from '../../contracts/accounts';
import type { OrderList } from '../../contracts/order-lists';
import { fetchOrderLists } from '../api/order-lists';
import { db, type PortalDb } from '../db/db';
import { isListChange, stillToSend } from './outbox-rules';
import { userRead } from './user-read';

/** Who keeps lists: a salon's user whose company may order (the server answers 403 to others). */
export const keepsLists = (user: User | null | undefined): boolean =>
  user?.role === 'USER' && canSeePrices(user.company);

const listRead = userRead({
  has: keepsLists,
  fetch: fetchOrderLists,
  keep: (userId, kept: OrderList[], askedAt) => storeOrderLists(db, userId, kept, askedAt),
  what: 'the order lists',
});

/**
 * Reads the signed-in user's lists and keeps them. Fails as the call failed; resolves at
 * once for a user who keeps none.
 */
export const readListsFromServer = listRead.read;

/** The same, best effort: offline, or refused, the device keeps what it has. */
export const refreshOrderLists = listRead.refresh;

/**
 * Keeps `lists`, the user's lists as the server had them when asked at `askedAt`, in place
 * of those kept before, unless the answer may be older than what the device knows:
 *
 * 1. While a change of a list is still to be sent, nothing is replaced: the answer may not
 *    hold it yet, and its own answer will bring the list as the server then has it. One
 *    refused, or held back by a refused one, waits for the user, not for the server.
 * 2. A list stored since `askedAt` (the answer to a change sent meanwhile) stays as stored,
 *    a list whose deletion was answered meanwhile stays deleted (its record is kept, marked,
 *    until then).
 * 3. Every other list is the server's: new ones are kept, those it no longer has leave
 *    (marked deletions answered before `askedAt` with them).
 */
export async function storeOrderLists(
  from: PortalDb,
  userId: number,
  lists: readonly OrderList[],
  askedAt: string,
): Promise<void> {
  const syncedAt = new Date().toISOString();
  await from.transaction('rw', from.outbox, from.orderLists, async () => {
    const entries = await from.outbox.where('userId').equals(userId).sortBy('id');
    if (stillToSend(entries, isListChange)) return;
    const kept = await from.orderLists.where('userId').equals(userId).toArray();
    const newer = new Set(kept.filter((k) => k.syncedAt >= askedAt).map((k) => k.id));
    await from.orderLists.bulkDelete(
      kept.filter((k) => !newer.has(k.id)).map((k) => [userId, k.id] as [number, string]),
    );
    await from.orderLists.bulkPut(
      lists
        .filter((list) => !newer.has(list.id))
        .map((list) => ({ userId, id: list.id, list, syncedAt })),
    );
  });
}
