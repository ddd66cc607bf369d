/**
 * A session not to be remembered ("Remember me" off) lives in the tab's session storage,
 * which the browser forgets when it is closed; its copy in IndexedDB, kept for the service
 * worker, would outlive it, with the user's refresh token and priced data, on a computer
 * others use too. While someone is signed in, the app sets a cookie without an expiry,
 * which the browser drops when it is closed (and restores with the tabs when it restores
 * them). A page that starts signed out and finds a copy of a session but no such cookie
 * forgets the copy as signing out does, and ends the session on the server. A tab put to
 * sleep, or another tab opened meanwhile, leaves the cookie as it is.
 */
import { BROWSER_OPEN_COOKIE } from '../../contracts/storage-names';
import { logoutSession } from '../api/accounts';
import { db } from '../db/db';
import { forgetSignedOutUser } from './session-actions';
import { getSession, subscribeSession } from './session-store';

const browserOpenSinceSignIn = () =>
  document.cookie.split('; ').includes(`${BROWSER_OPEN_COOKIE}=1`);

function markBrowserOpen(): void {
  if (!getSession()) return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${BROWSER_OPEN_COOKIE}=1; Path=/; SameSite=Strict${secure}`;
}

/** Marks the browser open while signed in, and forgets a session left behind. */
export async function watchLeftSession(): Promise<void> {
  if (typeof document === 'undefined') return;
  markBrowserOpen();
  subscribeSession(markBrowserOpen);
  if (getSession() || browserOpenSinceSignIn()) return;
  const left = await db.session.get('current');
  if (!left) return;
  const forgotten = await db.transaction('rw', db.session, async () => {
    // Unless someone signed in meanwhile.
    const still = await db.session.get('current');
    if (getSession() || still?.refreshToken !== left.refreshToken) return false;
    await db.session.delete('current');
    return true;
  });
  if (!forgotten) return;
  logoutSession(left.refreshToken).catch(() => undefined);
  if (!getSession()) await forgetSignedOutUser(left.userId);
}
