/**
 * The e-mail the portal sends (docs/product.md#e-mail), as the back office's "Outgoing
 * e-mail" page reads it: the kinds of message, how a message stands, and how many times
 * the server tries to send one. Plain values the staff screen uses as they are; the
 * shapes are stated in ./admin-mail-schemas, and what each kind says in
 * server/services/mail/.
 */

/** Every kind of message, as the mail queue records it. */
export const MAIL_KINDS = [
  'registration-received',
  'company-approved',
  'company-rejected',
  'company-suspended',
  'document-rejected',
  'order-received',
  'order-confirmed',
  'order-shipped',
  'order-cancelled',
  'password-reset',
  'verify-email',
] as const;

/**
 * waiting: not sent yet (new, being sent, or tried and to be tried again);
 * sent: handed to the mail server (or written as an .eml file);
 * failed: every attempt failed, or its recipient can no longer receive it; never tried again.
 */
export const MAIL_STATUSES = ['waiting', 'sent', 'failed'] as const;

/**
 * Attempts to send one message before it counts as failed: the first, then retries after
 * growing pauses (server/services/mail/worker.ts) over some eight hours, long enough to
 * outlast a mail server's maintenance or a night's outage.
 */
export const MAIL_MAX_ATTEMPTS = 6;

/**
 * What the back office shows in place of a secret value (a password-reset link), and what
 * the queue keeps of it once the message has gone.
 */
export const HIDDEN_VALUE = '[hidden]';

export type MailKind = (typeof MAIL_KINDS)[number];
export type MailStatus = (typeof MAIL_STATUSES)[number];

export type {
  AdminMailDetail,
  AdminMailPage,
  AdminMailQuery,
  AdminMailRow,
} from './admin-mail-schemas';
