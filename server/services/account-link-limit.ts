/**
 * How often links may be asked for by e-mail (a new password, a new confirmation link),
 * counted in the database like sign-in failures (login-throttle.ts), so that every server
 * process applies the same limits:
 *
 * - one address may ask 3 times an hour for one e-mail, and 20 times an hour in all;
 *   beyond that it waits (429 with retryAfter);
 * - one e-mail gets at most 5 messages an hour, whoever asks: further requests answer
 *   the same, but no message goes out. Whoever fills someone's mailbox from many addresses
 *   stops there, and the owner still has the links already sent, each valid for its hour.
 *
 * Requests are counted by the e-mail typed, whether an account has it or not, so that the
 * limits tell nothing about which addresses have accounts. Checking and recording happen
 * in one transaction under locks on the address and the e-mail, as for sign-in.
 */
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { accountLinkRequests } from '../db/schema.js';
import type { AccountTokenPurpose } from './account-tokens.js';
import { clientAddress } from './client-address.js';
import { HttpError } from './errors.js';
import { inTransaction } from './transactions.js';

/** Requests are counted over this window, the life of a reset link. */
export const LINK_REQUEST_WINDOW_MS = 60 * 60 * 1000;
/** Requests of one address for one e-mail: a retry or two when a message is slow to come. */
export const MAX_LINK_REQUESTS_PER_EMAIL_AND_ADDRESS = 3;
/** Requests of one address for any e-mails: an office or a fair's network behind one address. */
export const MAX_LINK_REQUESTS_PER_ADDRESS = 20;
/** Messages one e-mail receives per window, whoever asks. */
export const MAX_LINK_MESSAGES_PER_EMAIL = 5;

export type LinkRequest =
  | { allowed: true; /** Whether a message may go out for it. */ send: boolean }
  | { allowed: false; retryAfter: number };

const secondsUntil = (oldest: Date | string | null, now: number): number =>
  oldest === null
    ? 1
    : Math.max(1, Math.ceil((new Date(oldest).getTime() + LINK_REQUEST_WINDOW_MS - now) / 1000));

/** Checks the limits for one request of a link and, when it may go ahead, records it. */
export async function beginLinkRequest(
  db: Db,
  purpose: AccountTokenPurpose,
  email: string,
  requestIp: string,
  now = Date.now(),
): Promise<LinkRequest> {
  const ip = clientAddress(requestIp);
  return inTransaction(db, async (tx) => {
    // 1. One request at a time per address, then per e-mail (always in this order).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`link-address:${ip}`}))`);
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`link-email:${email}`}))`);

    // 2. Forget this address's and this e-mail's requests out of the window, then count.
    const since = new Date(now - LINK_REQUEST_WINDOW_MS);
    const sameEmail = and(
      eq(accountLinkRequests.purpose, purpose),
      eq(accountLinkRequests.email, email),
    );
    const sameAddress = eq(accountLinkRequests.ip, ip);
    await tx
      .delete(accountLinkRequests)
      .where(
        and(
          sql`(${accountLinkRequests.email} = ${email} OR ${sameAddress})`,
          lte(accountLinkRequests.createdAt, since),
        ),
      );
    const pair = and(sameEmail, sameAddress);
    const [counts] = await tx
      .select({
        pair: sql<number>`count(*) FILTER (WHERE ${pair})`.mapWith(Number),
        pairOldest: sql<
          string | null
        >`min(${accountLinkRequests.createdAt}) FILTER (WHERE ${pair})`,
        address: sql<number>`count(*) FILTER (WHERE ${sameAddress})`.mapWith(Number),
        addressOldest: sql<
          string | null
        >`min(${accountLinkRequests.createdAt}) FILTER (WHERE ${sameAddress})`,
        email: sql<number>`count(*) FILTER (WHERE ${sameEmail})`.mapWith(Number),
      })
      .from(accountLinkRequests)
      .where(and(sql`(${sameEmail} OR ${sameAddress})`, gt(accountLinkRequests.createdAt, since)));
    const c = counts ?? { pair: 0, pairOldest: null, address: 0, addressOldest: null, email: 0 };

    // 3. Refuse while a limit holds, saying for how long.
    const retryAfter = Math.max(
      c.pair >= MAX_LINK_REQUESTS_PER_EMAIL_AND_ADDRESS ? secondsUntil(c.pairOldest, now) : 0,
      c.address >= MAX_LINK_REQUESTS_PER_ADDRESS ? secondsUntil(c.addressOldest, now) : 0,
    );
    if (retryAfter > 0) return { allowed: false as const, retryAfter };

    // 4. Record it; a message goes out while the e-mail has had fewer than its share.
    await tx.insert(accountLinkRequests).values({ purpose, email, ip, createdAt: new Date(now) });
    return { allowed: true as const, send: c.email < MAX_LINK_MESSAGES_PER_EMAIL };
  });
}

/** The 429 of a refused request: `{message, code, retryAfter}`. */
export function tooManyLinkRequests(retryAfter: number): HttpError {
  const minutes = Math.ceil(retryAfter / 60);
  return new HttpError(
    429,
    `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    undefined,
    { retryAfter, code: 'TOO_MANY_LINK_REQUESTS' },
  );
}

/** Forgets requests that have left the window (the daily clean-up). */
export async function pruneLinkRequests(db: Db, now = Date.now()): Promise<void> {
  await db
    .delete(accountLinkRequests)
    .where(lte(accountLinkRequests.createdAt, new Date(now - LINK_REQUEST_WINDOW_MS)));
}
