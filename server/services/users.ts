/**
 * What users change about themselves: names, password, notification settings, and the
 * deletion of their account (personal data removed; the company's orders stay).
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { NotificationSettings, User } from '../../src/contracts/accounts.js';
import {
  validatePasswordChangePayload,
  validateProfile,
} from '../../src/contracts/form-schemas.js';
import { trimFields } from '../../src/contracts/validation.js';
import type { Db } from '../db/database.js';
import { users } from '../db/schema.js';
import { endAccountTokens } from './account-tokens.js';
import { findAccount, toUserDto, type Account } from './accounts.js';
import { HttpError, invalidFields } from './errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { revokeAllSessions } from './tokens.js';

async function reload(db: Db, userId: number): Promise<User> {
  const account = await findAccount(db, userId);
  if (!account) throw new HttpError(401, 'Your session has expired. Please sign in again.');
  return toUserDto(account);
}

export async function updateProfile(
  db: Db,
  account: Account,
  raw: { firstName: string; lastName: string; email?: string | undefined },
): Promise<User> {
  const values = trimFields(raw, ['firstName', 'lastName']);
  const errors = validateProfile(values);
  if (errors.length > 0) throw invalidFields(errors);
  if (values.email !== undefined && values.email.trim().toLowerCase() !== account.user.email) {
    throw new HttpError(400, 'The e-mail address cannot be changed here.', [
      {
        field: 'email',
        message: 'The e-mail address cannot be changed here.',
        code: 'emailReadOnly',
      },
    ]);
  }
  await db
    .update(users)
    .set({ firstName: values.firstName, lastName: values.lastName, updatedAt: new Date() })
    .where(eq(users.id, account.user.id));
  return reload(db, account.user.id);
}

export async function changePassword(
  db: Db,
  account: Account,
  payload: { currentPassword: string; newPassword: string },
): Promise<void> {
  const errors = validatePasswordChangePayload(payload);
  if (errors.length > 0) throw invalidFields(errors);
  if (!(await verifyPassword(account.user.passwordHash, payload.currentPassword))) {
    throw new HttpError(400, 'The current password is not correct.', [
      {
        field: 'currentPassword',
        message: 'The current password is not correct.',
        code: 'currentPasswordWrong',
      },
    ]);
  }
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(payload.newPassword), updatedAt: new Date() })
    .where(eq(users.id, account.user.id));
  // Every other device signs in again with the new password; this one stays signed in.
  await revokeAllSessions(db, account.user.id, account.sessionId ?? null);
  // A reset link e-mailed before no longer sets a password of its own.
  await endAccountTokens(db, account.user.id, 'password-reset');
}

export async function updateNotifications(
  db: Db,
  account: Account,
  settings: NotificationSettings,
): Promise<User> {
  await db
    .update(users)
    .set({
      notifyOrders: settings.orderNotifications,
      notifyProducts: settings.newProductNotifications,
      notifyMarketing: settings.marketingNewsletter,
      updatedAt: new Date(),
    })
    .where(eq(users.id, account.user.id));
  return reload(db, account.user.id);
}

/** Deletes an account after the password confirms it: personal data is anonymised. */
/**
 * A salon's user closes their own account; the maker's accounts (staff and sales reps) are
 * closed in the back office, where the last active staff account cannot be
 * (docs/api.md#people-staff-accounts).
 */
export const ACCOUNT_CLOSED_BY_STAFF =
  'Staff and sales rep accounts are closed in the back office (People), not here.';

export async function deleteAccount(db: Db, account: Account, password: string): Promise<void> {
  if (account.user.role !== 'USER') {
    throw new HttpError(403, ACCOUNT_CLOSED_BY_STAFF, undefined, {
      code: 'ACCOUNT_CLOSED_BY_STAFF',
    });
  }
  if (!(await verifyPassword(account.user.passwordHash, password))) {
    throw new HttpError(400, 'The password is not correct.', [
      { field: 'password', message: 'The password is not correct.', code: 'currentPasswordWrong' },
    ]);
  }
  await revokeAllSessions(db, account.user.id);
  await db
    .update(users)
    .set({
      email: `deleted-${account.user.id}-${randomBytes(6).toString('hex')}@deleted.invalid`,
      firstName: '',
      lastName: '',
      passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
      notifyOrders: false,
      notifyProducts: false,
      notifyMarketing: false,
      deletedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(users.id, account.user.id));
}
