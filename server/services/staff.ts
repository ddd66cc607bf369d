/**
 * The maker's accounts (staff, role ADMIN, and sales reps, role SALES_REP), as the back
 * office's People page manages them:
 * list, create with a temporary password, deactivate, reactivate, reset the password.
 *
 * A temporary password is made here, stored only as its argon2id hash and handed back once,
 * in the answer of the change that made it; the person who made it hands it over (there is
 * no e-mail invitation yet). Deactivating or resetting ends the account's sessions through
 * the database (refresh tokens revoked, the accounts' version moved by the triggers of
 * migration 0006), so that every server process refuses its tokens at the next request.
 */
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { STAFF_ROLES } from '../../src/contracts/states.js';
import type { StaffCreate, StaffMember } from '../../src/contracts/admin-schemas.js';
import { validateStaff } from '../../src/contracts/form-schemas.js';
import { normalizeEmail, trimFields } from '../../src/contracts/validation.js';
import type { Db } from '../db/database.js';
import { users } from '../db/schema.js';
import type { UserRow } from './accounts.js';
import { endAccountTokens } from './account-tokens.js';
import { actorUserId, recordAudit, type AuditActor } from './audit.js';
import { HttpError, invalidFields, notFound } from './errors.js';
import { hashPassword } from './passwords.js';
import { revokeAllSessions } from './tokens.js';

/**
 * The characters of a temporary password: letters and digits that cannot be taken for one
 * another when read out over the phone or typed from a note (no 0/O/o, 1/l/I, 2/Z/z,
 * 5/S/s, 8 for B, 9 for g), and no sign a reader has to name.
 */
const TEMPORARY_PASSWORD_CHARACTERS = 'ABCDEFGHJKMNPQRTUVWXYabcdefghijkmnpqrtuvwxy3467';
/** 16 of them: about 89 random bits, short enough to read out or type. */
const TEMPORARY_PASSWORD_LENGTH = 16;

export const newTemporaryPassword = (): string =>
  Array.from(
    { length: TEMPORARY_PASSWORD_LENGTH },
    () => TEMPORARY_PASSWORD_CHARACTERS[randomInt(TEMPORARY_PASSWORD_CHARACTERS.length)],
  ).join('');

export const EMAIL_IN_USE = 'This e-mail address already has an account.';
export const CANNOT_DEACTIVATE_SELF =
  'You cannot deactivate your own account. Ask another staff member to do it.';
export const LAST_ACTIVE_STAFF =
  'This is the last active staff account: the back office would have nobody left to run it. Add or reactivate another staff member first.';
export const CANNOT_RESET_OWN =
  'Change your own password from your profile: a reset would sign you out here.';

function toMember(row: UserRow): StaffMember {
  if (row.role === 'USER') throw new Error(`Account ${row.id} is a salon's, not staff`);
  return {
    id: row.id,
    role: row.role,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    active: row.deactivatedAt === null,
    createdAt: row.createdAt.toISOString(),
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  };
}

/** The maker's accounts: staff of the back office and sales reps. */
const isStaff = and(inArray(users.role, [...STAFF_ROLES]), isNull(users.deletedAt));
/** Who can run the back office: the last of them is never deactivated. */
const isBackOffice = and(eq(users.role, 'ADMIN'), isNull(users.deletedAt));

/** `GET /api/admin/staff`: active accounts first, then by name. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .select()
    .from(users)
    .where(isStaff)
    .orderBy(
      sql`${users.deactivatedAt} IS NOT NULL`,
      asc(sql`lower(${users.firstName})`),
      asc(sql`lower(${users.lastName})`),
      asc(users.id),
    );
  return rows.map(toMember);
}

async function lockedStaff(db: Db, id: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isStaff))
    .for('update');
  if (!row) throw notFound('Staff member not found');
  return row;
}

const staffLabel = (row: Pick<UserRow, 'firstName' | 'lastName' | 'email'>) => ({
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
});

/**
 * `POST /api/admin/staff`: a new staff account and its temporary password.
 *
 * 1. Trim and check the fields (400 with each field's rule).
 * 2. An e-mail any account has already, customer or staff, is a 409 on the field `email`.
 * 3. Store the account with the hash of a new temporary password; record it in the log
 *    (never the password) in the same transaction.
 */
