/** Errors whose message is safe to show to the caller, with the HTTP status they deserve. */
import type { FieldError, ValidationCode } from '../../src/contracts/validation.js';
import en from '../../src/locales/en.json' with { type: 'json' };

export interface ErrorDetail {
  field: string;
  message: string;
  /** The translation key of the message, so that the client can show it in its language. */
  code?: string;
  /** Values the translated message needs (a product's name, a stock). */
  params?: Record<string, string | number>;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra fields of the error body, such as `retryAfter`. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (message: string, code?: string) =>
  new HttpError(404, message, undefined, code ? { code } : undefined);
export const forbidden = (message: string, code?: string) =>
  new HttpError(403, message, undefined, code ? { code } : undefined);
export const conflict = (message: string) => new HttpError(409, message);

const validationMessages: Record<ValidationCode, string> = en.validation;

/** A 400 for the fields that broke the shared rules, with the English text of each. */
export function invalidFields(errors: FieldError[]): HttpError {
  return new HttpError(
    400,
    en.validation.reviewFields,
    errors.map(({ field, code }) => ({ field, code, message: validationMessages[code] })),
  );
}

/**
 * What the log may say of a failure: its class, its code and its cause's, never its
 * message. A database error's message carries the query's parameters (e-mails, password
 * hashes), and PostgreSQL's own messages quote the values they refused.
 */
export function describeFailure(error: unknown): { type: string; code?: string; cause?: string } {
  const failure = (error ?? {}) as { name?: unknown; code?: unknown; cause?: unknown };
  const cause: { name?: unknown; code?: unknown } | null = failure.cause ?? null;
  const code = [failure.code, cause?.code].find((value) => typeof value === 'string');
  return {
    type: error instanceof Error ? error.constructor.name : typeof error,
    ...(code ? { code } : {}),
    ...(cause && typeof cause.name === 'string' ? { cause: cause.name } : {}),
  };
}
