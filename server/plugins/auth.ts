/**
 * Who is calling: reads the bearer token of each request and finds the account with its
 * company as the database says it now (request-accounts.ts: a suspension or signing out
 * takes effect at once, in every process). A request without a token is a visitor; a bad
 * or expired token is a 401 so that the client refreshes it instead of silently losing its
 * prices.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canSeePrices, isTokenFreePath } from '../../src/contracts/accounts.js';
import type { Db } from '../db/database.js';
import type { Account } from '../services/accounts.js';
import { HttpError } from '../services/errors.js';
import { requestAccounts } from '../services/request-accounts.js';
import type { Viewer } from '../services/viewer.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account | null;
  }
}

const expired = () => new HttpError(401, 'Your session has expired. Please sign in again.');

export const authPlugin = fp<{ db: Db }>(async (app, { db }) => {
  const accounts = requestAccounts(db);
  app.decorateRequest('account', null);
  // A callback hook: a visitor, or a token whose account is kept at the current version
  // (nearly every signed-in request), passes without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.authorization;
    // Signing in, registering and refreshing never depend on an old token.
    if (!header || isTokenFreePath(request.url)) return done();
    const [scheme, token] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) return done(expired());
    const versions = request.knownVersions();
    const kept = versions ? accounts.kept(token, versions.accounts) : undefined;
    if (kept !== undefined) {
      if (!kept) return done(expired());
      request.account = kept;
      return done();
    }
    accounts
      .accountOf(token, async () => (await request.versions()).accounts)
      .then((account) => {
        if (!account) return done(expired());
        request.account = account;
        done();
      }, done);
  });
});

export function viewerOf(request: FastifyRequest): Viewer {
  const account = request.account;
  // A sales rep quotes prices to its customers: it sees the catalogue as they do once
  // approved (docs/product.md#field-sales).
  return {
    canSeePrices: account?.user.role === 'SALES_REP' || canSeePrices(account?.company),
  };
}

/** preHandler: a signed-in user is required. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.account) throw new HttpError(401, 'Please sign in to continue.');
}

/** preHandler: a member of the maker's staff is required. */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.account) throw new HttpError(401, 'Please sign in to continue.');
  if (request.account.user.role !== 'ADMIN')
    throw new HttpError(403, 'This area is for staff only.');
}

/** preHandler: one of the maker's sales reps is required. */
export async function requireSalesRep(
  request: FastifyRequest,
  _reply: FastifyReply,
): Promise<void> {
  if (!request.account) throw new HttpError(401, 'Please sign in to continue.');
  if (request.account.user.role !== 'SALES_REP')
    throw new HttpError(403, 'This area is for sales reps only.');
}

/** The signed-in account of a request that passed requireUser. */
export function accountOf(request: FastifyRequest): Account {
  if (!request.account) throw new HttpError(401, 'Please sign in to continue.');
  return request.account;
}
