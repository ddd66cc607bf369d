/** The session as screens see it (signing in and out is in ./session-actions). */
import { useSyncExternalStore } from 'react';
import { canSeePrices, type User } from '../../contracts/accounts';
import { getSession, subscribeSession, type Session } from './session-store';

export type { Session } from './session-store';

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, () => null);
}

export const useUser = (): User | null => useSession()?.user ?? null;

/**
 * Whose prices the catalogue mirror should hold for this user: a sales rep's own (it sees
 * the prices it quotes, docs/product.md#field-sales), an approved company's, or none.
 */
export const viewerKey = (user: User | null | undefined): string =>
  user?.role === 'SALES_REP'
    ? `rep:${user.id}`
    : canSeePrices(user?.company)
      ? `company:${user?.company?.id}`
      : 'visitor';
