/**
 * Sign-in and sessions. Sign-in answers the same for a wrong e-mail and a wrong password,
 * and is throttled (see login-throttle.ts).
 */
import { normalizeEmail } from '../../src/contracts/validation.js';
import type { User } from '../../src/contracts/accounts.js';
import type { Db } from '../db/database.js';
import { findAccount, findAccountByEmail, toUserDto } from './accounts.js';
import { HttpError } from './errors.js';
import { clearLoginFailures, loginRetryAfter, recordLoginFailure } from './login-throttle.js';
import { verifyAgainstNothing, verifyPassword } from './passwords.js';
import {
  issueAccessToken,
  issueRefreshToken,
  revokeRefreshToken,
  rotateRefreshToken,
} from './tokens.js';

const INVALID_CREDENTIALS = 'Invalid email or password';

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: User;
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
): Promise<Session> {
  const email = normalizeEmail(credentials.email);
  const retryAfter = await loginRetryAfter(db, email, ip);
  if (retryAfter > 0) throw tooManyAttempts(retryAfter);

  const account = await findAccountByEmail(db, email);
  const valid = account
    ? await verifyPassword(account.user.passwordHash, credentials.password)
    : await verifyAgainstNothing(credentials.password);
  if (!account || !valid) {
    await recordLoginFailure(db, email, ip);
    throw new HttpError(401, INVALID_CREDENTIALS);
  }
  await clearLoginFailures(db, email);
  return {
    accessToken: await issueAccessToken(db, account.user.id),
    refreshToken: await issueRefreshToken(db, account.user.id, {
      remember: credentials.rememberMe !== false,
    }),
    user: toUserDto(account),
  };
}

export async function refreshSession(db: Db, refreshToken: string): Promise<Session> {
  const { userId, refreshToken: next } = await rotateRefreshToken(db, refreshToken);
  const account = await findAccount(db, userId);
  if (!account) throw new HttpError(401, 'Your session has expired. Please sign in again.');
  return {
    accessToken: await issueAccessToken(db, userId),
    refreshToken: next,
    user: toUserDto(account),
  };
}

export const logout = (db: Db, refreshToken: string) => revokeRefreshToken(db, refreshToken);
