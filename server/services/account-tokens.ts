/**
 * The tokens of links sent by e-mail (a new password, a confirmed address): random, 32
 * bytes, and kept only as their SHA-256, so that a copy of the database opens no account.
 * A token works once and until its end; taking it marks it used in the same statement
 * that checks it, so two requests with one token cannot both pass.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { accountTokens, type ACCOUNT_TOKEN_PURPOSES } from '../db/schema.js';
import { HttpError } from './errors.js';

export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/** How long each link works. */
export const TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  /** An hour: long enough to open the mail, short enough that an old mailbox opens nothing. */
  'password-reset': 60 * 60 * 1000,
  /** A week: a salon may read its mail days after registering, and the link only confirms. */
  'verify-email': 7 * 24 * 60 * 60 * 1000,
};

/** Random bytes of a token: beyond guessing, whatever the number of tries. */
const TOKEN_BYTES = 32;

/** A token as links carry it: base64url of 32 bytes. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const hashAccountToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** A new token for a user's link; only its hash is stored. */
export async function issueAccountToken(
  db: Db,
  userId: number,
  purpose: AccountTokenPurpose,
  now = Date.now(),
): Promise<string> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  await db.insert(accountTokens).values({
    userId,
    purpose,
    tokenHash: hashAccountToken(token),
    expiresAt: new Date(now + TOKEN_LIFETIME_MS[purpose]),
  });
  return token;
}

export type TokenRefusal = 'TOKEN_INVALID' | 'TOKEN_EXPIRED' | 'TOKEN_USED';

const REFUSALS: Record<TokenRefusal, { status: number; message: string }> = {
  TOKEN_INVALID: {
    status: 400,
    message: 'This link is not valid. Check that you opened the whole link, or ask for a new one.',
  },
  TOKEN_EXPIRED: { status: 410, message: 'This link has expired. Please ask for a new one.' },
  TOKEN_USED: { status: 410, message: 'This link has already been used.' },
};

export function tokenRefused(code: TokenRefusal): HttpError {
  const { status, message } = REFUSALS[code];
  return new HttpError(status, message, undefined, { code });
}

/**
 * Takes a token for `purpose`: marks it used and gives its user, or throws why it cannot
 * be taken (unknown, past its end, used already). Run it in the transaction of what the
 * link does, so that a failure leaves the token unused; the row stays locked until that
 * transaction ends, so a second request with the same token waits, then finds it used.
 */
export async function takeAccountToken(
  db: Db,
  token: string,
  purpose: AccountTokenPurpose,
  now = new Date(),
): Promise<number> {
  if (!TOKEN_SHAPE.test(token)) throw tokenRefused('TOKEN_INVALID');
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(eq(accountTokens.tokenHash, hashAccountToken(token)), eq(accountTokens.purpose, purpose)),
    )
    .for('update');
  if (!row) throw tokenRefused('TOKEN_INVALID');
  if (row.usedAt) throw tokenRefused('TOKEN_USED');
  if (row.expiresAt.getTime() <= now.getTime()) throw tokenRefused('TOKEN_EXPIRED');
  await db.update(accountTokens).set({ usedAt: now }).where(eq(accountTokens.id, row.id));
  return row.userId;
}

/** Ends every link of `purpose` of a user that still works (a new password ends the others). */
export async function endAccountTokens(
  db: Db,
  userId: number,
  purpose: AccountTokenPurpose,
  now = new Date(),
): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
      ),
    );
}

/**
 * How long a token is kept after its end: a link followed late still reads "expired", not
 * "not valid", for a month.
 */
const KEPT_AFTER_END_MS = 30 * 24 * 60 * 60 * 1000;

/** Forgets tokens long past their end, used or not (the daily clean-up). */
export async function pruneAccountTokens(db: Db, now = Date.now()): Promise<void> {
  await db
    .delete(accountTokens)
    .where(lt(accountTokens.expiresAt, new Date(now - KEPT_AFTER_END_MS)));
}
