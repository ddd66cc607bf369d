/**
 * The forms' rules as JSON schemas (docs/product.md#validation), one module for the browser
 * (messages as the user types) and the server (which enforces them again). Only forms and
 * the server load this module: it brings TypeBox's checker, which no first screen needs.
 *
 * A field's schema says which message code each broken rule gets:
 * - `codes` names the code of a JSON-schema keyword: `pattern` (the field is blank: every
 *   required text has the pattern NOT_BLANK), `minLength`, `const`, `maxItems`; a longer
 *   text than `maxLength` is `tooLong` unless `codes` names another (a product's tags);
 * - a refinement (`Type.Refine`) carries its code as its message: the shapes of e-mails,
 *   phones, web addresses and strong passwords. TypeBox runs it only once the field's
 *   keywords hold, so each field is reported with the first rule it broke;
 * - `sameAs` names the field a confirmation must repeat.
 */
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { MAX_STAFF_NAME_LENGTH } from './admin';
import {
  CATEGORY_ID_SHAPE,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  PRODUCT_TEXT_FIELDS,
  PRODUCT_TEXT_LIMITS,
  priceOf,
  SKU_SHAPE,
  stockOf,
  type ProductErrorCode,
  type ProductTexts,
  type ProductValues,
} from './admin-catalogue';
import { MAX_DOCUMENT_BYTES } from './accounts';
import { eanOf, isValidEan13 } from './barcodes';
import { isEmailAddress } from './email';
import { LANGUAGES, type Language } from './languages';
import {
  COUNTRIES,
  MAX_EMAIL_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_TEXT_LENGTH,
  PASSWORD_MIN_LENGTH,
  trimFields,
  WIZARD_PASSWORD_MIN_LENGTH,
  type ValidationCode,
} from './validation';

/** A text with something in it besides spaces. */
const NOT_BLANK = '\\S';

/** A message code: the forms' (validation.ts) or the back office catalogue's. */
type Code = ValidationCode | ProductErrorCode;

type Keyword = 'pattern' | 'minLength' | 'const' | 'maxItems' | 'maxLength';
type Codes = Partial<Record<Keyword, Code>>;

interface TextRule {
  /** The code of a blank (or missing) value; an optional text leaves it out. */
  blank?: Code;
  max?: number;
  min?: { length: number; code: Code };
  /** Further checks of a value that keeps the rules above, in order, each with its code. */
  shapes?: readonly Shape[];
  /** The field whose value this one must repeat. */
  sameAs?: string;
}

interface Shape {
  test: (value: string) => boolean;
  code: Code;
}

