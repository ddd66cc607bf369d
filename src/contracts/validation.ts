/**
 * Validation rules (docs/product.md#validation), one module for the browser (messages as
 * the user types) and the server (which enforces them again). Each error names a field and
 * a message code; the code is a translation key under `validation.` in the locale files.
 */
import { isEmailAddress } from './email';

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

const PHONE_SHAPE = /^\+?[0-9 ().-]{6,20}$/;
const WEBSITE_SHAPE = /^(https?:\/\/)?[\w-]+(\.[\w-]+)+([/?#]\S*)?$/i;

/** Any object of form values; fields the rules do not name are ignored. */
type Values = object;
type Rule = (value: string, values: Values) => ValidationCode | null;

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'boolean' ? String(value) : '';

const required =
  (code: ValidationCode = 'required'): Rule =>
  (value) =>
    value.trim() ? null : code;
const maxLength =
  (max: number): Rule =>
  (value) =>
    value.length > max ? 'tooLong' : null;
const emailShape =
  (code: ValidationCode = 'emailInvalid'): Rule =>
  (value) =>
    !value.trim() || isEmailAddress(value.trim()) ? null : code;
const minLength =
  (min: number, code: ValidationCode): Rule =>
  (value) =>
    !value || value.length >= min ? null : code;
const strongPassword: Rule = (value) =>
  !value || (/[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value))
    ? null
    : 'passwordWeak';
const matches =
  (other: string): Rule =>
  (value, values) =>
    value === text((values as Record<string, unknown>)[other]) ? null : 'passwordsDoNotMatch';
const phoneShape: Rule = (value) =>
  !value.trim() || PHONE_SHAPE.test(value.trim()) ? null : 'phoneInvalid';
const websiteShape: Rule = (value) =>
  !value.trim() || WEBSITE_SHAPE.test(value.trim()) ? null : 'websiteInvalid';
const oneOf =
  (options: readonly string[], code: ValidationCode): Rule =>
  (value) =>
    !value || options.includes(value) ? null : code;

function check(values: Values, rules: Record<string, Rule[]>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, fieldRules] of Object.entries(rules)) {
    const value = text((values as Record<string, unknown>)[field]);
    for (const rule of fieldRules) {
      const code = rule(value, values);
      if (code) {
        errors.push({ field, code });
        break;
      }
    }
  }
  return errors;
}

const personPassword = [
  required('passwordRequired'),
  maxLength(MAX_PASSWORD_LENGTH),
  minLength(PASSWORD_MIN_LENGTH, 'passwordTooShort'),
  strongPassword,
];
const wizardPassword = [
  required('passwordRequired'),
  maxLength(MAX_PASSWORD_LENGTH),
  minLength(WIZARD_PASSWORD_MIN_LENGTH, 'passwordTooShortWizard'),
];
const firstName = [required('firstNameRequired'), maxLength(MAX_TEXT_LENGTH)];
const lastName = [required('lastNameRequired'), maxLength(MAX_TEXT_LENGTH)];
const optionalText = [maxLength(MAX_TEXT_LENGTH)];

export const LOGIN_RULES = {
  email: [required('emailAddressRequired'), maxLength(MAX_EMAIL_LENGTH), emailShape()],
  password: [required('passwordRequired'), maxLength(MAX_PASSWORD_LENGTH)],
};

/** The person form of /register. */
export const REGISTER_FORM_RULES = {
  firstName,
  lastName,
  email: [required('emailRequired'), maxLength(MAX_EMAIL_LENGTH), emailShape()],
  company: [required('companyRequired'), maxLength(MAX_TEXT_LENGTH)],
  taxNumber: [required('taxNumberRequired'), maxLength(MAX_TEXT_LENGTH)],
  password: personPassword,
  confirmPassword: [required('passwordRequired'), matches('password')],
  acceptTerms: [(value: string) => (value === 'true' ? null : 'termsRequired')] as Rule[],
};

/** The payload of POST /api/auth/register (field names of docs/api.md#registration). */
export const REGISTER_PAYLOAD_RULES = {
  email: [required('emailRequired'), maxLength(MAX_EMAIL_LENGTH), emailShape()],
  password: personPassword,
  firstName,
  lastName,
  companyName: [required('companyRequired'), maxLength(MAX_TEXT_LENGTH)],
  taxNumber: [required('taxNumberRequired'), maxLength(MAX_TEXT_LENGTH)],
  companyPhone: [maxLength(MAX_TEXT_LENGTH), phoneShape],
  registrationNumber: optionalText,
  website: [maxLength(MAX_TEXT_LENGTH), websiteShape],
};

