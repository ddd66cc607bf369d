/**
 * What the screens read from the device: the cart with its waiting changes, the orders,
 * the outbox and its summary, live. Until the sync engine has loaded they answer
 * "nothing yet" (undefined, or an empty value), never a wrong one.
 */
import { useSyncExternalStore } from 'react';
import { EMPTY_CART, type Cart } from '../../contracts/orders';
import { getSession, subscribeSession } from '../auth/session-store';
import type { StoredOrder } from '../db/db';
import type { OutboxView } from './outbox';
import { useDeviceQuery } from './engine-loader';

export type { OutboxView } from './outbox';

const currentUserId = (): number | null => getSession()?.user.id ?? null;

export const useSignedInUserId = (): number | null =>
  useSyncExternalStore(subscribeSession, currentUserId, () => null);

export function useCart(): { cart: Cart; waiting: number; loaded: boolean } {
  const userId = useSignedInUserId();
  const view = useDeviceQuery((engine) => engine.readCart(userId), [userId]);
  return {
    cart: view?.cart ?? EMPTY_CART,
    waiting: view?.waiting ?? 0,
    loaded: view !== undefined,
  };
}

export function useOrders(): StoredOrder[] | undefined {
  const userId = useSignedInUserId();
  return useDeviceQuery((engine) => engine.readOrders(userId), [userId]);
}

const NO_ENTRIES: OutboxView[] = [];

export function useOutboxEntries(): OutboxView[] {
  const userId = useSignedInUserId();
  return useDeviceQuery((engine) => engine.readOutbox(userId), [userId]) ?? NO_ENTRIES;
}

const NOTHING_WAITING = { waiting: 0, sending: false };

export function useOutboxSummary(): { waiting: number; sending: boolean } {
  const userId = useSignedInUserId();
  return useDeviceQuery((engine) => engine.readOutboxSummary(userId), [userId]) ?? NOTHING_WAITING;
}
