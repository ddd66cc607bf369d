/**
 * Signing in and out, and the session as screens see it. Signing out forgets every
 * price kept on the device, so that the next person at a shared tablet sees none.
 */
import { useSyncExternalStore } from 'react';
import { canSeePrices, type User } from '../../contracts/accounts';
import { fetchMe, login, logoutSession } from '../api/accounts';
import { db } from '../db/db';
import { forgetPricedCatalogue } from '../sync/catalogue-mirror';
import { forgetUserData } from '../sync/outbox';
import {
  clearSession,
  getSession,
  saveSession,
  subscribeSession,
  updateStoredUser,
  type Session,
} from './session-store';

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

export async function signIn(email: string, password: string, remember: boolean): Promise<User> {
  const session = await login(email.trim(), password, remember);
  await saveSession(session, remember);
  return session.user;
}

export async function signOut(): Promise<void> {
  const session = getSession();
  if (session) {
    // Ending the session on the server is best effort: offline, the tokens simply expire.
    logoutSession(session.refreshToken).catch(() => undefined);
  }
  await clearSession();
  await forgetPricedCatalogue(db);
  if (session) await forgetUserData(session.user.id);
}

/** Re-reads the user and the company's state (a company approved since the last visit). */
export async function refreshUser(): Promise<User | null> {
  if (!getSession()) return null;
  const user = await fetchMe();
  updateStoredUser(user);
  return user;
}

export { updateStoredUser };