export async function createStaff(
  db: Db,
  input: StaffCreate,
  actor: AuditActor,
  temporaryPassword = newTemporaryPassword(),
): Promise<{ member: StaffMember; temporaryPassword: string | null }> {
  const values = trimFields(input, ['firstName', 'lastName', 'email']);
  const errors = validateStaff(values);
  if (errors.length > 0) throw invalidFields(errors);
  const email = normalizeEmail(values.email);
  const emailTaken = () =>
    new HttpError(409, EMAIL_IN_USE, [
      { field: 'email', code: 'emailTaken', message: EMAIL_IN_USE },
    ]);
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email));
  if (existing) throw emailTaken();
  const passwordHash = await hashPassword(temporaryPassword);
  const [row] = await db
    .insert(users)
    .values({
      email,
      passwordHash,
      firstName: values.firstName,
      lastName: values.lastName,
      role: input.role ?? 'ADMIN',
    })
    // Two requests for one e-mail at once: the second finds the unique index.
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!row) throw emailTaken();
  await recordAudit(db, {
    actor,
    action: 'staff.create',
    entityType: 'staff',
    entityId: row.id,
    companyId: null,
    before: null,
    after: { ...staffLabel(row), role: row.role, active: true },
  });
  return { member: toMember(row), temporaryPassword };
}

/**
 * `POST /api/admin/staff/{id}/deactivate`.
 *
 * 1. Lock every active staff account, in id order (the order every such change takes
 *    them in): two deactivations at once are made one after the other, and the second
 *    counts what the first left.
 * 2. Refuse (409) one's own account, and the last active one.
 * 3. Mark the account, end its sessions and record it, in one transaction.
 */
export async function deactivateStaff(db: Db, id: number, actor: AuditActor): Promise<StaffMember> {
  const active = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isBackOffice, isNull(users.deactivatedAt)))
    .orderBy(asc(users.id))
    .for('update');
  const row = await lockedStaff(db, id);
  if (row.deactivatedAt) {
    throw new HttpError(409, 'This staff account is already deactivated.', undefined, {
      code: 'STAFF_ALREADY_INACTIVE',
    });
  }
  if (actorUserId(actor) === id) {
    throw new HttpError(409, CANNOT_DEACTIVATE_SELF, undefined, { code: 'STAFF_SELF' });
  }
  if (row.role === 'ADMIN' && active.filter((staff) => staff.id !== id).length === 0) {
    throw new HttpError(409, LAST_ACTIVE_STAFF, undefined, { code: 'STAFF_LAST_ACTIVE' });
  }
  const now = new Date();
  const [updated = row] = await db
    .update(users)
    .set({ deactivatedAt: now, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  await revokeAllSessions(db, id);
  await recordAudit(db, {
    actor,
    action: 'staff.deactivate',
    entityType: 'staff',
    entityId: id,
    companyId: null,
    before: { active: true },
    after: { active: false },
  });
  return toMember(updated);
}

/** `POST /api/admin/staff/{id}/reactivate`: signs in again with the password it had. */
export async function reactivateStaff(db: Db, id: number, actor: AuditActor): Promise<StaffMember> {
  const row = await lockedStaff(db, id);
  if (!row.deactivatedAt) {
    throw new HttpError(409, 'This staff account is already active.', undefined, {
      code: 'STAFF_ALREADY_ACTIVE',
    });
  }
  const [updated = row] = await db
    .update(users)
    .set({ deactivatedAt: null, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  await recordAudit(db, {
    actor,
    action: 'staff.reactivate',
    entityType: 'staff',
    entityId: id,
    companyId: null,
    before: { active: false },
    after: { active: true },
  });
  return toMember(updated);
}

/**
 * `POST /api/admin/staff/{id}/reset-password`: a new temporary password, once; the old
 * password and every session of the account stop working. One's own password is changed
 * from the profile instead (409).
 */
export async function resetStaffPassword(
  db: Db,
  id: number,
  actor: AuditActor,
  temporaryPassword = newTemporaryPassword(),
): Promise<{ member: StaffMember; temporaryPassword: string | null }> {
  if (actorUserId(actor) === id) {
    throw new HttpError(409, CANNOT_RESET_OWN, undefined, { code: 'STAFF_SELF' });
  }
  const passwordHash = await hashPassword(temporaryPassword);
  const row = await lockedStaff(db, id);
  const [updated = row] = await db
    .update(users)
    .set({ passwordHash, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  await revokeAllSessions(db, id);
  // A reset link e-mailed before (to a mailbox that may be the leak) no longer sets one.
  await endAccountTokens(db, id, 'password-reset');
  await recordAudit(db, {
    actor,
    action: 'staff.reset-password',
    entityType: 'staff',
    entityId: id,
    companyId: null,
    before: null,
    after: null,
  });
  return { member: toMember(updated), temporaryPassword };
}