/** The four steps of the company wizard; the last (documents) has no required field. */
export const WIZARD_STEP_RULES: Record<1 | 2 | 3 | 4, Record<string, Rule[]>> = {
  1: {
    firstName,
    lastName,
    email: [required('emailRequired'), maxLength(MAX_EMAIL_LENGTH), emailShape()],
    password: wizardPassword,
    confirmPassword: [required('passwordRequired'), matches('password')],
  },
  2: {
    companyName: [required('companyRequired'), maxLength(MAX_TEXT_LENGTH)],
    taxNumber: [required('taxNumberRequired'), maxLength(MAX_TEXT_LENGTH)],
    registrationNumber: [required('registrationNumberRequired'), maxLength(MAX_TEXT_LENGTH)],
    companyEmail: [required(), maxLength(MAX_EMAIL_LENGTH), emailShape('emailFormat')],
    companyPhone: [required(), maxLength(MAX_TEXT_LENGTH), phoneShape],
  },
  3: {
    address: [required(), maxLength(MAX_TEXT_LENGTH)],
    city: [required(), maxLength(MAX_TEXT_LENGTH)],
    postalCode: [required(), maxLength(MAX_TEXT_LENGTH)],
    country: [required(), oneOf(COUNTRIES, 'countryInvalid')],
    website: [maxLength(MAX_TEXT_LENGTH), websiteShape],
  },
  4: {},
};

export const PROFILE_RULES = { firstName, lastName };

/** The shipping address asked for at checkout. */
export const SHIPPING_RULES = {
  firstName,
  lastName,
  street: [required(), maxLength(MAX_TEXT_LENGTH)],
  city: [required(), maxLength(MAX_TEXT_LENGTH)],
  zipCode: [required(), maxLength(MAX_TEXT_LENGTH)],
  country: [required(), maxLength(MAX_TEXT_LENGTH)],
  phone: [required(), maxLength(MAX_TEXT_LENGTH), phoneShape],
};

/**
 * A company's data as staff correct it (PATCH /api/admin/companies/{id}): the name stays
 * required; the other fields may be emptied, and keep the shapes registration asks for.
 */
export const COMPANY_EDIT_RULES = {
  name: [required('companyRequired'), maxLength(MAX_TEXT_LENGTH)],
  taxNumber: optionalText,
  registrationNumber: optionalText,
  email: [maxLength(MAX_EMAIL_LENGTH), emailShape('emailFormat')],
  phone: [maxLength(MAX_TEXT_LENGTH), phoneShape],
  address: optionalText,
  city: optionalText,
  state: optionalText,
  postalCode: optionalText,
  country: optionalText,
  website: [maxLength(MAX_TEXT_LENGTH), websiteShape],
};

export const PASSWORD_CHANGE_RULES = {
  currentPassword: [required('currentPasswordRequired'), maxLength(MAX_PASSWORD_LENGTH)],
  newPassword: personPassword,
  confirmPassword: [required('passwordRequired'), matches('newPassword')],
};

export const validateLogin = (values: Values) => check(values, LOGIN_RULES);
export const validateRegisterForm = (values: Values) => check(values, REGISTER_FORM_RULES);
export const validateRegisterPayload = (values: Values) => check(values, REGISTER_PAYLOAD_RULES);
export const validateWizardStep = (step: 1 | 2 | 3 | 4, values: Values) =>
  check(values, WIZARD_STEP_RULES[step]);
export const validateWizard = (values: Values) =>
  ([1, 2, 3, 4] as const).flatMap((step) => validateWizardStep(step, values));
export const validateProfile = (values: Values) => check(values, PROFILE_RULES);
export const validateShipping = (values: Values) => check(values, SHIPPING_RULES);
export const validatePasswordChange = (values: Values) => check(values, PASSWORD_CHANGE_RULES);
export const validateCompanyEdit = (values: Values) => check(values, COMPANY_EDIT_RULES);
/** A new staff account (POST /api/admin/staff): a name and an e-mail; no password is typed. */
export const STAFF_RULES = {
  firstName,
  lastName,
  email: [required('emailRequired'), maxLength(MAX_EMAIL_LENGTH), emailShape()],
};
export const validateStaff = (values: Values) => check(values, STAFF_RULES);
export const validatePasswordChangePayload = (values: Values) =>
  check(values, {
    currentPassword: PASSWORD_CHANGE_RULES.currentPassword,
    newPassword: personPassword,
  });

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
