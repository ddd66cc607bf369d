/**
 * A queued message as it reads: its kind's renderer, in the recipient's language. Rendered
 * when it is sent (and when the back office shows it), never stored, so that a wording
 * corrected later reaches the messages still waiting.
 */
import type { Language } from '../../../src/contracts/languages.js';
import type { MailKind as ListedKind } from '../../../src/contracts/mail.js';
import { ACCOUNT_MESSAGES } from './account-messages.js';
import { COMPANY_MESSAGES } from './company-messages.js';
import type { MailKind, MailKinds, MailRenderer, RenderedMail } from './kinds.js';
import { inLanguage } from './layout.js';
import { ORDER_MESSAGES } from './order-messages.js';

/**
 * One renderer per kind; a kind without one does not compile, nor one the back office's
 * list (src/contracts/mail.ts) does not name.
 */
const RENDERERS: Renderers & Record<ListedKind, unknown> = {
  ...ACCOUNT_MESSAGES,
  ...COMPANY_MESSAGES,
  ...ORDER_MESSAGES,
};
type Renderers = { [K in MailKind]: MailRenderer<K> };
const renderers: Renderers = RENDERERS;

export function renderMail<K extends MailKind>(
  kind: K,
  data: MailKinds[K],
  language: Language,
): RenderedMail {
  const render: MailRenderer<K> = renderers[kind];
  return inLanguage(render(data, language), language);
}

/** Whether a kind read back from the queue is one the portal knows. */
export const isMailKind = (kind: string): kind is MailKind => Object.hasOwn(RENDERERS, kind);
