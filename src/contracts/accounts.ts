/**
 * Accounts, companies and their documents as the /api sends them, and the rules that
 * decide what a user may do and how a company's verification reads
 * (docs/product.md#company-verification). Every first screen loads this module: how the
 * documents read on the profile is in ./company-documents.
 */

import type { CompanySummary } from './accounts-schemas';
import type { COMPANY_STATUSES, DOCUMENT_STATUSES, DOCUMENT_TYPES, ROLES } from './states';

/** The shapes are stated once, as JSON schemas; these are their types. */
export { COMPANY_STATUSES, DOCUMENT_STATUSES, DOCUMENT_TYPES, ROLES } from './states';

export type {
  Company,
  CompanyDocument,
  CompanySummary,
  NotificationSettings,
  User,
} from './accounts-schemas';

export type CompanyStatus = (typeof COMPANY_STATUSES)[number];

export type Role = (typeof ROLES)[number];

/**
 * Calls that never carry, nor depend on, an access token: signing in, registering,
 * renewing and ending a session. `path` is an address's path, with or without its query.
 */
export const isTokenFreePath = (path: string): boolean =>
  /^\/api\/auth\/(login|register|register-company|refresh|logout)(\?|$)/.test(path);

export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Upload field names and the document type each one carries (docs/product.md#documents). */
export const DOCUMENT_FIELDS = {
  businessLicense: 'BUSINESS_LICENSE',
  vatRegistration: 'VAT_REGISTRATION',
  tradeRegister: 'TRADE_REGISTER',
  identityDocument: 'IDENTITY_DOCUMENT',
  bankStatement: 'BANK_STATEMENT',
  taxCertificate: 'TAX_CERTIFICATE',
  incorporationDocument: 'INCORPORATION_DOCUMENT',
  otherDocument: 'OTHER',
} as const satisfies Record<string, DocumentType>;
export type DocumentField = keyof typeof DOCUMENT_FIELDS;

/** A file chosen for a document field, before it is sent. */
export interface ChosenDocument {
  field: DocumentField;
  file: File;
}

/** The three documents every company is asked for, in the order the profile shows them. */
export const REQUIRED_DOCUMENTS = [
  { key: 'registration', type: 'TRADE_REGISTER', field: 'tradeRegister' },
  { key: 'vat', type: 'VAT_REGISTRATION', field: 'vatRegistration' },
  { key: 'identity', type: 'IDENTITY_DOCUMENT', field: 'identityDocument' },
] as const satisfies readonly { key: string; type: DocumentType; field: DocumentField }[];

export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Largest document accepted, in bytes (5 MB). */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

/** Prices, cart and checkout need a verified company whose status is APPROVED. */
export function canSeePrices(
  company: Pick<CompanySummary, 'isVerified' | 'status'> | null | undefined,
): boolean {
  return company?.isVerified === true && company.status === 'APPROVED';
}

export type VerificationDisplay = 'verified' | 'suspended' | 'pending';

/** How a company's state reads to its user (docs/product.md#company-verification). */
export function verificationDisplay(
  company: Pick<CompanySummary, 'isVerified' | 'status'> | null | undefined,
): VerificationDisplay {
  if (canSeePrices(company)) return 'verified';
  if (company?.status === 'SUSPENDED') return 'suspended';
  return 'pending';
}
