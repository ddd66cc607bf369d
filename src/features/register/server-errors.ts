import type { TFunction } from 'i18next';
import type { ApiErrorBody } from '../../lib/api/client';

/**
 * The server's field errors as form errors: field names mapped to the form's (spec §8:
 * companyName → company, companyEmail → email), messages in the user's language when the
 * server named the rule.
 */
export function mapServerErrors(
  body: ApiErrorBody | undefined,
  t: TFunction,
  fieldMap: Record<string, string> = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const detail of body?.details ?? []) {
    const field = fieldMap[detail.field] ?? detail.field;
    if (errors[field]) continue;
    errors[field] = detail.code
      ? t(`validation.${detail.code}`, {
          defaultValue: detail.message || t('validation.invalidValue'),
        })
      : detail.message || t('validation.invalidValue');
  }
  return errors;
}
