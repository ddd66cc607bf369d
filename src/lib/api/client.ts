/**
 * The HTTP client of the /api contract. Errors carry the server's `{message, details}`
 * when it sent one, so that screens can show it.
 */
import ky, { HTTPError } from 'ky';

/** A request that has not answered in this long is treated as lost (lie-fi at a fair). */
const REQUEST_TIMEOUT_MS = 15_000;

export const api = ky.create({
  prefixUrl: '/api',
  timeout: REQUEST_TIMEOUT_MS,
  retry: 0,
});

export interface ApiErrorBody {
  message: string;
  details?: { field: string; message: string }[];
}

/** The server's message for a failed call, or undefined when there was none (offline, 5xx). */
export async function serverMessage(error: unknown): Promise<string | undefined> {
  if (!(error instanceof HTTPError) || error.response.status >= 500) return undefined;
  try {
    const body = (await error.response.clone().json()) as Partial<ApiErrorBody>;
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

export const isNotFound = (error: unknown): boolean =>
  error instanceof HTTPError && error.response.status === 404;
