/** The session as screens see it (signing in and out is in ./session-actions). */
import { useSyncExternalStore } from 'react';
import { canSeePrices, type User } from '../../contracts/accounts';
import { getSession, subscribeSession, type Session } from './session-store';

export type { Session } from './session-store';

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, () => null);
}

export const useUser = (): User | null => useSession()?.user ?? null;

/** Whose prices the catalogue mirror should hold for this user. */
export function viewerKey(user: User | null | undefined): string {
  return user && canSeePrices(user.company) && user.company
    ? `company:${user.company.id}`
    : 'visitor';
}
