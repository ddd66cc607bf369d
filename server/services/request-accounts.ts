/**
 * The account behind a request's access token, as every signed-in request needs it, kept
 * per process so that a request does not cost a signature check and an account query:
 *
 * - a token's claims are kept, once its signature was checked, until the token runs out;
 * - the account with its session is kept beside them under the accounts' version it was
 *   read at, and used only while the database still says that version (change-versions.ts)
 *   and the session has not reached its end. Signing out, a suspension, a password change
 *   or a new company status made through any process moves the version, so the next
 *   request reads the account again.
 */
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database.js';
import { findSessionAccount, type Account } from './accounts.js';
import { verifyAccessToken, type AccessClaims } from './tokens.js';

/** Tokens kept per process: far more than the users one process serves at once. */
const MAX_KEPT = 10_000;

interface KeptToken {
  claims: AccessClaims;
  /** The token's account as read at `version`; null when its session was not live. */
  account?: { version: string; found: Account | null; sessionEndsAt: number };
}

export interface RequestAccounts {
  /**
   * Without waiting: the account of a kept token at the accounts' version `version` (as the
   * database says it now), null when its session is not live, undefined when it is not
   * known yet (then ask `accountOf`).
   */
  kept(token: string, version: string): Account | null | undefined;
  /**
   * The account of a valid access token while its session is live, null when it is not;
   * `version` reads the accounts' version as the database says it now.
   */
  accountOf(token: string, version: () => Promise<string>): Promise<Account | null>;
}

export function requestAccounts(db: Db): RequestAccounts {
  // An entry's token is checked against its own end on every use (see `live`).
  const tokens = new LRUCache<string, KeptToken>({ max: MAX_KEPT });

  /** The kept entry of a token that has not run out. */
  function live(token: string, now: number): KeptToken | undefined {
    const entry = tokens.get(token);
    if (entry && entry.claims.expiresAt > now) return entry;
    if (entry) tokens.delete(token);
    return undefined;
  }

  function kept(token: string, version: string): Account | null | undefined {
    const now = Date.now();
    const account = live(token, now)?.account;
    if (account?.version !== version) return undefined;
    return account.sessionEndsAt > now ? account.found : null;
  }

  return {
    kept,
    async accountOf(token, readVersion) {
      let entry = live(token, Date.now());
      if (!entry) {
        entry = { claims: await verifyAccessToken(db, token) };
        tokens.set(token, entry);
      }
      // Read before the account: what is kept is at least as new as this version.
      const version = await readVersion();
      const known = kept(token, version);
      if (known !== undefined) return known;
      const { userId, sessionId } = entry.claims;
      const found = await findSessionAccount(db, userId, sessionId);
      entry.account = {
        version,
        found: found?.account ?? null,
        sessionEndsAt: found?.sessionEndsAt.getTime() ?? 0,
      };
      return entry.account.found;
    },
  };
}
