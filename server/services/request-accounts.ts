/**
 * The account behind a request's access token, as every signed-in request needs it, kept
 * per process so that a request does not cost a signature check and an account query:
 *
 * - a token's claims are kept, once its signature was checked, until the token runs out;
 * - an account with its session is kept under the accounts' version it was read at, and
 *   used only while the database still says that version (change-versions.ts) and the
 *   session has not reached its end. Signing out, a suspension, a password change or a new
 *   company status made through any process moves the version, so the next request reads
 *   the account again.
 */
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database.js';
import { findSessionAccount, type Account } from './accounts.js';
import { verifyAccessToken, type AccessClaims } from './tokens.js';

/** Tokens and sessions kept per process: far more than the users one process serves at once. */
const MAX_KEPT = 10_000;

interface KeptAccount {
  version: string;
  account: Account | null;
  sessionEndsAt: number;
}

export interface RequestAccounts {
  /**
   * The account of a valid access token while its session is live, null when it is not;
   * `version` reads the accounts' version as the database says it now.
   */
  accountOf(token: string, version: () => Promise<string>): Promise<Account | null>;
}

export function requestAccounts(db: Db): RequestAccounts {
  const claims = new LRUCache<string, AccessClaims>({ max: MAX_KEPT });
  const accounts = new LRUCache<string, KeptAccount>({ max: MAX_KEPT });

  async function claimsOf(token: string): Promise<AccessClaims> {
    const kept = claims.get(token);
    if (kept && kept.expiresAt > Date.now()) return kept;
    const checked = await verifyAccessToken(db, token);
    claims.set(token, checked, { ttl: Math.max(1, checked.expiresAt - Date.now()) });
    return checked;
  }

  return {
    async accountOf(token, readVersion) {
      const { userId, sessionId } = await claimsOf(token);
      const key = `${userId} ${sessionId}`;
      // Read before the account: what is kept is at least as new as this version.
      const version = await readVersion();
      const kept = accounts.get(key);
      if (kept?.version === version) {
        return kept.sessionEndsAt > Date.now() ? kept.account : null;
      }
      const found = await findSessionAccount(db, userId, sessionId);
      accounts.set(key, {
        version,
        account: found?.account ?? null,
        sessionEndsAt: found?.sessionEndsAt.getTime() ?? 0,
      });
      return found?.account ?? null;
    },
  };
}
