/**
 * The e-mail the portal sends (docs/product.md#e-mail): each kind and what its message
 * says. A message is queued as its kind and this data, and rendered in the recipient's
 * language when it is sent, so that the queue holds no HTML and a wording fixed later
 * reaches the messages still waiting.
 */
import type { Language } from '../../../src/contracts/languages.js';

export interface MailKinds {
  /** To the salon's user who registered the company: it is under review. */
  'registration-received': { companyName: string };
  'company-approved': { companyName: string };
  'company-rejected': { companyName: string; reason: string };
  'company-suspended': { companyName: string; reason: string | null };
  /** Staff rejected one of the company's documents, with their note. */
  'document-rejected': { companyName: string; documentName: string; note: string };
  /** Order e-mail goes to the salon's users who keep order notifications on. */
  'order-received': { orderNumber: string; total: string };
  'order-confirmed': { orderNumber: string };
  'order-shipped': { orderNumber: string; trackingNumber: string | null };
  'order-cancelled': { orderNumber: string; reason: string | null };
  /** A link to choose a new password; its token is secret (see SECRET_FIELDS). */
  'password-reset': { link: string };
  /** A link that confirms the address a user registered with; secret as well. */
  'verify-email': { link: string };
}

export type MailKind = keyof MailKinds;

/** One message, as queued. */
export type MailMessage = { [K in MailKind]: { kind: K; data: MailKinds[K] } }[MailKind];

/**
 * Data no one but the recipient may read: the back office shows it hidden, and the queue
 * forgets it once the message has gone.
 */
export const SECRET_FIELDS: { readonly [K in MailKind]?: readonly (keyof MailKinds[K])[] } = {
  'password-reset': ['link'],
  'verify-email': ['link'],
};

/** Who a message goes to. */
export interface Recipient {
  email: string;
  language: Language;
  /** The user, when the recipient is one. */
  userId?: number | null;
}

/** A message ready to send: subject, plain text and HTML. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export type MailRenderer<K extends MailKind> = (
  data: MailKinds[K],
  language: Language,
) => RenderedMail;
