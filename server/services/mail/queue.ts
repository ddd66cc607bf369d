/**
 * Queuing e-mail: a row of mail_queue, written with the transaction of the change that
 * causes it, so that a message goes out exactly when its cause was saved, and never makes
 * the request that caused it wait or fail. The mail worker sends it later (worker.ts).
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { mailQueue, users } from '../../db/schema.js';
import type { MailMessage, Recipient } from './kinds.js';

export async function queueMail(db: Db, to: Recipient, message: MailMessage): Promise<void> {
  await db.insert(mailQueue).values({
    toAddress: to.email,
    userId: to.userId ?? null,
    language: to.language,
    kind: message.kind,
    data: message.data,
  });
}

/**
 * The people of a company who receive its e-mail, each in its language: every live
 * account (deleted and deactivated ones get nothing); for order e-mail only those who keep
 * order notifications on.
 */
async function companyRecipients(
  db: Db,
  companyId: number,
  { ordersOnly }: { ordersOnly: boolean },
): Promise<Recipient[]> {
  return db
    .select({ email: users.email, language: users.language, userId: users.id })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        isNull(users.deletedAt),
        isNull(users.deactivatedAt),
        ordersOnly ? eq(users.notifyOrders, true) : undefined,
      ),
    )
    .orderBy(asc(users.id));
}

/** A message about the company (its verification, its documents) to each of its people. */
export async function mailCompanyUsers(
  db: Db,
  companyId: number,
  message: MailMessage,
): Promise<void> {
  for (const to of await companyRecipients(db, companyId, { ordersOnly: false })) {
    await queueMail(db, to, message);
  }
}

/** A message about one of the company's orders to each of its people who follow orders. */
export async function mailOrderFollowers(
  db: Db,
  companyId: number,
  message: MailMessage,
): Promise<void> {
  for (const to of await companyRecipients(db, companyId, { ordersOnly: true })) {
    await queueMail(db, to, message);
  }
}
