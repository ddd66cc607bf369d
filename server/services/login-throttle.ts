/**
 * The login throttle: too many failed sign-ins for one e-mail, or from one address, in a
 * window of time block further attempts for a while. Kept in the database so that every
 * server process counts the same failures.
 */
import { and, count, eq, gt, min } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { loginFailures } from '../db/schema.js';

/** Failures are counted over this window, and a block lasts at most as long. */
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** Failed attempts for one e-mail before it is blocked: enough for typos, too few for guessing. */
export const MAX_FAILURES_PER_EMAIL = 5;
/** Failed attempts from one address (many e-mails tried) before the address is blocked. */
export const MAX_FAILURES_PER_ADDRESS = 30;

async function blockedFor(db: Db, column: 'email' | 'ip', value: string, max: number, now: number) {
  const since = new Date(now - THROTTLE_WINDOW_MS);
  const [row] = await db
    .select({ n: count(), oldest: min(loginFailures.createdAt) })
    .from(loginFailures)
    .where(and(eq(loginFailures[column], value), gt(loginFailures.createdAt, since)));
  if (!row || row.n < max || !row.oldest) return 0;
  return Math.max(1, Math.ceil((row.oldest.getTime() + THROTTLE_WINDOW_MS - now) / 1000));
}

/** Seconds until the next attempt is allowed, or 0 when it is allowed now. */
export async function loginRetryAfter(
  db: Db,
  email: string,
  ip: string,
  now = Date.now(),
): Promise<number> {
  const [byEmail, byAddress] = await Promise.all([
    blockedFor(db, 'email', email, MAX_FAILURES_PER_EMAIL, now),
    blockedFor(db, 'ip', ip, MAX_FAILURES_PER_ADDRESS, now),
  ]);
  return Math.max(byEmail, byAddress);
}

export async function recordLoginFailure(db: Db, email: string, ip: string): Promise<void> {
  await db.insert(loginFailures).values({ email, ip, createdAt: new Date() });
}

export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
}
