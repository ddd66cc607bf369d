/**
 * The account's e-mailed links (docs/api.md#password-reset-and-e-mail-verification). The
 * link's token is the proof: those calls go without the session's token, so that a session
 * that has ended on this device (the usual case of a forgotten password) cannot turn a
 * reset into "your session has expired". Asking for a new confirmation link is the
 * signed-in user's own call (./accounts.ts).
 */
import ky from 'ky';
import type { AccountLinkAnswer } from '../../contracts/account-links-schemas';
import { REQUEST_TIMEOUT_MS } from './errors';

const anyone = ky.create({ prefixUrl: '/api', timeout: REQUEST_TIMEOUT_MS, retry: 0 });

export const requestPasswordReset = (email: string) =>
  anyone.post('auth/password-reset', { json: { email } }).json<AccountLinkAnswer>();

export const confirmPasswordReset = (token: string, newPassword: string) =>
  anyone
    .post('auth/password-reset/confirm', { json: { token, newPassword } })
    .json<AccountLinkAnswer>();

export const verifyEmail = (token: string) =>
  anyone.post('auth/verify-email', { json: { token } }).json<AccountLinkAnswer>();
