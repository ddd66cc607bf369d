/**
 * Registration: the quick form and the four-step wizard. New companies wait for the
 * maker's staff to verify them (PENDING).
 */
import {
  DEFAULT_COUNTRY,
  normalizeEmail,
  trimFields,
  validateRegisterPayload,
  validateWizard,
} from '../../src/contracts/validation.js';
import type { User } from '../../src/contracts/accounts.js';
import type { Db } from '../db/database.js';
import { companies, users } from '../db/schema.js';
import { emailTaken, findAccount, toUserDto } from './accounts.js';
import { attachDocuments, discardStagedDocuments, stageDocuments } from './documents.js';
import { conflict, invalidFields } from './errors.js';
import { hashPassword } from './passwords.js';
import type { SpooledFile } from './upload-spool.js';

export const EMAIL_TAKEN =
  'An account with this email address already exists. Please sign in instead.';

export interface RegisterPayload {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  companyName: string;
  taxNumber: string;
  companyEmail?: string;
  companyPhone?: string;
  companyAddress?: string;
  companyCity?: string;
  companyState?: string;
  companyZipCode?: string;
  companyCountry?: string;
  registrationNumber?: string;
  website?: string;
}

const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { cause?: { code?: string }; code?: string }) ?? {};
  return cause.code === '23505' || cause.cause?.code === '23505';
};

/** The quick form: a person and their company, the company's e-mail being the person's. */
export async function registerPerson(db: Db, raw: RegisterPayload): Promise<User> {
  const payload = trimFields(raw, ['email', 'firstName', 'lastName', 'companyName', 'taxNumber']);
  const errors = validateRegisterPayload(payload);
  if (errors.length > 0) throw invalidFields(errors);
  const email = normalizeEmail(payload.email);
  return createAccount(
    db,
    {
      email,
      password: payload.password,
      firstName: payload.firstName,
      lastName: payload.lastName,
    },
    {
      name: payload.companyName,
      taxNumber: payload.taxNumber,
      email,
      phone: payload.companyPhone?.trim() ?? '',
      registrationNumber: payload.registrationNumber?.trim() ?? '',
      website: payload.website?.trim() ?? '',
      country: DEFAULT_COUNTRY,
    },
    [],
  );
}

export interface WizardPayload {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword?: string;
  companyName: string;
  taxNumber: string;
  registrationNumber: string;
  companyEmail: string;
  companyPhone: string;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  website?: string;
}

export const WIZARD_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'password',
  'confirmPassword',
  'companyName',
  'taxNumber',
  'registrationNumber',
  'companyEmail',
  'companyPhone',
  'address',
  'city',
  'postalCode',
  'country',
  'website',
] as const;

/**
 * The four-step wizard: person, company, address, and optionally its documents, which
 * wait in temporary files until the fields are known to be valid.
 */
export async function registerCompany(
  db: Db,
  raw: WizardPayload,
  files: readonly SpooledFile[],
  signal?: AbortSignal,
): Promise<User> {
  const payload = trimFields(
    raw,
    WIZARD_FIELDS.filter((f) => f !== 'password' && f !== 'confirmPassword'),
  );
  const errors = validateWizard({
    ...payload,
    confirmPassword: raw.confirmPassword ?? raw.password,
  });
  if (errors.length > 0) throw invalidFields(errors);
  return createAccount(
    db,
    {
      email: normalizeEmail(payload.email),
      password: payload.password,
      firstName: payload.firstName,
      lastName: payload.lastName,
    },
    {
      name: payload.companyName,
      taxNumber: payload.taxNumber,
      registrationNumber: payload.registrationNumber,
      email: normalizeEmail(payload.companyEmail),
      phone: payload.companyPhone,
      address: payload.address,
      city: payload.city,
      postalCode: payload.postalCode,
      country: payload.country,
      website: payload.website ?? '',
    },
    files,
    signal,
  );
}

async function createAccount(
  db: Db,
  person: { email: string; password: string; firstName: string; lastName: string },
  company: Omit<typeof companies.$inferInsert, 'status' | 'isVerified'>,
  files: readonly SpooledFile[],
  signal?: AbortSignal,
): Promise<User> {
  if (await emailTaken(db, person.email)) throw conflict(EMAIL_TAKEN);
  const passwordHash = await hashPassword(person.password);
  const staged = await stageDocuments(db, files, signal);
  try {
    const userId = await db.transaction(async (tx) => {
      const [created] = await tx.insert(companies).values(company).returning({ id: companies.id });
      const companyId = created?.id as number;
      const [user] = await tx
        .insert(users)
        .values({
          email: person.email,
          passwordHash,
          firstName: person.firstName,
          lastName: person.lastName,
          companyId,
        })
        .returning({ id: users.id });
      await attachDocuments(tx as unknown as Db, companyId, staged);
      return user?.id as number;
    });
    const account = await findAccount(db, userId);
    if (!account) throw new Error('The new account could not be read back');
    return toUserDto(account);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
    throw error;
  } finally {
    // Linked documents are kept; the others (a failure) are removed.
    await discardStagedDocuments(db, staged);
  }
}
