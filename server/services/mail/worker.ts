/**
 * The mail worker: every server process runs one (start.ts). It sends the queued messages
 * that are due, each in its language, and never makes a request wait: it works apart
 * from them, and holds no transaction (nor, on the embedded database, its one connection)
 * while a mail server answers.
 *
 * 1. Claim a few due messages in one statement: `FOR UPDATE SKIP LOCKED` passes over rows
 *    another process is claiming, and the claim counts an attempt and moves the message's
 *    next attempt past CLAIM_LEASE_SECONDS, so that no process (on one PostgreSQL) takes
 *    it up while it is being sent. A process that dies meanwhile leaves it to be taken up
 *    again once the lease is over.
 * 2. For each: a recipient whose account was deleted or deactivated meanwhile gets nothing
 *    (the message fails at once).
 * 3. Render it in its language and hand it over (transport.ts).
 * 4. Sent: record when, and erase its secret fields. Refused or unreachable: record the
 *    error, and try again after a growing pause (RETRY_DELAYS_MS); after MAIL_MAX_ATTEMPTS
 *    it has failed, stays so, and its secret fields are erased too.
 */
import { and, asc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { MAIL_MAX_ATTEMPTS } from '../../../src/contracts/mail.js';
import type { Db } from '../../db/database.js';
import { mailQueue, users } from '../../db/schema.js';
import { hideSecrets, type MailKinds } from './kinds.js';
import { isMailKind, renderMail } from './render.js';
import type { MailSender } from './transport.js';

type MailRow = typeof mailQueue.$inferSelect;

/**
 * How long a claimed message is left to its process before another may take it up: far
 * longer than an SMTP conversation may last (transport.ts, SMTP_TIMEOUTS).
 */
export const CLAIM_LEASE_SECONDS = 600;

/** Messages claimed at once: a small batch, so that a stopping process gives few back. */
const BATCH_SIZE = 10;

/**
 * The pause after each failed attempt: a minute, five, half an hour, two hours, six hours.
 * A mail server that is down for maintenance or a night is outlasted (about eight and a
 * half hours in all); one that refuses a message for good is not asked forever.
 */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000];

/** How often a worker looks for due messages: a password-reset link arrives within seconds. */
const POLL_MS = 5_000;

/** The longest error kept with a message: the mail server's answer, not a whole transcript. */
const MAX_ERROR_LENGTH = 1_000;

export const RECIPIENT_GONE =
  'The recipient’s account was deleted or deactivated before the message was sent.';

interface Log {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface MailWorkerOptions {
  db: Db;
  sender: MailSender;
  log?: Log;
  /** Pause between looks at the queue. */
  pollMs?: number;
  /** The pause after the attempt numbered `attempt` (from 1) failed. */
  retryDelayMs?: (attempt: number) => number;
}

export interface MailWorker {
  /** Sends every message due now, retries due meanwhile included; resolves with how many went. */
  drain(): Promise<number>;
  /** Looks for due messages every `pollMs`, until stopped. */
  start(): void;
  /** Stops looking, gives back what it claimed but did not send yet, and closes the sender. */
  stop(): Promise<void>;
}

const due = () =>
  and(
    isNull(mailQueue.sentAt),
    lt(mailQueue.attempts, MAIL_MAX_ATTEMPTS),
    lte(mailQueue.nextAttemptAt, sql`now()`),
  );

/** Step 1: due messages, claimed for this process alone. */
async function claim(db: Db): Promise<MailRow[]> {
  const rows = await db
    .update(mailQueue)
    .set({
      attempts: sql`${mailQueue.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})`,
    })
    .where(
      inArray(
        mailQueue.id,
        db
          .select({ id: mailQueue.id })
          .from(mailQueue)
          .where(due())
          .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.id))
          .limit(BATCH_SIZE)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** Whether the message's recipient can still receive it (step 2). */
async function recipientLive(db: Db, row: MailRow): Promise<boolean> {
  if (row.userId === null) return true;
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, row.userId), isNull(users.deletedAt), isNull(users.deactivatedAt)));
  return user !== undefined;
}

/** Only a message still claimed by this attempt is written: never one sent meanwhile. */
const unsent = (row: MailRow) => and(eq(mailQueue.id, row.id), isNull(mailQueue.sentAt));

export function mailWorker({
  db,
  sender,
  log,
  pollMs = POLL_MS,
  retryDelayMs = (attempt) => RETRY_DELAYS_MS[attempt - 1] ?? (RETRY_DELAYS_MS.at(-1) as number),
}: MailWorkerOptions): MailWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  /** The message ends unsent: recorded as failed for good, its secrets erased. */
  async function giveUp(row: MailRow, error: string): Promise<void> {
    await db
      .update(mailQueue)
      .set({
        attempts: Math.max(row.attempts, MAIL_MAX_ATTEMPTS),
        lastError: error,
        nextAttemptAt: sql`now()`,
        data: hideSecrets(row.kind, row.data),
      })
      .where(unsent(row));
  }

  /** Steps 2 to 4 for one claimed message; whether it was sent. */
  async function deliver(row: MailRow): Promise<boolean> {
    if (!(await recipientLive(db, row))) {
      await giveUp(row, RECIPIENT_GONE);
      return false;
    }
    try {
      if (!isMailKind(row.kind)) throw new Error(`Unknown kind of message "${row.kind}"`);
      const rendered = renderMail(row.kind, row.data as MailKinds[typeof row.kind], row.language);
      await sender.send({
        ...rendered,
        id: row.id,
        kind: row.kind,
        to: row.toAddress,
        language: row.language,
      });
    } catch (failure) {
      const error = (failure instanceof Error ? failure.message : String(failure)).slice(
        0,
        MAX_ERROR_LENGTH,
      );
      const details = { mailId: row.id, kind: row.kind, attempts: row.attempts, error };
      if (row.attempts >= MAIL_MAX_ATTEMPTS) {
        log?.error(details, 'An e-mail could not be sent and will not be tried again');
        await giveUp(row, error);
      } else {
        log?.warn(details, 'An e-mail could not be sent; it will be tried again');
        await db
          .update(mailQueue)
          .set({
            lastError: error,
            nextAttemptAt: sql`now() + make_interval(secs => ${retryDelayMs(row.attempts) / 1000})`,
          })
          .where(unsent(row));
      }
      return false;
    }
    await db
      .update(mailQueue)
      .set({ sentAt: sql`now()`, data: hideSecrets(row.kind, row.data) })
      .where(unsent(row));
    return true;
  }

  /** Claimed messages a stopping worker will not send: due again at once, the attempt not counted. */
  async function giveBack(rows: MailRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .update(mailQueue)
      .set({ attempts: sql`${mailQueue.attempts} - 1`, nextAttemptAt: sql`now()` })
      .where(
        and(
          inArray(
            mailQueue.id,
            rows.map((row) => row.id),
          ),
          isNull(mailQueue.sentAt),
        ),
      );
  }

  async function drain(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await claim(db);
      if (rows.length === 0) return sent;
      for (const [index, row] of rows.entries()) {
        if (stopped) {
          await giveBack(rows.slice(index));
          return sent;
        }
        if (await deliver(row)) sent += 1;
      }
    }
  }

  const tick = () => {
    running = drain()
      .catch((error: unknown) =>
        log?.error(
          { error: error instanceof Error ? error.message : String(error) },
          'The mail worker could not read the queue',
        ),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };

  return {
    drain,
    start() {
      if (stopped || timer) return;
      timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      sender.close();
    },
  };
}
