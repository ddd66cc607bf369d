import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ProfileBodySchema } from '../../src/contracts/accounts-schemas';
import { AdminCompanyEditSchema, StaffCreateSchema } from '../../src/contracts/admin-schemas';
import {
  bodyOf,
  CompanyEditFormSchema,
  fieldErrors,
  LoginFormSchema,
  PasswordChangePayloadSchema,
  ProfileFormSchema,
  RegisterPayloadSchema,
  ShippingFormSchema,
  StaffFormSchema,
  validateCompanyEdit,
  validateLogin,
  validatePasswordChange,
  validateRegisterForm,
  validateRegisterPayload,
  validateShipping,
  validateWizard,
  validateWizardStep,
} from '../../src/contracts/form-schemas';
import { ShippingAddressSchema } from '../../src/contracts/orders-schemas';

const person = {
  firstName: 'Ioana',
  lastName: 'Popescu',
  email: 'ioana@salon.ro',
  company: 'Salon Ioana',
  taxNumber: 'RO123',
  password: 'Parola123',
  confirmPassword: 'Parola123',
  acceptTerms: true,
};

describe('the form rules the browser and the server share', () => {
  it('accept a filled form and ignore the fields they do not name', () => {
    expect(validateRegisterForm({ ...person, country: 'Romania' })).toEqual([]);
  });

  it('say each field once, with the first rule it broke, in the order of the form', () => {
    expect(
      validateRegisterForm({
        ...person,
        lastName: '   ',
        email: 'ioana@salon',
        password: 'parola123',
        confirmPassword: 'other',
        acceptTerms: false,
      }),
    ).toEqual([
      { field: 'lastName', code: 'lastNameRequired' },
      { field: 'email', code: 'emailInvalid' },
      { field: 'password', code: 'passwordWeak' },
      { field: 'confirmPassword', code: 'passwordsDoNotMatch' },
      { field: 'acceptTerms', code: 'termsRequired' },
    ]);
  });

  it('count a missing field as blank, and a blank one before any other rule', () => {
    expect(validateLogin({})).toEqual([
      { field: 'email', code: 'emailAddressRequired' },
      { field: 'password', code: 'passwordRequired' },
    ]);
    expect(validateRegisterForm({ ...person, password: '', confirmPassword: '' })).toEqual([
      { field: 'password', code: 'passwordRequired' },
      { field: 'confirmPassword', code: 'passwordRequired' },
    ]);
  });

  it('name every broken field of a form left empty, however many', () => {
    expect(validateRegisterForm({ acceptTerms: false }).map((error) => error.code)).toEqual([
      'firstNameRequired',
      'lastNameRequired',
      'emailRequired',
      'companyRequired',
      'taxNumberRequired',
      'passwordRequired',
      'passwordRequired',
      'termsRequired',
    ]);
    expect(validateWizard({})).toHaveLength(14);
  });

  it('refuse a text longer than its limit rather than cut it', () => {
    expect(validateShipping({ firstName: 'x'.repeat(201) })[0]).toEqual({
      field: 'firstName',
      code: 'tooLong',
    });
    expect(validateLogin({ email: `${'a'.repeat(250)}@x.ro`, password: 'x' })).toEqual([
      { field: 'email', code: 'tooLong' },
    ]);
  });

  it('ask a short password for its length before its strength', () => {
    expect(validateRegisterForm({ ...person, password: 'ab1', confirmPassword: 'ab1' })).toEqual([
      { field: 'password', code: 'passwordTooShort' },
    ]);
    expect(
      validateWizardStep(1, { ...person, password: 'abcde', confirmPassword: 'abcde' }),
    ).toEqual([{ field: 'password', code: 'passwordTooShortWizard' }]);
    // The wizard has no strength rule.
    expect(
      validateWizardStep(1, { ...person, password: 'abcdef', confirmPassword: 'abcdef' }),
    ).toEqual([]);
  });

  it('check an optional field only when it is given, with the shape of the same fact', () => {
    const payload = {
      email: 'ioana@salon.ro',
      password: 'Parola123',
      firstName: 'Ioana',
      lastName: 'Popescu',
      companyName: 'Salon Ioana',
      taxNumber: 'RO123',
    };
    expect(validateRegisterPayload(payload)).toEqual([]);
    expect(validateRegisterPayload({ ...payload, companyEmail: '', website: '' })).toEqual([]);
    expect(
      validateRegisterPayload({
        ...payload,
        companyPhone: '12',
        website: 'not a site',
        companyEmail: 'office@',
        companyCountry: 'Atlantis',
      }),
    ).toEqual([
      { field: 'companyPhone', code: 'phoneInvalid' },
      { field: 'website', code: 'websiteInvalid' },
      { field: 'companyEmail', code: 'emailFormat' },
      { field: 'companyCountry', code: 'countryInvalid' },
    ]);
  });

  it('keep the wizard’s required fields and the country list', () => {
    expect(
      validateWizardStep(3, { address: 'Str. 1', city: '', postalCode: '1', country: 'Mars' }),
    ).toEqual([
      { field: 'city', code: 'required' },
      { field: 'country', code: 'countryInvalid' },
    ]);
  });

  it('let staff empty a company’s optional fields but not its name', () => {
    expect(validateCompanyEdit({ name: 'Salon', email: '', phone: '', website: '' })).toEqual([]);
    expect(validateCompanyEdit({ name: ' ', phone: 'call me' })).toEqual([
      { field: 'name', code: 'companyRequired' },
      { field: 'phone', code: 'phoneInvalid' },
    ]);
  });

  it('compare a confirmation with the field it repeats', () => {
    const change = { currentPassword: 'old', newPassword: 'Parola123' };
    expect(validatePasswordChange({ ...change, confirmPassword: 'Parola123' })).toEqual([]);
    expect(validatePasswordChange({ ...change, confirmPassword: 'Parola124' })).toEqual([
      { field: 'confirmPassword', code: 'passwordsDoNotMatch' },
    ]);
  });
});

describe('the bodies the routes accept', () => {
  const pairs = [
    ['sign-in', LoginFormSchema, bodyOf(LoginFormSchema)],
    ['registration', RegisterPayloadSchema, bodyOf(RegisterPayloadSchema)],
    ['profile', ProfileFormSchema, ProfileBodySchema],
    ['checkout address', ShippingFormSchema, ShippingAddressSchema],
    ['company correction', CompanyEditFormSchema, AdminCompanyEditSchema],
    ['staff account', StaffFormSchema, StaffCreateSchema],
    ['password change', PasswordChangePayloadSchema, bodyOf(PasswordChangePayloadSchema)],
  ] as const;

  it.each(pairs)(
    'take every %s field up to the length its form allows, and no longer',
    (_, form, body) => {
      for (const [field, rules] of Object.entries(form.properties)) {
        const max = (rules as { maxLength?: number }).maxLength ?? 0;
        expect(max).toBeGreaterThan(0);
        const longest = { [field]: 'x'.repeat(max) };
        expect(Value.Errors(body, longest).some((e) => e.instancePath === `/${field}`)).toBe(false);
        const tooLong = { [field]: 'x'.repeat(max + 1) };
        expect(Value.Errors(body, tooLong).some((e) => e.instancePath === `/${field}`)).toBe(true);
        expect(fieldErrors(form, tooLong)).toContainEqual({ field, code: 'tooLong' });
      }
      // The fields the form requires, and nothing it does not name.
      expect(body.required ?? []).toEqual(
        form === CompanyEditFormSchema ? [] : (form.required ?? []),
      );
      expect(Value.Check(body, { unknown: 'x' })).toBe(false);
    },
  );
});
