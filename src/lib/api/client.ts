/**
 * The HTTP client of the /api contract. Every call carries the session's access token;
 * a 401 is answered by one refresh of the token and one retry, and when the refresh is
 * refused too the session ends and the app sends the user to sign in. Errors carry the
 * server's `{message, details}` when it sent one.
 */
import ky, { type KyRequest } from 'ky';
import { isTokenFreePath } from '../../contracts/accounts';
import { REFRESH_LOCK } from '../../contracts/storage-names';
import { exchangeRefreshToken } from '../sync/transport';
import { REQUEST_TIMEOUT_MS } from './errors';
import { createListeners } from '../listeners';
import { renewedByServiceWorker } from '../auth/session-tokens';
import { clearSession, getSession, saveSession, type Session } from '../auth/session-store';

const RETRIED = 'x-portal-retry';

const expiries = createListeners();

/** Called when the session ended because the server refused to renew it. */
export const onSessionExpired = expiries.add;

let refreshing: Promise<Session | null> | null = null;

/**
 * Renews the session after `failedToken` was refused. One refresh at a time in this tab,
 * and across tabs and the service worker through a Web Lock: whoever waited finds the
 * tokens renewed already.
 */
export function renewSession(failedToken: string): Promise<Session | null> {
  refreshing ??= (async () => {
    const run = async (): Promise<Session | null> => {
      const current = getSession();
      if (!current) return null;
      if (current.accessToken !== failedToken) return current;
      const next =
        (await renewedByServiceWorker(current)) ??
        (await exchangeRefreshToken(current.refreshToken, { timeoutMs: REQUEST_TIMEOUT_MS }));
      if (!next) {
        await clearSession();
        expiries.emit();
        return null;
      }
      await saveSession(next);
      return next;
    };
    return 'locks' in navigator ? navigator.locks.request(REFRESH_LOCK, run) : run();
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

const withToken = (request: KyRequest) => {
  const session = getSession();
  if (
    session &&
    !isTokenFreePath(new URL(request.url).pathname) &&
    !request.headers.has('authorization')
  ) {
    request.headers.set('authorization', `Bearer ${session.accessToken}`);
  }
};

export const api = ky.create({
  prefixUrl: '/api',
  timeout: REQUEST_TIMEOUT_MS,
  retry: 0,
  hooks: {
    beforeRequest: [withToken],
    afterResponse: [
      async (request, _options, response) => {
        if (response.status !== 401 || request.headers.has(RETRIED)) return response;
        const failed = request.headers.get('authorization')?.replace(/^Bearer /, '');
        if (!failed) return response;
        const next = await renewSession(failed);
        if (!next) return response;
        request.headers.set('authorization', `Bearer ${next.accessToken}`);
        request.headers.set(RETRIED, '1');
        return ky(request, { retry: 0, timeout: REQUEST_TIMEOUT_MS });
      },
    ],
  },
});

export {
  errorBody,
  isNetworkError,
  isNotFound,
  serverMessage,
  statusOf,
  type ApiErrorBody,
} from './errors';
