/**
 * The e-mail the portal sends (docs/product.md#e-mail): each kind and what its message
 * says. A message is queued as its kind and this data, and rendered in the recipient's
 * language when it is sent, so that the queue holds no HTML and a wording fixed later
 * reaches the messages still waiting.
 */
import type { Language } from '../../../src/contracts/languages.js';
import { HIDDEN_VALUE } from '../../../src/contracts/mail.js';

export interface MailKinds {
  /** To the salon's user who registered the company: it is under review. */
  'registration-received': { companyName: string };
  'company-approved': { companyName: string };
  'company-rejected': { companyName: string; reason: string };
  'company-suspended': { companyName: string; reason: string | null };
  /** Staff rejected one of the company's documents, with their note. */
  'document-rejected': { companyName: string; documentName: string; note: string };
  /**
   * Order e-mail goes to the salon's users who keep order notifications on. `total` is the
   * amount in euro as the database writes it ("1234.50"); the message writes it the
   * language's way. A sales rep's order names the rep; one for a company not verified yet
   * says it waits for the verification.
   */
  'order-received': {
    orderNumber: string;
    total: string;
    placedByRep?: string;
    awaitingVerification?: boolean;
  };
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

/**
 * The data of a message with its secret fields (SECRET_FIELDS) replaced by HIDDEN_VALUE:
 * what the back office shows, and what the queue keeps once the message has gone.
 */
export function hideSecrets(kind: string, data: Record<string, unknown>): Record<string, unknown> {
  const secret: readonly string[] = Object.hasOwn(SECRET_FIELDS, kind)
    ? (SECRET_FIELDS[kind as MailKind] ?? [])
    : [];
  return Object.fromEntries(
    Object.entries(data).map(([field, value]) => [
      field,
      secret.includes(field) ? HIDDEN_VALUE : value,
    ]),
  );
}

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
