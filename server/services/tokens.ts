/**
 * Access and refresh tokens. A session is a family of refresh tokens: random, stored
 * hashed, rotated on every use; reusing a rotated one revokes the whole family (the sign
 * of a stolen token). Access tokens are short-lived JWTs (HS256, pinned) signed with a key
 * kept in the database, so that every server process accepts them; each names its session,
 * and is accepted only while that session is live, so signing out, a password change or a
 * revoked family ends its access tokens at once, not when they expire.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/database.js';
import { refreshTokens, settings } from '../db/schema.js';
import { HttpError } from './errors.js';
import { inTransaction } from './transactions.js';

/** An access token lives this long; the client refreshes it when it runs out. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** "Remember me": the session lasts this long without signing in again. */
const REMEMBERED_SESSION_MS = 30 * 24 * 60 * 60 * 1000;
/** Without "remember me": a working day, so a shared tablet does not stay signed in. */
const SHORT_SESSION_MS = 12 * 60 * 60 * 1000;
const ISSUER = 'hair-care-portal';
const ALGORITHM = 'HS256';

const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

const keys = new WeakMap<Db, Promise<Uint8Array>>();

/** Signs this database's tokens with `secret` (JWT_SECRET) instead of the kept random key. */
export function useSigningSecret(db: Db, secret: string): void {
  keys.set(db, Promise.resolve(new TextEncoder().encode(secret)));
}

function signingKey(db: Db): Promise<Uint8Array> {
  let key = keys.get(db);
  if (!key) {
    key = (async () => {
      await db
        .insert(settings)
        .values({ key: 'jwt_secret', value: randomBytes(48).toString('base64url') })
        .onConflictDoNothing();
      const [row] = await db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
      if (!row) throw new Error('The token signing key could not be stored');
      return new TextEncoder().encode(row.value);
    })();
    keys.set(db, key);
  }
  return key;
}

/** A session's id: its refresh tokens' family. */
export const newSessionId = (): string => randomUUID();

export async function issueAccessToken(db: Db, userId: number, sessionId: string): Promise<string> {
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(await signingKey(db));
}

/** What a valid access token says. */
export interface AccessClaims {
  userId: number;
  sessionId: string;
  /** When the token runs out (ms since the epoch). */
  expiresAt: number;
}

/**
 * The user and session an access token was issued to, or a 401. The signature is checked
 * here; that the session is still live is checked with the account (see findSessionAccount).
 */
export async function verifyAccessToken(db: Db, token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, await signingKey(db), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
    });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || userId < 1) throw new Error('bad subject');
    if (typeof payload.sid !== 'string') throw new Error('no session');
    if (typeof payload.exp !== 'number') throw new Error('no end');
    return { userId, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
  } catch {
    throw new HttpError(401, SESSION_EXPIRED);
  }
}

/**
 * When a session ends, while it is live: its newest refresh token's end (rotation keeps
 * it), or null once that token is revoked, rotated without a successor, or past its end.
 */
export function liveSessionEnd(userId: number, sessionId: string): SQL<Date | null> {
  return sql<Date | null>`(SELECT ${refreshTokens.expiresAt} FROM ${refreshTokens} WHERE ${and(
    eq(refreshTokens.familyId, sessionId),
    eq(refreshTokens.userId, userId),
    isNull(refreshTokens.revokedAt),
    isNull(refreshTokens.rotatedAt),
    gt(refreshTokens.expiresAt, new Date()),
  )} LIMIT 1)`.mapWith(refreshTokens.expiresAt);
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new refresh token, and when its session ends. */
export async function issueRefreshToken(
  db: Db,
  userId: number,
  options: { remember: boolean; familyId: string; expiresAt?: Date },
): Promise<{ token: string; endsAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const endsAt =
    options.expiresAt ??
    new Date(Date.now() + (options.remember ? REMEMBERED_SESSION_MS : SHORT_SESSION_MS));
  await db.insert(refreshTokens).values({
    userId,
    familyId: options.familyId,
    tokenHash: hashToken(token),
    expiresAt: endsAt,
  });
  return { token, endsAt };
}

/** Exchanges a refresh token for a new one (same family, same end); the old one is spent. */
export async function rotateRefreshToken(
  db: Db,
  token: string,
): Promise<{ userId: number; sessionId: string; refreshToken: string; endsAt: Date }> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashToken(token)))
      .for('update');
    if (!row || row.revokedAt) throw new HttpError(401, SESSION_EXPIRED);
    if (row.rotatedAt) {
      // A spent token came back: someone else has it. End the whole session.
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
      return { reused: true as const };
    }
    if (row.expiresAt.getTime() <= Date.now()) throw new HttpError(401, SESSION_EXPIRED);
    await tx
      .update(refreshTokens)
      .set({ rotatedAt: new Date() })
      .where(eq(refreshTokens.id, row.id));
    const next = await issueRefreshToken(tx, row.userId, {
      remember: true,
      familyId: row.familyId,
      expiresAt: row.expiresAt,
    });
    return {
      userId: row.userId,
      sessionId: row.familyId,
      refreshToken: next.token,
      endsAt: next.endsAt,
    };
  }).then((result) => {
    if ('reused' in result) throw new HttpError(401, SESSION_EXPIRED);
    return result;
  });
}

/** Ends the session a refresh token belongs to. Unknown tokens are ignored. */
export async function revokeRefreshToken(db: Db, token: string): Promise<void> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)));
  if (!row) return;
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
}

/** Ends every session of a user, but the one given (the device that asked). */
export async function revokeAllSessions(
  db: Db,
  userId: number,
  except: string | null = null,
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        except === null ? undefined : ne(refreshTokens.familyId, except),
      ),
    );
}
