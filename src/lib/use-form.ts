/**
 * What the portal's forms share: the values typed, the message under each field, and the
 * messages of the rules a form's values break (contracts/form-schemas.ts), in the user's
 * language.
 */
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ValidationCode } from '../contracts/validation';

/** A rule a field's value breaks, as the form schemas report it. */
export interface BrokenRule {
  field: string;
  code: ValidationCode;
}

/** Each field's message: the rule it breaks, in the user's language. */
export const ruleMessages = (t: TFunction, found: readonly BrokenRule[]): Record<string, string> =>
  Object.fromEntries(found.map(({ field, code }) => [field, t(`validation.${code}`)]));

/**
 * Shows the messages of broken rules at once, then moves the focus to the first field that
 * breaks one: its message is read out with it, and the field scrolls into view.
 */
export function showBrokenRules(form: HTMLFormElement | null | undefined, show: () => void): void {
  flushSync(show);
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

/**
 * A form's values and the message under each field. Typing in a field clears its message;
 * `check` shows the message of every rule broken, with the focus on the first field of the
 * `form` given that breaks one, and says whether none was.
 */
export function useForm<Values extends Record<string, string>>(initial: Values | (() => Values)) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = (field: keyof Values & string, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };
  const check = (found: readonly BrokenRule[], form?: HTMLFormElement | null): boolean => {
    if (found.length === 0) setErrors({});
    else showBrokenRules(form, () => setErrors(ruleMessages(t, found)));
    return found.length === 0;
  };
  return { values, setValues, errors, setErrors, change, check };
}
