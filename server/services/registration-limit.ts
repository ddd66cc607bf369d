/**
 * How many registrations one client address may make, counted in the database so that
 * every server process applies the same limit. Both registration routes count, whatever
 * their outcome: an attempt costs a slow password hash and, with documents, up to 40 MB
 * written, and the outcome (new or taken e-mail) must not show anyway.
 *
 * Checking the count and recording the attempt happen in one transaction under a lock
 * on the address, so simultaneous requests cannot all pass the check before any of
 * them is recorded.
 */
import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { registrationAttempts } from '../db/schema.js';
import { clientAddress } from './client-address.js';
import { HttpError } from './errors.js';
import { inTransaction } from './transactions.js';

/** Attempts are counted over this window, and a wait lasts at most as long. */
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;
/**
 * Attempts one address may make per window. One salon registers once; but a trade fair's
 * network, an office or a mobile carrier puts many people behind one address, and a
 * fair's stand may register a salon every few minutes. Thirty an hour lets them, and
 * still bounds what one address can make the server hash and store.
 */
export const MAX_REGISTRATIONS_PER_ADDRESS = 30;

export type RegistrationAttempt = { allowed: true } | { allowed: false; retryAfter: number };

/** Checks the limit for one registration from `ip` and, when it may go ahead, records it. */
export async function beginRegistration(
  db: Db,
  requestIp: string,
  now = Date.now(),
): Promise<RegistrationAttempt> {
  const ip = clientAddress(requestIp);
  const since = new Date(now - REGISTRATION_WINDOW_MS);
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`registration-address:${ip}`}))`);
    // This address's attempts out of the window count for nobody: forgotten here, so the
    // table stays small (only rows under this transaction's lock).
    await tx
      .delete(registrationAttempts)
      .where(and(eq(registrationAttempts.ip, ip), lt(registrationAttempts.createdAt, since)));
    const [row] = await tx
      .select({ n: count(), oldest: min(registrationAttempts.createdAt) })
      .from(registrationAttempts)
      .where(and(eq(registrationAttempts.ip, ip), gt(registrationAttempts.createdAt, since)));
    if (row && row.n >= MAX_REGISTRATIONS_PER_ADDRESS && row.oldest) {
      const retryAfter = Math.max(
        1,
        Math.ceil((new Date(row.oldest).getTime() + REGISTRATION_WINDOW_MS - now) / 1000),
      );
      return { allowed: false as const, retryAfter };
    }
    await tx.insert(registrationAttempts).values({ ip, createdAt: new Date(now) });
    return { allowed: true as const };
  });
}

/** The 429 of a refused registration: `{message, retryAfter}`, Retry-After set by the caller. */
export function tooManyRegistrations(retryAfter: number): HttpError {
  const minutes = Math.ceil(retryAfter / 60);
  return new HttpError(
    429,
    `Too many registrations from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    undefined,
    { retryAfter, code: 'TOO_MANY_REGISTRATIONS' },
  );
}

/** Forgets attempts that have left the window (the daily clean-up of addresses not seen again). */
export async function pruneRegistrationAttempts(db: Db, now = Date.now()): Promise<void> {
  await db
    .delete(registrationAttempts)
    .where(lt(registrationAttempts.createdAt, new Date(now - REGISTRATION_WINDOW_MS)));
}
