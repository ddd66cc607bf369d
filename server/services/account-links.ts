/**
 * What the account's e-mailed links do (docs/product.md#password-reset and
 * #e-mail-verification): a forgotten password replaced through a link valid one hour, and
 * the address given at registration confirmed through a link valid a week.
 *
 * Asking for a reset answers the same, in about the same time, whether an account has the
 * e-mail or not: the answer waits until RESET_ANSWER_MS have passed, which the work for an
 * existing account (a token and a queued message, in one transaction) stays well within.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { accountLinkPath, type AccountLinkPage } from '../../src/contracts/account-routes.js';
import { validatePasswordResetPayload } from '../../src/contracts/form-schemas.js';
import type { Language } from '../../src/contracts/languages.js';
import { normalizeEmail } from '../../src/contracts/validation.js';
import type { Db } from '../db/database.js';
import { accountTokens, users } from '../db/schema.js';
import type { Account } from './accounts.js';
import { beginLinkRequest, tooManyLinkRequests } from './account-link-limit.js';
import {
  endAccountTokens,
  hashAccountToken,
  issueAccountToken,
  takeAccountToken,
  tokenRefused,
  TOKEN_SHAPE,
} from './account-tokens.js';
import { HttpError, invalidFields } from './errors.js';
import { forgetLoginFailures } from './login-throttle.js';
import { queueMail } from './mail/queue.js';
import { hashPassword } from './passwords.js';
import { revokeAllSessions } from './tokens.js';
import { inTransaction } from './transactions.js';

export const RESET_REQUESTED =
  'If an account uses this e-mail address, we have sent it a link to choose a new password. The link is valid for one hour.';
export const PASSWORD_RESET = 'Your password has been changed. Please sign in with it.';
export const EMAIL_VERIFIED = 'Thank you: your e-mail address is confirmed.';
export const VERIFICATION_SENT = 'We have sent a new confirmation link to your e-mail address.';

/**
 * The least time a reset request takes to answer, whatever the e-mail: far more than the
 * few queries for an existing account take, on PGlite or under load, so that the timing
 * does not tell which addresses have accounts; short enough not to be felt.
 */
export const RESET_ANSWER_MS = 400;

/** The full address of an e-mailed link, on the site's public address. */
const linkTo = (publicUrl: string, page: AccountLinkPage, token: string) =>
  `${publicUrl}${accountLinkPath(page, token)}`;

interface Addressee {
  id: number;
  email: string;
  language: Language;
}

/** A new confirmation link, queued to the user; run it in the transaction that causes it. */
export async function sendVerificationLink(
  db: Db,
  user: Addressee,
  publicUrl: string,
): Promise<void> {
  const token = await issueAccountToken(db, user.id, 'verify-email');
  await queueMail(
    db,
    { email: user.email, language: user.language, userId: user.id },
    { kind: 'verify-email', data: { link: linkTo(publicUrl, 'verify-email', token) } },
  );
}

/**
 * A request for a reset link. Throttled per e-mail and address (account-link-limit.ts);
 * a message goes only to a live account: neither a deleted one nor one staff deactivated
 * (its password would not let it in anyway), and the answer never says which.
 */
export async function requestPasswordReset(
  db: Db,
  typed: string,
  ip: string,
  publicUrl: string,
): Promise<void> {
  const started = Date.now();
  const email = normalizeEmail(typed);
  const request = await beginLinkRequest(db, 'password-reset', email, ip);
  if (!request.allowed) throw tooManyLinkRequests(request.retryAfter);
  if (request.send) {
    await inTransaction(db, async (tx) => {
      const [user] = await tx
        .select({ id: users.id, email: users.email, language: users.language })
        .from(users)
        .where(and(eq(users.email, email), isNull(users.deletedAt), isNull(users.deactivatedAt)));
      if (!user) return;
      const token = await issueAccountToken(tx, user.id, 'password-reset');
      await queueMail(
        tx,
        { email: user.email, language: user.language, userId: user.id },
        { kind: 'password-reset', data: { link: linkTo(publicUrl, 'reset-password', token) } },
      );
    });
  }
  const wait = started + RESET_ANSWER_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * Why a token cannot be taken, read without taking it: said before the password's rules,
 * so that nobody types a new password for a link that cannot work.
 */
async function checkToken(db: Db, token: string): Promise<void> {
  if (!TOKEN_SHAPE.test(token)) throw tokenRefused('TOKEN_INVALID');
  const [row] = await db
    .select({ usedAt: accountTokens.usedAt, expiresAt: accountTokens.expiresAt })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, hashAccountToken(token)),
        eq(accountTokens.purpose, 'password-reset'),
      ),
    );
  if (!row) throw tokenRefused('TOKEN_INVALID');
  if (row.usedAt) throw tokenRefused('TOKEN_USED');
  if (row.expiresAt.getTime() <= Date.now()) throw tokenRefused('TOKEN_EXPIRED');
}

/** The live account of a link's token; a deleted or deactivated one has no valid link. */
async function liveUser(db: Db, userId: number) {
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.deactivatedAt)));
  if (!user) throw tokenRefused('TOKEN_INVALID');
  return user;
}

/**
 * A new password through a reset link: the registration's rules; then every session of
 * the account ends, every other reset link stops working, and the address counts as
 * confirmed (the link reached it).
 */
export async function confirmPasswordReset(
  db: Db,
  payload: { token: string; newPassword: string },
): Promise<void> {
  await checkToken(db, payload.token);
  const errors = validatePasswordResetPayload(payload);
  if (errors.length > 0) throw invalidFields(errors);
  // Hashed before the transaction: a slow hash must not hold it open.
  const passwordHash = await hashPassword(payload.newPassword);
  await inTransaction(db, async (tx) => {
    const now = new Date();
    const user = await liveUser(tx, await takeAccountToken(tx, payload.token, 'password-reset'));
    await tx
      .update(users)
      .set({
        passwordHash,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await endAccountTokens(tx, user.id, 'password-reset', now);
    await revokeAllSessions(tx, user.id);
    // Whoever was locked out of signing in by wrong guesses can sign in with the new one.
    await forgetLoginFailures(tx, user.email);
  });
}

/** The link sent at registration: the address is confirmed, once. */
export async function verifyEmail(db: Db, token: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const now = new Date();
    const user = await liveUser(tx, await takeAccountToken(tx, token, 'verify-email', now));
    await tx
      .update(users)
      .set({ emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, user.id), isNull(users.emailVerifiedAt)));
    // The other confirmation links have nothing left to do.
    await endAccountTokens(tx, user.id, 'verify-email', now);
  });
}

/**
 * Before a signed-in user's request for a new confirmation link: refused when the address
 * is confirmed already, and throttled like a reset request. Says whether a message may go.
 */
export async function beginVerificationRequest(
  db: Db,
  account: Account,
  ip: string,
): Promise<boolean> {
  if (account.user.emailVerifiedAt) {
    throw new HttpError(409, 'Your e-mail address is already confirmed.', undefined, {
      code: 'EMAIL_ALREADY_VERIFIED',
    });
  }
  const request = await beginLinkRequest(db, 'verify-email', account.user.email, ip);
  if (!request.allowed) throw tooManyLinkRequests(request.retryAfter);
  return request.send;
}
