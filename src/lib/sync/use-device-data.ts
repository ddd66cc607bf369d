/**
 * What the screens read from the device: the cart with its waiting changes, the orders,
 * the outbox and its summary, the user's company, live. Until the sync engine has loaded
 * they answer "nothing yet" (undefined, or an empty value), never a wrong one.
 */
import { useSyncExternalStore } from 'react';
import { EMPTY_CART, type Cart } from '../../contracts/orders';
import { signedInUserId, subscribeSession } from '../auth/session-store';
import type { StoredCompany, StoredOrder } from '../db/db';
import type { OutboxView } from './device-data';
import { useDeviceQuery } from './engine-loader';

export type { OutboxView } from './device-data';

export const useSignedInUserId = (): number | null =>
  useSyncExternalStore(subscribeSession, signedInUserId, () => null);

export function useCart(): { cart: Cart; waiting: number; refused: number; loaded: boolean } {
  const userId = useSignedInUserId();
  const view = useDeviceQuery((engine) => engine.readCart(userId), [userId]);
  return {
    cart: view?.cart ?? EMPTY_CART,
    waiting: view?.waiting ?? 0,
    refused: view?.refused ?? 0,
    loaded: view !== undefined,
  };
}

export function useOrders(): StoredOrder[] | undefined {
  const userId = useSignedInUserId();
  return useDeviceQuery((engine) => engine.readOrders(userId), [userId]);
}

const NO_ENTRIES: OutboxView[] = [];

/** The user's outbox; undefined until it has been read (nothing can be said about it yet). */
export function useOutbox(): OutboxView[] | undefined {
  const userId = useSignedInUserId();
  return useDeviceQuery((engine) => engine.readOutbox(userId), [userId]);
}

/** The user's outbox, empty until it has been read: for screens that only list entries. */
export function useOutboxEntries(): OutboxView[] {
  return useOutbox() ?? NO_ENTRIES;
}

const NOTHING_WAITING = { waiting: 0, sending: false };

export function useOutboxSummary(): { waiting: number; sending: boolean } {
  const userId = useSignedInUserId();
  return useDeviceQuery((engine) => engine.readOutboxSummary(userId), [userId]) ?? NOTHING_WAITING;
}

/**
 * The signed-in user's company as kept on the device: undefined until it has been read,
 * null when the device has none yet (never online since signing in).
 */
export function useStoredCompany(): StoredCompany | null | undefined {
  const userId = useSignedInUserId();
  return useDeviceQuery((engine) => engine.readCompany(userId), [userId]);
}