const PHONE_SHAPE = /^\+?[0-9 ().-]{6,20}$/;
const WEBSITE_SHAPE = /^(https?:\/\/)?[\w-]+(\.[\w-]+)+([/?#]\S*)?$/i;

/** A shape an empty value keeps: whether a field must be filled is the `blank` rule's. */
const shape = (test: (trimmed: string) => boolean, code: Code): Shape => ({
  test: (value) => !value.trim() || test(value.trim()),
  code,
});
const email = (code: ValidationCode = 'emailInvalid') => shape(isEmailAddress, code);
const phone = shape((value) => PHONE_SHAPE.test(value), 'phoneInvalid');
const website = shape((value) => WEBSITE_SHAPE.test(value), 'websiteInvalid');
const country = shape(
  (value) => (COUNTRIES as readonly string[]).includes(value),
  'countryInvalid',
);
const strongPassword = shape(
  (value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value),
  'passwordWeak',
);

/** A text field with its rules. */
function text({ blank, max = MAX_TEXT_LENGTH, min, shapes = [], sameAs }: TextRule = {}) {
  const codes: Codes = {
    ...(blank ? { pattern: blank } : {}),
    ...(min ? { minLength: min.code } : {}),
  };
  let schema = Type.String({
    maxLength: max,
    ...(blank ? { pattern: NOT_BLANK } : {}),
    ...(min ? { minLength: min.length } : {}),
    ...(sameAs ? { sameAs } : {}),
    codes,
  });
  for (const { test, code } of shapes) schema = Type.Refine(schema, test, () => code);
  return schema;
}

const optionalText = () => Type.Optional(text());
const firstName = () => text({ blank: 'firstNameRequired' });
const lastName = () => text({ blank: 'lastNameRequired' });
const emailField = () => text({ blank: 'emailRequired', max: MAX_EMAIL_LENGTH, shapes: [email()] });
const personPassword = () =>
  text({
    blank: 'passwordRequired',
    max: MAX_PASSWORD_LENGTH,
    min: { length: PASSWORD_MIN_LENGTH, code: 'passwordTooShort' },
    shapes: [strongPassword],
  });
const confirmation = (of: string) => text({ blank: 'passwordRequired', sameAs: of });
const companyName = () => text({ blank: 'companyRequired' });
const taxNumber = () => text({ blank: 'taxNumberRequired' });

export const LoginFormSchema = Type.Object({
  email: text({ blank: 'emailAddressRequired', max: MAX_EMAIL_LENGTH, shapes: [email()] }),
  password: text({ blank: 'passwordRequired', max: MAX_PASSWORD_LENGTH }),
});

/** The person form of /register. */
export const RegisterFormSchema = Type.Object({
  firstName: firstName(),
  lastName: lastName(),
  email: emailField(),
  company: companyName(),
  taxNumber: taxNumber(),
  password: personPassword(),
  confirmPassword: confirmation('password'),
  acceptTerms: Type.Literal(true, { codes: { const: 'termsRequired' } }),
});

/** The payload of POST /api/auth/register (field names of docs/api.md#registration). */
export const RegisterPayloadSchema = Type.Object({
  email: emailField(),
  password: personPassword(),
  firstName: firstName(),
  lastName: lastName(),
  companyName: companyName(),
  taxNumber: taxNumber(),
  companyPhone: Type.Optional(text({ shapes: [phone] })),
  registrationNumber: optionalText(),
  website: Type.Optional(text({ shapes: [website] })),
  // Optional here; when given, the wizard's rules for the same facts.
  companyEmail: Type.Optional(text({ max: MAX_EMAIL_LENGTH, shapes: [email('emailFormat')] })),
  companyCountry: Type.Optional(text({ shapes: [country] })),
  companyAddress: optionalText(),
  companyCity: optionalText(),
  companyState: optionalText(),
  companyZipCode: optionalText(),
});

/** The four steps of the company wizard; the last (documents) has no required field. */
export const WIZARD_STEP_SCHEMAS = {
  1: Type.Object({
    firstName: firstName(),
    lastName: lastName(),
    email: emailField(),
    password: text({
      blank: 'passwordRequired',
      max: MAX_PASSWORD_LENGTH,
      min: { length: WIZARD_PASSWORD_MIN_LENGTH, code: 'passwordTooShortWizard' },
    }),
    confirmPassword: confirmation('password'),
  }),
  2: Type.Object({
    companyName: companyName(),
    taxNumber: taxNumber(),
    registrationNumber: text({ blank: 'registrationNumberRequired' }),
    companyEmail: text({
      blank: 'required',
      max: MAX_EMAIL_LENGTH,
      shapes: [email('emailFormat')],
    }),
    companyPhone: text({ blank: 'required', shapes: [phone] }),
  }),
  3: Type.Object({
    address: text({ blank: 'required' }),
    city: text({ blank: 'required' }),
    postalCode: text({ blank: 'required' }),
    country: text({ blank: 'required', shapes: [country] }),
    website: Type.Optional(text({ shapes: [website] })),
  }),
  4: Type.Object({}),
} as const;
export type WizardStep = keyof typeof WIZARD_STEP_SCHEMAS;

/**
 * A salon a sales rep registers at the booth (POST /api/rep/customers): the wizard's
 * company and address steps; no person and no password (the salon's people get accounts
 * of their own later).
 */
export const RepCustomerFormSchema = Type.Object({
  ...WIZARD_STEP_SCHEMAS[2].properties,
  ...WIZARD_STEP_SCHEMAS[3].properties,
});
export type RepCustomerForm = Static<typeof RepCustomerFormSchema>;

export const ProfileFormSchema = Type.Object({ firstName: firstName(), lastName: lastName() });

/** The shipping address asked for at checkout. */
export const ShippingFormSchema = Type.Object({
  firstName: firstName(),
  lastName: lastName(),
  street: text({ blank: 'required' }),
  city: text({ blank: 'required' }),
  zipCode: text({ blank: 'required' }),
  country: text({ blank: 'required' }),
  phone: text({ blank: 'required', shapes: [phone] }),
});

/** A shipping address's fields, in the order the forms show them: the schema's. */
export type ShippingField = keyof Static<typeof ShippingFormSchema>;
export const SHIPPING_FIELDS = Object.keys(ShippingFormSchema.properties) as ShippingField[];

/** An address as it is sent and kept: every field without the spaces around it. */
export const trimmedAddress = <T extends Record<ShippingField, string>>(address: T): T =>
  trimFields(address, SHIPPING_FIELDS);

/**
 * A company's data as staff correct it (PATCH /api/admin/companies/{id}): the name stays
 * required; the other fields may be emptied, and keep the shapes registration asks for.
 */
export const CompanyEditFormSchema = Type.Object({
  name: companyName(),
  taxNumber: optionalText(),
  registrationNumber: optionalText(),
  email: Type.Optional(text({ max: MAX_EMAIL_LENGTH, shapes: [email('emailFormat')] })),
  phone: Type.Optional(text({ shapes: [phone] })),
  address: optionalText(),
  city: optionalText(),
  state: optionalText(),
  postalCode: optionalText(),
  country: optionalText(),
  website: Type.Optional(text({ shapes: [website] })),
});

/** The body of a password change, as the server receives it. */
export const PasswordChangePayloadSchema = Type.Object({
  currentPassword: text({ blank: 'currentPasswordRequired', max: MAX_PASSWORD_LENGTH }),
  newPassword: personPassword(),
});

/** The password change form: the payload and its confirmation. */
export const PasswordChangeFormSchema = Type.Object({
  ...PasswordChangePayloadSchema.properties,
  confirmPassword: confirmation('newPassword'),
});

/** Asking for a link to choose a new password: the account's e-mail, as at sign-in. */
export const ForgotPasswordFormSchema = Type.Object({ email: LoginFormSchema.properties.email });

/** The new password of a reset link, as the server receives it: the registration's rules. */
export const PasswordResetPayloadSchema = Type.Object({ newPassword: personPassword() });

/** The reset form: the new password and its confirmation. */
export const PasswordResetFormSchema = Type.Object({
  ...PasswordResetPayloadSchema.properties,
  confirmPassword: confirmation('newPassword'),
});

/** A new staff account (POST /api/admin/staff): a name and an e-mail; no password is typed. */
export const StaffFormSchema = Type.Object({
  firstName: text({ blank: 'firstNameRequired', max: MAX_STAFF_NAME_LENGTH }),
  lastName: text({ blank: 'lastNameRequired', max: MAX_STAFF_NAME_LENGTH }),
  email: emailField(),
});

/**
 * The body a route accepts for a form's payload: the same fields, each a text no longer
 * than the form allows, required where the form requires it, and nothing else. What is not
 * such a body is refused as malformed (400); the form's rules (`fieldErrors`) then give
 * each field of a well-formed body its message code (422). The type is the form's.
 */
export function bodyOf<T extends TObject>(form: T): T {
  const properties = Object.fromEntries(
    Object.entries(form.properties).map(([field, rules]) => {
      // Every text() has its limit: anything else has no body of this kind.
      const { type, maxLength } = rules as { type?: unknown; maxLength?: number };
      if (type !== 'string' || maxLength === undefined) {
        throw new TypeError(`${field}: only texts with a maximum length make a body`);
      }
      const body = Type.String({ maxLength });
      return [field, form.required?.includes(field) ? body : Type.Optional(body)];
    }),
  );
  return Type.Object(properties, { additionalProperties: false }) as unknown as T;
}

/** A product's text in one language, as the flat field `<text>.<language>` (`name.en`). */
const productText = (field: keyof ProductTexts, language: Language) =>
  field === 'name' && language === 'ro'
    ? text({ blank: 'required', max: PRODUCT_TEXT_LIMITS[field] })
    : Type.Optional(text({ max: PRODUCT_TEXT_LIMITS[field] }));

/**
 * The rules of a product as the staff form edits it (docs/product.md#back-office), over its
 * values made flat (`productFields`): a SKU in the label's shape, an EAN-13 or none, a
 * price and a stock, a category, at most MAX_TAGS tags, a name in Romanian (the fallback of
 * every language) and every text within its length.
 */
export const ProductFormSchema = Type.Object({
  sku: text({ blank: 'required', shapes: [shape((v) => SKU_SHAPE.test(v), 'skuFormat')] }),
  ean: text({ shapes: [shape(isValidEan13, 'eanInvalid')] }),
  price: text({ blank: 'required', shapes: [shape((v) => priceOf(v) !== null, 'priceInvalid')] }),
  stock: text({ blank: 'required', shapes: [shape((v) => stockOf(v) !== null, 'stockInvalid')] }),
  categoryId: text({
    blank: 'categoryRequired',
    shapes: [shape((v) => CATEGORY_ID_SHAPE.test(v), 'categoryRequired')],
  }),
  tags: Type.Array(Type.String({ maxLength: MAX_TAG_LENGTH }), {
    maxItems: MAX_TAGS,
    codes: { maxItems: 'tooManyTags', maxLength: 'tagTooLong' },
  }),
  ...Object.fromEntries(
    LANGUAGES.flatMap((language) =>
      PRODUCT_TEXT_FIELDS.map((field) => [`${field}.${language}`, productText(field, language)]),
    ),
  ),
});

/** A category's names: Romanian required (the fallback), the others optional. */
export const CategoryNamesFormSchema = Type.Object(
  Object.fromEntries(
    LANGUAGES.map((language) => [`name.${language}`, productText('name', language)]),
  ),
);

/** The staff form's values as the flat, trimmed fields of ProductFormSchema. */
function productFields(values: ProductValues): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    sku: values.sku.trim(),
    ean: eanOf(values.ean),
    price: values.price.trim(),
    stock: values.stock.trim(),
    categoryId: values.categoryId.trim(),
    tags: values.tags,
  };
  for (const language of LANGUAGES) {
    for (const field of PRODUCT_TEXT_FIELDS) {
      fields[`${field}.${language}`] = values.texts[language][field].trim();
    }
  }
  return fields;
}

