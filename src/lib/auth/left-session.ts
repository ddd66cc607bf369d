/**
 * A session not to be remembered ("Remember me" off) lives in the tab's session storage,
 * which the browser forgets when it is closed; its copy in IndexedDB, kept for the service
 * worker, would outlive it, with the user's refresh token and priced data, on a computer
 * others use too. Every signed-in tab holds a shared Web Lock. A page that starts signed
 * out and finds a copy no tab holds forgets it as signing out does, and ends it on the
 * server; the user's waiting changes stay, sent at their next sign-in.
 */
import { SIGNED_IN_LOCK } from '../../contracts/storage-names';
import { logoutSession } from '../api/accounts';
import { db } from '../db/db';
import { forgetPricedCatalogue } from '../sync/catalogue-mirror';
import { forgetUserData } from '../sync/device-data';
import { getSession, subscribeSession } from './session-store';

let release: (() => void) | undefined;

function holdWhileSignedIn(): void {
  if (getSession() && !release) {
    const signedOut = new Promise<void>((resolve) => {
      release = resolve;
    });
    void navigator.locks.request(SIGNED_IN_LOCK, { mode: 'shared' }, () => signedOut);
  } else if (!getSession() && release) {
    release();
    release = undefined;
  }
}

/** Holds the lock while this tab is signed in, and forgets a session left behind. */
export async function watchLeftSession(): Promise<void> {
  if (typeof navigator === 'undefined' || !('locks' in navigator)) return;
  holdWhileSignedIn();
  subscribeSession(holdWhileSignedIn);
  if (getSession()) return;
  const left = await db.session.get('current');
  if (!left) return;
  const { held = [] } = await navigator.locks.query();
  if (getSession() || held.some((lock) => lock.name === SIGNED_IN_LOCK)) return;
  const forgotten = await db.transaction('rw', db.session, async () => {
    // Unless someone signed in meanwhile.
    const still = await db.session.get('current');
    if (still?.refreshToken !== left.refreshToken) return false;
    await db.session.delete('current');
    return true;
  });
  if (!forgotten) return;
  logoutSession(left.refreshToken).catch(() => undefined);
  await forgetPricedCatalogue(db);
  await forgetUserData(left.userId);
}
