/**
 * The tokens the service worker renewed while the page was open, and the changes of the
 * stored session that must keep them. Kept out of the first screen's code: only a renewal
 * and a change of the user's details need it.
 */
import type { User } from '../../contracts/accounts';
import { db } from '../db/db';
import { isNewerToken } from '../sync/transport';
import { getSession, saveSession, type Session } from './session-store';

/**
 * The session with the tokens the service worker left in IndexedDB when it renewed them
 * during a replay, or null when it did not. The page's copy then holds a refresh token
 * already spent, which the server would take for a stolen one and end the session.
 */
export async function renewedByServiceWorker(current: Session): Promise<Session | null> {
  const stored = await db.session.get('current');
  return stored &&
    stored.userId === current.user.id &&
    stored.refreshToken !== current.refreshToken &&
    isNewerToken(stored.accessToken, current.accessToken)
    ? { ...current, accessToken: stored.accessToken, refreshToken: stored.refreshToken }
    : null;
}

/**
 * Keeps the server's answer about the signed-in user (a name changed, notifications). The
 * tokens kept with it are the newest: those the service worker renewed meanwhile, if it
 * did (a replay of the name change itself, say), never the page's spent ones over them.
 */
export async function updateStoredUser(user: User): Promise<void> {
  const current = getSession();
  if (current?.user.id !== user.id) return;
  const renewed = await renewedByServiceWorker(current);
  const latest = getSession();
  // Signed out, or in as someone else, meanwhile.
  if (latest?.user.id !== user.id) return;
  // The page may have renewed the tokens itself meanwhile: the newer are kept.
  const session =
    renewed && isNewerToken(renewed.accessToken, latest.accessToken) ? renewed : latest;
  await saveSession({ ...session, user });
}