interface FieldSchema {
  codes?: Codes;
  sameAs?: string;
}

/** A field's code when it is missing or not of its type: its blank code, or the generic one. */
const missingCode = (field: FieldSchema): Code =>
  field.codes?.pattern ?? field.codes?.const ?? 'required';

/** The code of the first rule a field's value breaks, or null when it keeps them all. */
function fieldError(schema: TSchema & FieldSchema, value: unknown): Code | null {
  let found: Code | null = null;
  let foundOrder = Infinity;
  const report = (code: Code, order: number) => {
    if (order >= foundOrder) return;
    found = code;
    foundOrder = order;
  };
  // Each field alone: TypeBox stops collecting at a few errors (a guard against costly
  // input), and one field breaks only a few rules at once.
  for (const error of Value.Errors(schema, value)) {
    switch (error.keyword) {
      case 'maxItems':
        report(schema.codes?.maxItems ?? 'tooLong', 1);
        break;
      case 'maxLength':
        report(schema.codes?.maxLength ?? 'tooLong', 2);
        break;
      case 'minLength':
        report(schema.codes?.minLength ?? 'required', 3);
        break;
      case '~refine':
        report(error.params.message as Code, 4 + error.params.index);
        break;
      default:
        // Blank (pattern), another value than the one asked for (const), not a text at all.
        report(missingCode(schema), 0);
    }
  }
  return found;
}

