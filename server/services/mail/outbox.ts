/**
 * The back office's view of the mail queue (`GET /api/admin/mail`): every message, newest
 * first, how it stands, and how it reads in its language, secret fields hidden.
 */
import { and, count, desc, eq, gte, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type {
  AdminMailDetail,
  AdminMailPage,
  AdminMailQuery,
  AdminMailRow,
} from '../../../src/contracts/admin-mail-schemas.js';
import { MAIL_MAX_ATTEMPTS, type MailStatus } from '../../../src/contracts/mail.js';
import type { Db } from '../../db/database.js';
import { mailQueue } from '../../db/schema.js';
import { notFound } from '../errors.js';
import { pageOf, paginationOf } from '../pages.js';
import { hideSecrets, type MailKind, type MailKinds, type RenderedMail } from './kinds.js';
import { isMailKind, renderMail } from './render.js';

type MailRow = typeof mailQueue.$inferSelect;

/**
 * How a message stands, as the worker leaves it (worker.ts): sent once it has a time of
 * sending; failed when its attempts are spent and the last one is over; waiting otherwise
 * (an attempt under way included).
 */
const STATUS_WHERE: Record<MailStatus, () => SQL | undefined> = {
  sent: () => isNotNull(mailQueue.sentAt),
  failed: () =>
    and(
      isNull(mailQueue.sentAt),
      gte(mailQueue.attempts, MAIL_MAX_ATTEMPTS),
      sql`${mailQueue.nextAttemptAt} <= now()`,
    ),
  waiting: () =>
    and(
      isNull(mailQueue.sentAt),
      or(lt(mailQueue.attempts, MAIL_MAX_ATTEMPTS), sql`${mailQueue.nextAttemptAt} > now()`),
    ),
};

function statusOf(row: MailRow, now: Date): MailStatus {
  if (row.sentAt) return 'sent';
  return row.attempts >= MAIL_MAX_ATTEMPTS && row.nextAttemptAt <= now ? 'failed' : 'waiting';
}

/** The message as it reads, secret fields hidden; one that cannot be rendered says so. */
function rendered(row: MailRow): RenderedMail {
  try {
    if (!isMailKind(row.kind)) throw new Error(`unknown kind ${row.kind}`);
    const data = hideSecrets(row.kind, row.data) as MailKinds[typeof row.kind];
    return renderMail(row.kind, data, row.language);
  } catch {
    const note = `(${row.kind}: this message cannot be shown)`;
    return { subject: note, text: note, html: '' };
  }
}

function toRow(row: MailRow, mail: RenderedMail, now: Date): AdminMailRow {
  const status = statusOf(row, now);
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    to: row.toAddress,
    language: row.language,
    // The server's kinds are the back office's (a kind the server no longer knows is shown as it is).
    kind: row.kind as MailKind,
    subject: mail.subject,
    status,
    attempts: row.attempts,
    lastError: row.lastError,
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: status === 'waiting' ? row.nextAttemptAt.toISOString() : null,
  };
}

/** Text as a LIKE pattern that matches it literally: `%`, `_` and `\` are no wildcards. */
const literalPattern = (text: string) => text.replace(/[\\%_]/g, '\\$&');

export async function listMail(db: Db, query: AdminMailQuery): Promise<AdminMailPage> {
  const search = query.search?.trim();
  const where = and(
    query.status ? STATUS_WHERE[query.status]() : undefined,
    search
      ? sql`lower(${mailQueue.toAddress}) LIKE '%' || lower(${literalPattern(search)}) || '%' ESCAPE '\\'`
      : undefined,
  );
  const page = pageOf(query);
  const [total] = await db.select({ n: count() }).from(mailQueue).where(where);
  const rows = await db
    .select()
    .from(mailQueue)
    .where(where)
    .orderBy(desc(mailQueue.createdAt), desc(mailQueue.id))
    .limit(page.limit)
    .offset(page.offset);
  const now = new Date();
  return {
    messages: rows.map((row) => toRow(row, rendered(row), now)),
    pagination: paginationOf(page, total?.n ?? 0),
  };
}

export async function mailDetail(db: Db, id: number): Promise<AdminMailDetail> {
  const [row] = await db.select().from(mailQueue).where(eq(mailQueue.id, id));
  if (!row) throw notFound('Message not found');
  const mail = rendered(row);
  return { message: { ...toRow(row, mail, new Date()), text: mail.text, html: mail.html } };
}
