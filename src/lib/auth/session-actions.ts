/**
 * Signing in and out. Signing out forgets every price kept on the device, so that the
 * next person at a shared tablet sees none.
 */
import type { User } from '../../contracts/accounts';
import { fetchMe, login, logoutSession } from '../api/accounts';
import { db } from '../db/db';
import { forgetPricedCatalogue } from '../sync/catalogue-mirror';
import { refreshCompany } from '../sync/company';
import { forgetUserData } from '../sync/device-data';
import { withOutboxLock } from '../sync/outbox-lock';
import { refreshCustomers } from '../sync/rep-customers';
import { clearSession, getSession, saveSession, signedInUserId } from './session-store';
import { updateStoredUser } from './session-tokens';

export async function signIn(email: string, password: string, remember: boolean): Promise<User> {
  const session = await login(email.trim(), password, remember);
  await saveSession(session, remember);
  // The company's address, or a rep's customers, are on the device before they may be
  // needed offline.
  void refreshCompany();
  void refreshCustomers();
  return session.user;
}

export async function signOut(): Promise<void> {
  const session = getSession();
  if (session) {
    // Ending the session on the server is best effort: offline, the tokens simply expire.
    logoutSession(session.refreshToken).catch(() => undefined);
  }
  await clearSession();
  if (session) await forgetSignedOutUser(session.user.id);
  else await forgetPricedCatalogue(db);
}

/**
 * Forgets what the device keeps of a user no longer signed in: the priced products, its
 * cart, orders and company (not the changes still waiting to be sent, which go at the
 * user's next sign-in).
 */
export async function forgetSignedOutUser(userId: number): Promise<void> {
  await forgetPricedCatalogue(db);
  await forgetUserData(userId);
  // A replay on its way (this tab's, another's, the service worker's) stores its response, a
  // priced cart or a confirmed order, when it arrives: forgotten again once it has ended,
  // unless the user has signed in again meanwhile.
  void withOutboxLock(async () => {
    if (signedInUserId() !== userId) await forgetUserData(userId);
  }).catch(() => undefined);
}

/** Re-reads the user and the company's state (a company approved since the last visit). */
export async function refreshUser(): Promise<User | null> {
  if (!getSession()) return null;
  const user = await fetchMe();
  await updateStoredUser(user);
  return user;
}

export { updateStoredUser };
