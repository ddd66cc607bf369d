/**
 * Transactions of the services: one way to open them, and one order of row locks.
 *
 * Lock order. Every transaction that locks rows of more than one kind takes them in this
 * order, so that two transactions never wait for each other in a circle (a deadlock):
 *
 * 1. products, by ascending id (`SELECT … FOR UPDATE ORDER BY id`);
 * 2. then the cart: the user's cart lines, by ascending product id;
 * 3. then the order.
 *
 * So a cart change locks its product, then its line (services/cart.ts); a checkout reads
 * which products its cart holds, locks them, then locks the lines, then writes the order
 * (services/orders.ts); a cancellation reads the order's products, locks them, then locks
 * the order. A step that finds it would need a row out of this order (a line added to
 * the cart after its products were locked) restarts the transaction instead.
 *
 * Retries. PostgreSQL may still end a transaction with a deadlock (40P01) or a
 * serialization failure (40001), for instance through locks taken by foreign keys. Such a
 * transaction changed nothing, so it is run again, a few times, after a short random pause;
 * only when every attempt fails is the answer a 503 that the client retries later. (PGlite
 * has one connection: there, transactions never overlap and nothing is retried.)
 */
import type { Db } from '../db/database.js';
import { HttpError } from './errors.js';

/** PostgreSQL's codes of a transaction ended by a conflict with another one. */
const RETRYABLE_CODES = new Set(['40P01', '40001']);

/**
 * Attempts of one transaction. A conflict is rare and resolved by the next attempt; five
 * covers a burst of them (the test of 60 simultaneous cart changes and checkouts), and
 * stays within a second of pauses in the worst case.
 */
export const MAX_ATTEMPTS = 5;

/**
 * First pause before a retry; it doubles with each attempt (10, 20, 40, 80 ms at most, in
 * full). Long enough for the winner of the conflict to commit (a checkout takes a few
 * milliseconds), short enough that the caller hardly notices.
 */
export const FIRST_PAUSE_MS = 10;

/** How long a client is asked to wait when every attempt failed: the conflict has passed by then. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * Thrown by a step that would have to lock a row out of the lock order: the transaction is
 * rolled back and run again, like after a deadlock.
 */
export class RestartTransaction extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RestartTransaction';
  }
}

/**
 * Whether a failure is a conflict that another attempt resolves. Drizzle wraps the
 * driver's error (DrizzleQueryError), so the code may be on the error or on its cause.
 */
export function isRetryableConflict(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof RestartTransaction) return true;
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && RETRYABLE_CODES.has(code)) return true;
    current = cause;
  }
  return false;
}

/** Full jitter: a random pause up to the attempt's limit, so that the losers do not collide again. */
const pause = (attempt: number) =>
  new Promise((resolve) =>
    setTimeout(resolve, Math.random() * FIRST_PAUSE_MS * 2 ** (attempt - 1)),
  );

/**
 * Runs `work` again while it fails with a conflict (see isRetryableConflict), at most
 * MAX_ATTEMPTS times. `work` must be a whole transaction, so that a retry starts afresh;
 * the pauses are outside it, holding no lock.
 */
export async function retryConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryableConflict(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        const busy = new HttpError(
          503,
          'The portal is busy with other changes to the same items. Please try again in a moment.',
          undefined,
          { code: 'BUSY', retryAfter: BUSY_RETRY_AFTER_SECONDS },
        );
        // The log says which conflict it was (describeFailure reads the cause's code).
        busy.cause = error;
        throw busy;
      }
      await pause(attempt);
    }
  }
}

/**
 * Runs `work` in a transaction, retried on conflicts; the services' one way to open one.
 * Not inside another transaction: a conflict ends the outer one too, so only the
 * outermost can be retried.
 */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return retryConflicts(() => db.transaction((tx) => work(tx as unknown as Db)));
}
