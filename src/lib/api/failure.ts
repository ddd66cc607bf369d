/**
 * What a failed call to the /api means for the person who made it, and how to say it.
 * "Offline" is said only when the connectivity module, asking the server, finds it cannot
 * be reached; a server that answered with a fault is a server fault, and a refusal (4xx)
 * is told in the server's words, in the user's language when the translations know them.
 */
import type { TFunction } from 'i18next';
import { checkConnectivity } from '../sync/connectivity';
import { errorBody, statusOf, type ApiErrorBody } from './errors';

export type CallFailure =
  /** No answer, and the server cannot be reached. */
  | { kind: 'offline' }
  /** No answer, though the server can be reached: this one request was lost or timed out. */
  | { kind: 'lost' }
  /** The server (or a proxy in front of it) answered 5xx: it failed, not the connection. */
  | { kind: 'serverFailed'; status: number; code: string | undefined }
  /** The server answered 4xx: it refused the request, and its body says why. */
  | { kind: 'refused'; status: number; body: ApiErrorBody | undefined };

/** The code of a 5xx answer (a busy server names itself); its message is never shown. */
async function faultCode(error: unknown): Promise<string | undefined> {
  const response = (error as { response?: unknown } | null)?.response;
  if (!(response instanceof Response)) return undefined;
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sorts a failed call. Without an answer it asks the connectivity module whether the
 * server can be reached, so that one lost request is not taken for the device being offline.
 */
export async function classifyFailure(error: unknown): Promise<CallFailure> {
  const status = statusOf(error);
  if (status === undefined) {
    return { kind: (await checkConnectivity()) === 'offline' ? 'offline' : 'lost' };
  }
  if (status >= 500) return { kind: 'serverFailed', status, code: await faultCode(error) };
  return { kind: 'refused', status, body: await errorBody(error) };
}

/**
 * A refusal in the user's language: by its code when the translations know it; fields
 * that broke the shared rules are pointed at (see `fieldErrors`); else the server's words.
 */
export function refusalText(t: TFunction, body: ApiErrorBody): string {
  if (body.code) {
    return t(`serverErrors.${body.code}`, { ...body.params, defaultValue: body.message });
  }
  if (body.details?.some((detail) => detail.code)) return t('validation.reviewFields');
  return body.message;
}

/**
 * The server's field errors as form errors: field names mapped to the form's
 * (docs/product.md#registration: companyName → company, companyEmail → email), messages in
 * the user's language when the server named the rule.
 */
export function fieldErrors(
  t: TFunction,
  body: ApiErrorBody | undefined,
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

/**
 * The sentence for a failure. `offline` says what needs the connection on this screen;
 * `refused` is said when the server refused without a message.
 */
export function failureText(
  t: TFunction,
  failure: CallFailure,
  texts: { offline: string; refused: string },
): string {
  switch (failure.kind) {
    case 'offline':
      return texts.offline;
    case 'lost':
      return t('failure.lost');
    case 'serverFailed':
      return t('failure.serverFailed');
    case 'refused': {
      const retryAfter = failure.body?.retryAfter;
      if (failure.status === 429 && retryAfter !== undefined) {
        return t('failure.tooManyAttempts', { count: Math.max(1, Math.ceil(retryAfter / 60)) });
      }
      return failure.body ? refusalText(t, failure.body) : texts.refused;
    }
  }
}
