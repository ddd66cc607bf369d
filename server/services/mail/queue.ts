/**
 * Queuing e-mail: a row of mail_queue, written with the transaction of the change that
 * causes it, so that a message goes out exactly when its cause was saved, and never makes
 * the request that caused it wait or fail. The mail worker sends it later.
 */
import type { Db } from '../../db/database.js';
import { mailQueue } from '../../db/schema.js';
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
