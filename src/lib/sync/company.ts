/**
 * The signed-in user's company kept on the device: read from the server with the cart and
 * orders, at sign-in and on the profile, so that the checkout is prefilled with its
 * address and the profile shows it when there is no network. Removed at sign-out by
 * forgetUserData (./device-data).
 */
import { fetchMyCompany } from '../api/accounts';
import { isNetworkError, isNotFound } from '../api/client';
import { getSession, signedInUserId } from '../auth/session-store';
import { db, type StoredCompany } from '../db/db';

/** The read under way, shared by whoever asks meanwhile (sign-in, the refresh, the checkout). */
let reading: { userId: number; done: Promise<void> } | null = null;

/**
 * Reads the user's company from the server and keeps it on the device. Fails as the call
 * failed, so that a screen can say why it shows the device's copy; a 404 (no company any
 * more) first removes that copy. Resolves once the answer is stored.
 */
export function readCompanyFromServer(): Promise<void> {
  const userId = signedInUserId();
  if (userId === null || !getSession()?.user.company) return Promise.resolve();
  if (reading?.userId !== userId) {
    const done = readAndStore(userId).finally(() => {
      if (reading?.done === done) reading = null;
    });
    reading = { userId, done };
  }
  return reading.done;
}

/**
 * The same, best effort: offline, or refused, the device keeps what it has. Resolves once
 * the answer is stored or given up.
 */
export function refreshCompany(): Promise<void> {
  return readCompanyFromServer().catch((error: unknown) => {
    if (!isNetworkError(error) && !isNotFound(error)) {
      console.warn('Could not refresh the company', error);
    }
  });
}

async function readAndStore(userId: number): Promise<void> {
  try {
    const company = await fetchMyCompany();
    // Signed out (or someone else signed in) while the answer travelled: it is not theirs.
    if (signedInUserId() !== userId) return;
    await db.companies.put({ userId, company, syncedAt: new Date().toISOString() });
  } catch (error) {
    if (isNotFound(error) && signedInUserId() === userId) await db.companies.delete(userId);
    throw error;
  }
}

/** The user's company as last stored; null when the device has none. */
export async function readCompany(userId: number | null): Promise<StoredCompany | null> {
  return userId === null ? null : ((await db.companies.get(userId)) ?? null);
}
