/**
 * What validation speaks of (docs/product.md#validation): the message codes, the limits of
 * every text, the countries offered. Each error names a field and a message code; the code
 * is a translation key under `validation.` in the locale files. The rules themselves are
 * schemas (./form-schemas.ts), loaded by forms and the server only.
 */

export const VALIDATION_CODES = [
  'required',
  'emailRequired',
  'emailAddressRequired',
  'emailInvalid',
  'emailFormat',
  'passwordRequired',
  'passwordTooShort',
  'passwordTooShortWizard',
  'passwordWeak',
  'passwordsDoNotMatch',
  'firstNameRequired',
  'lastNameRequired',
  'companyRequired',
  'taxNumberRequired',
  'registrationNumberRequired',
  'phoneInvalid',
  'countryInvalid',
  'websiteInvalid',
  'termsRequired',
  'tooLong',
  'currentPasswordRequired',
] as const;
export type ValidationCode = (typeof VALIDATION_CODES)[number];

export interface FieldError {
  field: string;
  code: ValidationCode;
}

/** Countries offered by the company wizard; Romania is the default. */
export const COUNTRIES = ['Romania', 'Italy', 'Germany', 'France', 'Spain', 'Other'] as const;
export const DEFAULT_COUNTRY = 'Romania';

/** Minimum password length of the person form (with upper, lower case and a digit). */
export const PASSWORD_MIN_LENGTH = 8;
/** Minimum password length of the company wizard (docs/product.md#validation). */
export const WIZARD_PASSWORD_MIN_LENGTH = 6;
/** Longest value of an ordinary text field; longer input is refused, not cut. */
export const MAX_TEXT_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
/** Longest password accepted: hashing is deliberately slow, so unbounded input is a risk. */
export const MAX_PASSWORD_LENGTH = 128;

/** Trims the text fields the quick registration trims (docs/product.md#registration). */
export function trimFields<T extends object>(values: T, fields: readonly (keyof T)[]): T {
  const copy = { ...values };
  for (const field of fields) {
    const value = copy[field];
    if (typeof value === 'string') copy[field] = value.trim() as T[keyof T];
  }
  return copy;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