/**
 * The rules `values` break under `schema`: each field once, with the code of the first rule
 * it broke (in the order blank, too many, too long, too short, shapes), in the order of the
 * form's fields. Fields the schema does not name are ignored; a required field that is
 * missing counts as blank. The codes are the forms' (`FieldError`), or the catalogue's for
 * its own schemas.
 */
export function fieldErrors<C extends Code = ValidationCode>(
  schema: TSchema & { properties: object; required?: string[] | undefined },
  values: object,
): { field: string; code: C }[] {
  const record = values as Record<string, unknown>;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, TSchema & FieldSchema>).flatMap(
    ([field, property]) => {
      const value = record[field];
      let code: Code | null;
      if (value === undefined) code = required.has(field) ? missingCode(property) : null;
      else code = fieldError(property, value);
      if (!code && property.sameAs && value !== record[property.sameAs]) {
        code = 'passwordsDoNotMatch';
      }
      return code ? [{ field, code: code as C }] : [];
    },
  );
}

export const validateLogin = (values: object) => fieldErrors(LoginFormSchema, values);
export const validateRegisterForm = (values: object) => fieldErrors(RegisterFormSchema, values);
export const validateRegisterPayload = (values: object) =>
  fieldErrors(RegisterPayloadSchema, values);
export const validateWizardStep = (step: WizardStep, values: object) =>
  fieldErrors(WIZARD_STEP_SCHEMAS[step], values);
