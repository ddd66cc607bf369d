/**
 * What the portal's forms share: the values typed, the message under each field, and the
 * messages of the rules a form's values break (contracts/form-schemas.ts), in the user's
 * language.
 */
import { useState } from 'react';
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
 * A form's values and the message under each field. Typing in a field clears its message;
 * `check` shows the message of every rule broken and says whether none was.
 */
export function useForm<Values extends Record<string, string>>(initial: Values | (() => Values)) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = (field: keyof Values & string, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };
  const check = (found: readonly BrokenRule[]): boolean => {
    setErrors(ruleMessages(t, found));
    return found.length === 0;
  };
  return { values, setValues, errors, setErrors, change, check };
}
