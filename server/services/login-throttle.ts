/**
 * The sign-in throttle, kept in the database so that every server process counts the same
 * attempts. The policy (also in the README):
 *
 * - an address that failed 5 times for one e-mail in 15 minutes waits for that e-mail;
 * - an address that failed 30 times in 15 minutes (any e-mails) waits for every e-mail;
 * - an e-mail that failed 50 times in 15 minutes from all addresses together is closed to
 *   every address that failed for it, but an address with no failure for it still gets
 *   its password checked: the owner signs in from their own device while someone else
 *   guesses elsewhere, and a guesser with many addresses gets one guess from each.
 *
 * Checking the limits and recording the attempt happen in one transaction under locks on
 * the address and the e-mail, and an attempt counts as a failure from before its password
 * is checked until it is known to be right. So simultaneous guesses cannot all pass the
 * check before any failure is recorded: at most 5 of them are ever checked.
 */
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { loginFailures } from '../db/schema.js';
import { clientAddress } from './client-address.js';
import { inTransaction } from './transactions.js';

/** Failures are counted over this window, and a wait lasts at most as long. */
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** Failures of one address for one e-mail before it waits: enough for typos, too few for guessing. */
export const MAX_FAILURES_PER_EMAIL_AND_ADDRESS = 5;
/** Failures of one address over any e-mails: one office behind one address makes a few typos. */
export const MAX_FAILURES_PER_ADDRESS = 30;
/**
 * Failures for one e-mail from all addresses together before only addresses without a
 * failure for it are let through: far above what its owner mistypes, low enough that a
 * guesser spreading over addresses gets few guesses.
 */
export const MAX_FAILURES_PER_EMAIL = 50;

export type LoginAttempt =
  | { allowed: true; /** The attempt's row, removed when the password is right. */ id: number }
  | { allowed: false; retryAfter: number };

const secondsUntil = (oldest: Date | string | null, now: number): number =>
  oldest === null
    ? 0
    : Math.max(1, Math.ceil((new Date(oldest).getTime() + THROTTLE_WINDOW_MS - now) / 1000));

/**
 * Checks the limits for one sign-in and, when it may go ahead, records it as a failure
 * until `loginSucceeded` says otherwise.
 */
export async function beginLoginAttempt(
  db: Db,
  email: string,
  requestIp: string,
  now = Date.now(),
): Promise<LoginAttempt> {
  const ip = clientAddress(requestIp);
  return inTransaction(db, async (tx) => {
    // 1. One attempt at a time per address, then per e-mail: always in this order, so two
    //    attempts never wait for each other's lock.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`login-address:${ip}`}))`);
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`login-email:${email}`}))`);

    // 2. Forget this address's and this e-mail's attempts that have left the window (the
    //    table stays small), then count what the window holds for the pair, the address
    //    and the e-mail.
    const since = new Date(now - THROTTLE_WINDOW_MS);
    await tx
      .delete(loginFailures)
      .where(
        and(
          sql`(${loginFailures.email} = ${email} OR ${loginFailures.ip} = ${ip})`,
          lte(loginFailures.createdAt, since),
        ),
      );
    const sameEmail = eq(loginFailures.email, email);
    const sameAddress = eq(loginFailures.ip, ip);
    const pair = and(sameEmail, sameAddress);
    const [counts] = await tx
      .select({
        pair: sql<number>`count(*) FILTER (WHERE ${pair})`.mapWith(Number),
        pairOldest: sql<string | null>`min(${loginFailures.createdAt}) FILTER (WHERE ${pair})`,
        address: sql<number>`count(*) FILTER (WHERE ${sameAddress})`.mapWith(Number),
        addressOldest: sql<
          string | null
        >`min(${loginFailures.createdAt}) FILTER (WHERE ${sameAddress})`,
        email: sql<number>`count(*) FILTER (WHERE ${sameEmail})`.mapWith(Number),
      })
      .from(loginFailures)
      .where(and(sql`(${sameEmail} OR ${sameAddress})`, gt(loginFailures.createdAt, since)));
    const c = counts ?? { pair: 0, pairOldest: null, address: 0, addressOldest: null, email: 0 };

    // 3. Refuse while a limit holds, saying for how long.
    const waits = [
      c.pair >= MAX_FAILURES_PER_EMAIL_AND_ADDRESS ? secondsUntil(c.pairOldest, now) : 0,
      c.address >= MAX_FAILURES_PER_ADDRESS ? secondsUntil(c.addressOldest, now) : 0,
      c.email >= MAX_FAILURES_PER_EMAIL && c.pair > 0 ? secondsUntil(c.pairOldest, now) : 0,
    ];
    const retryAfter = Math.max(...waits);
    if (retryAfter > 0) return { allowed: false as const, retryAfter };

    // 4. Record the attempt as a failure before its password is checked.
    const [row] = await tx
      .insert(loginFailures)
      .values({ email, ip, createdAt: new Date(now) })
      .returning({ id: loginFailures.id });
    return { allowed: true as const, id: row?.id ?? 0 };
  });
}

/**
 * A right password: the attempt was no failure, and the address's earlier failures for
 * this e-mail are forgiven. Failures from other addresses stay until they age out.
 */
export async function loginSucceeded(
  db: Db,
  email: string,
  requestIp: string,
  attemptId: number,
): Promise<void> {
  const ip = clientAddress(requestIp);
  await db
    .delete(loginFailures)
    .where(
      sql`${loginFailures.id} = ${attemptId} OR (${loginFailures.email} = ${email} AND ${loginFailures.ip} = ${ip})`,
    );
}

/** An attempt that turned out to be no guess (the request failed for another reason). */
export async function forgetLoginAttempt(db: Db, attemptId: number): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.id, attemptId));
}

/** Forgets every failure for an e-mail: its password was just set anew through its mailbox. */
export async function forgetLoginFailures(db: Db, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
}

/** Forgets attempts that have left the window (the daily clean-up of addresses not seen again). */
export async function pruneLoginFailures(db: Db, now = Date.now()): Promise<void> {
  await db
    .delete(loginFailures)
    .where(lte(loginFailures.createdAt, new Date(now - THROTTLE_WINDOW_MS)));
}
