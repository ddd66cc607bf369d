/**
 * Sign-in and sessions. Sign-in answers the same for a wrong e-mail and a wrong password,
 * and is throttled (see login-throttle.ts).
 */
import { normalizeEmail } from '../../src/contracts/validation.js';
import type { User } from '../../src/contracts/accounts.js';
import type { Language } from '../../src/contracts/languages.js';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { users } from '../db/schema.js';
import { findAccount, findAccountByEmail, toUserDto } from './accounts.js';
import { HttpError } from './errors.js';
import { beginLoginAttempt, loginSucceeded } from './login-throttle.js';
import { verifyAgainstNothing, verifyPassword } from './passwords.js';
import {
  issueAccessToken,
  issueRefreshToken,
  newSessionId,
  revokeRefreshToken,
  rotateRefreshToken,
} from './tokens.js';

const INVALID_CREDENTIALS = 'Invalid email or password';
export const ACCOUNT_DEACTIVATED =
  'This account has been deactivated. Ask the back office to reactivate it.';

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: User;
  /** When the session ends, unless it is refreshed or ended before. */
  endsAt: Date;
}

export function tooManyAttempts(retryAfter: number): HttpError {
  const minutes = Math.ceil(retryAfter / 60);
  return new HttpError(
    429,
    `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    undefined,
    { retryAfter },
  );
}

export async function login(
  db: Db,
  credentials: { email: string; password: string; rememberMe?: boolean | undefined },
  ip: string,
  /** The language the request names: the user's e-mail is written in it from now on. */
  language: Language | null = null,
): Promise<Session> {
  const email = normalizeEmail(credentials.email);
  const attempt = await beginLoginAttempt(db, email, ip);
  if (!attempt.allowed) throw tooManyAttempts(attempt.retryAfter);

  const account = await findAccountByEmail(db, email);
  const valid = account
    ? await verifyPassword(account.user.passwordHash, credentials.password)
    : await verifyAgainstNothing(credentials.password);
  // A wrong password stays recorded as the failure it was counted as.
  if (!account || !valid) throw new HttpError(401, INVALID_CREDENTIALS);
  // Said only to whoever knows the password: it tells nothing to someone guessing.
  if (account.user.deactivatedAt) {
    throw new HttpError(401, ACCOUNT_DEACTIVATED, undefined, { code: 'ACCOUNT_DEACTIVATED' });
  }
  await loginSucceeded(db, email, ip, attempt.id);
  await db
    .update(users)
    .set({ lastSignInAt: new Date(), ...(language ? { language } : {}) })
    .where(eq(users.id, account.user.id));
  return {
    ...(await openSession(db, account.user.id, credentials.rememberMe !== false)),
    user: toUserDto(account),
  };
}

/** A new session for a user: its first refresh token and an access token naming it. */
export async function openSession(
  db: Db,
  userId: number,
  remember = true,
): Promise<{ accessToken: string; refreshToken: string; endsAt: Date }> {
  const sessionId = newSessionId();
  const refresh = await issueRefreshToken(db, userId, { remember, familyId: sessionId });
  return {
    refreshToken: refresh.token,
    endsAt: refresh.endsAt,
    accessToken: await issueAccessToken(db, userId, sessionId),
  };
}

export async function refreshSession(db: Db, refreshToken: string): Promise<Session> {
  const {
    userId,
    sessionId,
    refreshToken: next,
    endsAt,
  } = await rotateRefreshToken(db, refreshToken);
  const account = await findAccount(db, userId);
  if (!account) throw new HttpError(401, 'Your session has expired. Please sign in again.');
  return {
    accessToken: await issueAccessToken(db, userId, sessionId),
    refreshToken: next,
    user: toUserDto(account),
    endsAt,
  };
}

export const logout = (db: Db, refreshToken: string) => revokeRefreshToken(db, refreshToken);
