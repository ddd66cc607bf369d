/**
 * What a failed call to the /api says, whichever client made it: the full client (ky's
 * HTTPError) or a first screen's read (ResponseError). Both carry the server's response.
 */
import type { ErrorBody } from '../../contracts/error-schema';

/** A request that has not answered in this long is treated as lost (lie-fi at a fair). */
export const REQUEST_TIMEOUT_MS = 15_000;

/** The body of every failed call (docs/api.md#errors): the server's own schema's type. */
export type ApiErrorBody = ErrorBody;

/** The server answered with an error status. */
export class ResponseError extends Error {
  constructor(readonly response: Response) {
    super(`The server answered ${response.status}`);
    this.name = 'HTTPError';
  }
}

const responseOf = (error: unknown): Response | undefined => {
  const response = (error as { response?: unknown } | null)?.response;
  return error instanceof Error && response instanceof Response ? response : undefined;
};

/** The body of a failed call, when the server sent one (not for offline or 5xx). */
export async function errorBody(error: unknown): Promise<ApiErrorBody | undefined> {
  const response = responseOf(error);
  if (!response || response.status >= 500) return undefined;
  try {
    const body = (await response.clone().json()) as Partial<ApiErrorBody>;
    return typeof body.message === 'string' ? (body as ApiErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

/** The server's message for a failed call, or undefined when there was none (offline, 5xx). */
export async function serverMessage(error: unknown): Promise<string | undefined> {
  return (await errorBody(error))?.message;
}

export const statusOf = (error: unknown): number | undefined => responseOf(error)?.status;

export const isNotFound = (error: unknown): boolean => statusOf(error) === 404;

/**
 * True when no answer came back (offline, a timeout, a dropped connection). Whether the
 * server can be reached at all is for the connectivity module to say (see ./failure).
 */
export const isNetworkError = (error: unknown): boolean => statusOf(error) === undefined;

/** True when the server (or a proxy in front of it) answered that it failed: a 5xx. */
export const isServerFault = (error: unknown): boolean => (statusOf(error) ?? 0) >= 500;
