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

/** Minutes to wait when the server gave no Retry-After: its window is an hour. */
const DEFAULT_WAIT_MINUTES = 60;

/**
 * What to tell the user when a registration was refused for a reason other than its
 * fields: too many from this network (429, with the wait), the server busy receiving
 * documents (503), else the server's own message or `fallback`. A taken e-mail is no such
 * reason: the server answers it like a new one.
 */
export function registrationFailure(
  status: number | undefined,
  body: ApiErrorBody | undefined,
  t: TFunction,
  fallback: string,
): string {
  if (status === 429) {
    const count = body?.retryAfter ? Math.ceil(body.retryAfter / 60) : DEFAULT_WAIT_MINUTES;
    return t('register.tooManyRegistrations', { count });
  }
  if (status === 503) return t('register.uploadsBusy');
  return body?.message ?? fallback;
}