export const validateWizard = (values: object) =>
  ([1, 2, 3, 4] as const).flatMap((step) => validateWizardStep(step, values));
export const validateRepCustomer = (values: object) => fieldErrors(RepCustomerFormSchema, values);
export const validateProfile = (values: object) => fieldErrors(ProfileFormSchema, values);
export const validateShipping = (values: object) => fieldErrors(ShippingFormSchema, values);
export const validatePasswordChange = (values: object) =>
  fieldErrors(PasswordChangeFormSchema, values);
export const validatePasswordChangePayload = (values: object) =>
  fieldErrors(PasswordChangePayloadSchema, values);
export const validateForgotPassword = (values: object) =>
  fieldErrors(ForgotPasswordFormSchema, values);
export const validatePasswordReset = (values: object) =>
  fieldErrors(PasswordResetFormSchema, values);
export const validatePasswordResetPayload = (values: object) =>
  fieldErrors(PasswordResetPayloadSchema, values);
export const validateCompanyEdit = (values: object) => fieldErrors(CompanyEditFormSchema, values);
export const validateStaff = (values: object) => fieldErrors(StaffFormSchema, values);
export const validateProduct = (values: ProductValues) =>
  fieldErrors<ProductErrorCode>(ProductFormSchema, productFields(values));
export const validateCategoryNames = (names: Record<Language, string>) =>
  fieldErrors<ProductErrorCode>(
    CategoryNamesFormSchema,
    Object.fromEntries(LANGUAGES.map((language) => [`name.${language}`, names[language].trim()])),
  );

/** The kinds of document file accepted (the server checks the bytes themselves again). */
const DOCUMENT_CONTENT_TYPES: readonly string[] = ['application/pdf', 'image/jpeg', 'image/png'];
const ACCEPTED_DOCUMENT_EXTENSIONS = /\.(pdf|jpe?g|png)$/i;
/** What a document's file field offers to pick: PDF, JPEG and PNG. */
export const DOCUMENT_ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/**
 * Why a chosen document cannot be sent, before it is sent: 'tooLarge', 'unsupported' or
 * null. The server checks the bytes themselves again.
 */
export function documentProblem(file: {
  type: string;
  name: string;
  size: number;
}): 'tooLarge' | 'unsupported' | null {
  if (!DOCUMENT_CONTENT_TYPES.includes(file.type) && !ACCEPTED_DOCUMENT_EXTENSIONS.test(file.name))
    return 'unsupported';
  if (file.size > MAX_DOCUMENT_BYTES) return 'tooLarge';
  return null;
}
