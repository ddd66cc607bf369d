/**
 * Registration: the quick form and the four-step wizard. New companies wait for the
 * maker's staff to verify them (PENDING).
 *
 * Whether an e-mail already has an account must not show, neither in the answer nor in
 * its timing: a registration for a taken e-mail hashes its password, writes its
 * documents and runs its final transaction like a new one, and only that transaction,
 * finding the e-mail taken, rolls back. Both answer the same 201 without the user.
 */
import { validateRegisterPayload, validateWizard } from '../../src/contracts/form-schemas.js';
import { DEFAULT_COUNTRY, normalizeEmail, trimFields } from '../../src/contracts/validation.js';
import type { Language } from '../../src/contracts/languages.js';
import type { Db } from '../db/database.js';
import { companies, users } from '../db/schema.js';
import { emailTaken } from './accounts.js';
import { sendVerificationLink } from './account-links.js';
import { queueMail } from './mail/queue.js';
import { attachDocuments, discardStagedDocuments, stageDocuments } from './documents.js';
import { invalidFields } from './errors.js';
import { hashPassword } from './passwords.js';
import { inTransaction } from './transactions.js';
import type { SpooledFile } from './upload-spool.js';

/**
 * What a registration's request says besides its fields: where the links of the e-mails
 * sent at registration lead (the site's public address), and the language they are in.
 */
export interface AccountLinks {
  publicUrl: string;
  /**
   * The language the request names (request-language.ts): the user's e-mail is written in
   * it from now on. Null or absent: the default, Romanian.
   */
  language?: Language | null;
}

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

/** Text fields of the quick form that are stored as sent, less surrounding spaces. */
const QUICK_FORM_TEXT = [
  'email',
  'firstName',
  'lastName',
  'companyName',
  'taxNumber',
  'companyEmail',
  'companyPhone',
  'companyAddress',
  'companyCity',
  'companyState',
  'companyZipCode',
  'companyCountry',
  'registrationNumber',
  'website',
] as const satisfies readonly (keyof RegisterPayload)[];

/**
 * The quick form: a person and their company. The company's e-mail is the person's
 * unless another is given, its country Romania unless another is given.
 */
export async function registerPerson(
  db: Db,
  raw: RegisterPayload,
  links: AccountLinks,
): Promise<void> {
  const payload = trimFields(raw, QUICK_FORM_TEXT);
  const errors = validateRegisterPayload(payload);
  if (errors.length > 0) throw invalidFields(errors);
  const email = normalizeEmail(payload.email);
  await createAccount(
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
      email: payload.companyEmail ? normalizeEmail(payload.companyEmail) : email,
      phone: payload.companyPhone ?? '',
      address: payload.companyAddress ?? '',
      city: payload.companyCity ?? '',
      state: payload.companyState ?? '',
      postalCode: payload.companyZipCode ?? '',
      country: payload.companyCountry || DEFAULT_COUNTRY,
      registrationNumber: payload.registrationNumber ?? '',
      website: payload.website ?? '',
    },
    [],
    links,
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
  links: AccountLinks,
  signal?: AbortSignal,
): Promise<void> {
  const payload = trimFields(
    raw,
    WIZARD_FIELDS.filter((f) => f !== 'password' && f !== 'confirmPassword'),
  );
  const errors = validateWizard({
    ...payload,
    confirmPassword: raw.confirmPassword ?? raw.password,
  });
  if (errors.length > 0) throw invalidFields(errors);
  await createAccount(
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
    links,
    signal,
  );
}

/** Rolls back the final transaction of a registration whose e-mail is taken. */
class EmailTaken extends Error {}

const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { cause?: { code?: string }; code?: string }) ?? {};
  return cause.code === '23505' || cause.cause?.code === '23505';
};

/**
 * Creates the user and the company with its documents, or, when the e-mail is taken,
 * does the same work and creates nothing (see the header). Resolves the same either way.
 */
async function createAccount(
  db: Db,
  person: { email: string; password: string; firstName: string; lastName: string },
  company: Omit<typeof companies.$inferInsert, 'status' | 'isVerified'>,
  files: readonly SpooledFile[],
  links: AccountLinks,
  signal?: AbortSignal,
): Promise<void> {
  const passwordHash = await hashPassword(person.password);
  const staged = await stageDocuments(db, files, signal);
  try {
    await inTransaction(db, async (tx) => {
      if (await emailTaken(tx, person.email)) throw new EmailTaken();
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
          ...(links.language ? { language: links.language } : {}),
        })
        .returning({ id: users.id, email: users.email, language: users.language });
      await attachDocuments(tx, companyId, staged);
      // The link that confirms the address, sent only for an account made here.
      if (user) await sendVerificationLink(tx, user, links.publicUrl);
      if (user) {
        await queueMail(
          tx,
          { email: user.email, language: user.language, userId: user.id },
          { kind: 'registration-received', data: { companyName: company.name } },
        );
      }
    });
  } catch (error) {
    // A taken e-mail, also one taken a moment ago by a registration running alongside.
    if (!(error instanceof EmailTaken) && !isUniqueViolation(error)) throw error;
  } finally {
    // Linked documents are kept; the others (a taken e-mail, a failure) are removed.
    await discardStagedDocuments(db, staged);
  }
}
