/**
 * Exactly-once for mutating calls. A request that carries an Idempotency-Key runs in one
 * transaction that also records the key, a fingerprint of the request and the response:
 *
 * 1. Take a transaction-scoped lock on (user, key); if another request with the same key
 *    holds it, answer 409 at once: the first one is still running.
 * 2. If the key was recorded: the same request gets the recorded response again; another
 *    request under the same key gets a 422.
 * 3. Otherwise run the effect and record its response in the same transaction, so that
 *    either both the effect and the record happen, or neither.
 *
 * An effect that fails rolls back with its record: retrying the key runs it again. A
 * transaction ended by a deadlock or a serialization failure is run again whole (see
 * transactions.ts). Every mutating route goes through `once`, with or without a key.
 */
import { createHash } from 'node:crypto';
import { Type } from '@fastify/type-provider-typebox';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { idempotencyKeys } from '../db/schema.js';
import { accountOf } from '../plugins/auth.js';
import { HttpError } from './errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { inTransaction } from './transactions.js';

/** Records are kept this long: far longer than any device stays offline at a fair. */
export const IDEMPOTENCY_RETENTION_DAYS = 30;
const KEY_SHAPE = /^[A-Za-z0-9_-]{8,100}$/;

export interface EffectResult<T> {
  status: number;
  body: T;
}

export interface IdempotentRequest {
  userId: number;
  key: string | undefined;
  method: string;
  path: string;
  body: unknown;
}

/** The header's schema, for every route that goes through `once`. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ maxLength: 100 })),
});

/** Object keys sorted, so that the same request always has the same fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Names of fields whose values must not be recoverable from a stored fingerprint. */
const SECRET_FIELD = /password|secret|token/i;

function carriesSecret(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(carriesSecret);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => SECRET_FIELD.test(k) || carriesSecret(v));
  }
  return false;
}

/**
 * How a request is recognised again. A plain SHA-256 for most; for a body that carries a
 * password, a salted argon2id hash like the account's own: a fast digest kept for 30 days
 * would let anyone holding a copy of the database test guesses of the password at speed.
 */
interface Fingerprint {
  /** The value to record with the response. */
  record(): Promise<string>;
  /** Whether a recorded value is this request's. */
  matches(recorded: string): Promise<boolean>;
}

function fingerprintOf(request: IdempotentRequest): Fingerprint {
  const text = `${request.method} ${request.path} ${canonical(request.body)}`;
  if (carriesSecret(request.body)) {
    return {
      record: () => hashPassword(text),
      matches: (recorded) => verifyPassword(recorded, text),
    };
  }
  const digest = createHash('sha256').update(text).digest('hex');
  return {
    record: () => Promise.resolve(digest),
    matches: (recorded) => Promise.resolve(recorded === digest),
  };
}

export interface OnceOptions<T> {
  /**
   * The body to record instead of the one sent, for an answer that carries what must not
   * be kept (a temporary password): a repeat then gets the recorded body, without it.
   */
  recordAs?: (body: T) => T;
}

export async function runIdempotent<T>(
  db: Db,
  request: IdempotentRequest,
  effect: (tx: Db) => Promise<EffectResult<T>>,
  options: OnceOptions<T> = {},
): Promise<EffectResult<T> & { replayed: boolean }> {
  if (request.key === undefined) {
    const result = await inTransaction(db, effect);
    return { ...result, replayed: false };
  }
  const key = request.key;
  if (!KEY_SHAPE.test(key)) {
    throw new HttpError(
      400,
      'The Idempotency-Key header must be 8 to 100 letters, digits, - or _.',
    );
  }
  const fingerprint = fingerprintOf(request);
  // Computed before the transaction: a slow hash must not hold it open (on PGlite every
  // other request waits for it).
  const recordedFingerprint = await fingerprint.record();

  return inTransaction(db, async (tx) => {
    // 1. The key's lock: a second request with this key while the first runs gets a 409.
    const lock = await tx.execute(
      sql`SELECT pg_try_advisory_xact_lock(hashtext(${`${request.userId}:${key}`})) AS locked`,
    );
    const locked = (lock as { rows: { locked: boolean }[] }).rows[0]?.locked;
    if (!locked) {
      throw new HttpError(
        409,
        'This request is still being processed. Please try again in a moment.',
        undefined,
        {
          code: 'REQUEST_IN_PROGRESS',
        },
      );
    }
    // 2. A recorded key: its response again, or a 422 for another request.
    const [recorded] = await tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, key)));
    if (recorded) {
      if (!(await fingerprint.matches(recorded.fingerprint))) {
        throw new HttpError(
          422,
          'This Idempotency-Key was already used for a different request.',
          undefined,
          {
            code: 'IDEMPOTENCY_KEY_REUSED',
          },
        );
      }
      return {
        status: recorded.responseStatus,
        body: JSON.parse(recorded.responseBody) as T,
        replayed: true,
      };
    }
    // 3. The effect, and its response recorded in the same transaction.
    const result = await effect(tx);
    await tx.insert(idempotencyKeys).values({
      userId: request.userId,
      key,
      fingerprint: recordedFingerprint,
      responseStatus: result.status,
      responseBody: JSON.stringify(options.recordAs ? options.recordAs(result.body) : result.body),
    });
    return { ...result, replayed: false };
  });
}

/**
 * Runs a route's mutation through runIdempotent, for the signed-in caller, with the
 * request's Idempotency-Key if it has one, and sends its (possibly recorded) response. The
 * effect does all its database work through `tx`: that is what makes it exactly once.
 */
export async function once<T>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  effect: (tx: Db) => Promise<EffectResult<T>>,
  options: OnceOptions<T> = {},
) {
  const header = request.headers['idempotency-key'];
  // Two keys for one request: which one it is known by is anyone's guess, so neither.
  if (Array.isArray(header)) {
    throw new HttpError(400, 'Send one Idempotency-Key header, not several.', undefined, {
      code: 'IDEMPOTENCY_KEY_REPEATED',
    });
  }
  const result = await runIdempotent(
    db,
    {
      userId: accountOf(request).user.id,
      key: header,
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
      body: request.body ?? null,
    },
    effect,
    options,
  );
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(result.status).send(result.body);
}

/**
 * Whether `key` already has a recorded response for this user: the request is a repeat,
 * and runIdempotent sends that response again (or refuses another request under the key),
 * whatever has changed since. For a check made before that, which a repeat must pass.
 */
export async function isRecorded(db: Db, userId: number, key: unknown): Promise<boolean> {
  // No key, or several (refused by runIdempotent): no recorded response.
  if (typeof key !== 'string') return false;
  const [recorded] = await db
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return recorded !== undefined;
}

/** Forgets records older than the retention period. */
export async function pruneIdempotencyKeys(db: Db, now = Date.now()): Promise<void> {
  const cutoff = new Date(now - IDEMPOTENCY_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
}
