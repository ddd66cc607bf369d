/**
 * The one way an outbox entry reaches the server, for the page and the service worker
 * alike (no DOM here, only fetch):
 * - a timeout, so that a connection that hangs (lie-fi) never holds the outbox lock, and
 *   every tab waiting on it, for longer than one request may take;
 * - the entry's Idempotency-Key, so that a repeat after a lost response is never applied twice;
 * - a JSON content type only when there is a body: Fastify answers 400 to an empty JSON
 *   body, so a bodiless DELETE sent with one would be refused and the change lost; a file
 *   goes as multipart/form-data;
 * - a response counts as the server's only when it is JSON (a captive portal or a proxy
 *   answers HTML);
 * - one renewal of the session when the access token was refused, then the same request
 *   again with the same key;
 * - the entry's own user's session only: an entry is never sent under the account of
 *   someone who signed in on the device after its user signed out.
 */
import type { User } from '../../contracts/accounts';
import type { Transport, TransportResponse } from './outbox-replay';

/**
 * A replayed request that has not answered in this long is treated as lost and retried
 * later: as long as the page waits for its own calls, so that a checkout on a busy server
 * still gets its response, and short enough that a hanging connection does not keep the
 * other tabs waiting for the outbox. Cutting off a request the server did commit is safe:
 * its retry carries the same Idempotency-Key.
 */
export const REPLAY_TIMEOUT_MS = 15_000;

/**
 * A file takes longer: a photo of a few megabytes over a fair's crowded network. As the
 * page's own uploads wait (src/lib/api/accounts.ts).
 */
export const UPLOAD_TIMEOUT_MS = 120_000;

/** Where the transport finds the access token, and how it gets a new one. */
export interface Credentials {
  /** The access token of `userId`'s session, or null when that user is not signed in. */
  accessToken(userId: number): string | null | Promise<string | null>;
  /**
   * A new access token of `userId`'s session after `refused` was refused, or null when the
   * session has ended or another user is signed in now. Rejects when the server could not
   * be reached.
   */
  renew(refused: string, userId: number): Promise<string | null>;
}

/**
 * What an entry gets when its user is not the one signed in now (signed out, or another
 * user signed in since the entry was picked): the server's response to a request
 * without a session, so the entry waits for its user to sign in again, unsent.
 */
const NOT_SIGNED_IN: TransportResponse = {
  status: 401,
  body: { message: 'Please sign in to continue.' },
};

export interface TransportOptions {
  /** Defaults to the global fetch; tests pass their own. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const isJson = (response: Response) =>
  (response.headers.get('content-type') ?? '').includes('application/json');

/** Reads a response, or rejects when it did not come from the server. */
async function serverResponse(response: Response): Promise<TransportResponse> {
  if (!isJson(response)) throw new TypeError('The response did not come from the server');
  return { status: response.status, body: await response.json() };
}

export function createTransport(
  credentials: Credentials,
  options: TransportOptions = {},
): Transport {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? REPLAY_TIMEOUT_MS;
  const uploadTimeoutMs = Math.max(timeoutMs, UPLOAD_TIMEOUT_MS);
  return {
    async send(entry, request) {
      const attempt = (token: string) => {
        const headers: Record<string, string> = {
          'idempotency-key': entry.idempotencyKey,
          authorization: `Bearer ${token}`,
        };
        let body: BodyInit | null = null;
        if (request.file) {
          // The browser writes the multipart content type, with its boundary.
          const { field, name, type, bytes } = request.file;
          body = new FormData();
          body.append(field, new Blob([bytes], { type }), name);
        } else if (request.body !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(request.body);
        }
        return send(`/api/${request.path}`, {
          method: request.method,
          headers,
          body,
          cache: 'no-store',
          // Also bounds reading the body: a response that stalls half-way is lost too.
          signal: AbortSignal.timeout(request.file ? uploadTimeoutMs : timeoutMs),
        });
      };
      const token = await credentials.accessToken(entry.userId);
      if (!token) return NOT_SIGNED_IN;
      let response = await attempt(token);
      if (response.status === 401) {
        const renewed = await credentials.renew(token, entry.userId);
        if (renewed) response = await attempt(renewed);
      }
      return serverResponse(response);
    },
  };
}

/** What the server gives for a refresh token. */
export interface RenewedSession {
  accessToken: string;
  refreshToken: string;
  user: User;
}

/** The server answered a refresh with something other than new tokens or a refusal. */
export class RefreshFailed extends Error {
  constructor(readonly response: Response) {
    super(`The server answered ${response.status} to a refresh`);
    this.name = 'HTTPError';
  }
}

/**
 * Spends a refresh token for new tokens: null when the server refused it (the session has
 * ended). Rejects when the server could not be reached or failed. Callers hold the refresh
 * lock, so that a refresh token is never spent twice.
 */
export async function exchangeRefreshToken(
  refreshToken: string,
  options: TransportOptions = {},
): Promise<RenewedSession | null> {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const response = await send('/api/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
    cache: 'no-store',
    signal: AbortSignal.timeout(options.timeoutMs ?? REPLAY_TIMEOUT_MS),
  });
  if (response.status === 401) return null;
  if (!response.ok || !isJson(response)) throw new RefreshFailed(response);
  return (await response.json()) as RenewedSession;
}

/** When an access token (a JWT) expires, in seconds; 0 when it cannot be read. */
export function tokenExpiry(token: string): number {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : 0;
  } catch {
    return 0;
  }
}

/**
 * Whether `candidate` was issued after `current` (tokens are renewed, never made older).
 * Nothing is said to be newer than a token that cannot be read.
 */
export function isNewerToken(candidate: string, current: string): boolean {
  const currentExpiry = tokenExpiry(current);
  return currentExpiry > 0 && tokenExpiry(candidate) > currentExpiry;
}
