// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validatePasswordReset } from '../../src/contracts/form-schemas';
import { FormField } from '../../src/components/form-field';
import { useForm } from '../../src/lib/use-form';
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(cleanup);

describe("a form's values and messages", () => {
  it('shows the message of each rule broken, in the language, and says the form is not valid', () => {
    const { result } = renderHook(() => useForm({ newPassword: 'short', confirmPassword: 'x' }));
    let valid = true;
    act(() => {
      valid = result.current.check(validatePasswordReset(result.current.values));
    });
    expect(valid).toBe(false);
    expect(result.current.errors).toEqual({
      newPassword: en.validation.passwordTooShort,
      confirmPassword: en.validation.passwordsDoNotMatch,
    });
  });

  it('clears the message of a field typed in, and no other', () => {
    const { result } = renderHook(() => useForm({ newPassword: '', confirmPassword: '' }));
    act(() => {
      result.current.check(validatePasswordReset(result.current.values));
    });
    act(() => result.current.change('newPassword', 'Longer-Password-1'));
    expect(result.current.values.newPassword).toBe('Longer-Password-1');
    expect(Object.keys(result.current.errors)).toEqual(['confirmPassword']);
  });

  it('says a form that breaks no rule is valid, with no message', () => {
    const { result } = renderHook(() =>
      useForm({ newPassword: 'Longer-Password-1', confirmPassword: 'Longer-Password-1' }),
    );
    let valid = false;
    act(() => {
      valid = result.current.check(validatePasswordReset(result.current.values));
    });
    expect(valid).toBe(true);
    expect(result.current.errors).toEqual({});
  });
});

/** A password reset form as the page has it: each field with its message. */
function ResetForm() {
  const { values, errors, change, check } = useForm({
    newPassword: 'Longer-Password-1',
    confirmPassword: 'Other-Password-1',
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        check(validatePasswordReset(values), event.currentTarget);
      }}
    >
      {(['newPassword', 'confirmPassword'] as const).map((field) => (
        <FormField
          key={field}
          label={field}
          value={values[field]}
          error={errors[field]}
          onChange={(event) => change(field, event.target.value)}
        />
      ))}
      <button type="submit">Save</button>
    </form>
  );
}

describe('a form sent with a broken rule', () => {
  it('moves the focus to the first field that breaks one, its message read out with it', () => {
    render(<ResetForm />);
    const button = screen.getByRole('button', { name: 'Save' });
    button.focus();
    fireEvent.submit(button.closest('form')!);
    const confirm = screen.getByLabelText('confirmPassword');
    expect(document.activeElement).toBe(confirm);
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(en.validation.passwordsDoNotMatch).id).toBe(
      confirm.getAttribute('aria-describedby'),
    );
  });
});
