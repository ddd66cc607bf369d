/**
 * The session as the service worker holds it: the copy the page keeps in IndexedDB (the
 * worker has no local storage). A refused access token is renewed here under the same
 * Web Lock as the page's renewals, so that a refresh token is spent once; the page takes
 * the renewed tokens over from IndexedDB (see renewSession in ../api/client).
 */
import { REFRESH_LOCK } from '../../contracts/storage-names';
import type { PortalDb } from '../db/db';
import { exchangeRefreshToken, type Credentials, type TransportOptions } from './transport';

async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  return typeof navigator !== 'undefined' && 'locks' in navigator
    ? navigator.locks.request(REFRESH_LOCK, work)
    : work();
}

export function storedSessionCredentials(
  db: PortalDb,
  options: TransportOptions = {},
): Credentials {
  return {
    accessToken: async (userId) => {
      const current = await db.session.get('current');
      return current?.userId === userId ? current.accessToken : null;
    },
    renew: (refused, userId) =>
      withRefreshLock(async () => {
        const current = await db.session.get('current');
        // Signed out, or another user signed in meanwhile: not this user's session.
        if (current?.userId !== userId) return null;
        // Renewed meanwhile, by a page or an earlier replay.
        if (current.accessToken !== refused) return current.accessToken;
        const next = await exchangeRefreshToken(current.refreshToken, options);
        // Ended: the page finds out on its next call and asks the user to sign in.
        if (!next) return null;
        await db.transaction('rw', db.session, async () => {
          // A sign-out while the refresh was on its way wins: nothing is written back.
          const still = await db.session.get('current');
          if (still?.refreshToken === current.refreshToken) {
            await db.session.put({
              ...still,
              accessToken: next.accessToken,
              refreshToken: next.refreshToken,
            });
          }
        });
        return next.accessToken;
      }),
  };
}
