/**
 * The frame every e-mail shares: a greeting, paragraphs, at most one button (a link), and
 * the maker's signature, as plain text and as HTML with every value escaped.
 */
import { BRAND } from '../../../src/contracts/brand.js';
import type { Language } from '../../../src/contracts/languages.js';
import type { MailKind, MailKinds, MailRenderer, RenderedMail } from './kinds.js';

export interface MailContent {
  subject: string;
  greeting: string;
  paragraphs: readonly string[];
  /** A link the message asks the reader to follow, shown as a button in HTML. */
  action?: { label: string; url: string };
  /** Said after the paragraphs, before the signature (a thank-you, a note on the link). */
  closing?: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);

export function renderMailContent(content: MailContent): RenderedMail {
  const { subject, greeting, paragraphs, action, closing } = content;
  const text = [
    greeting,
    ...paragraphs,
    ...(action ? [`${action.label}: ${action.url}`] : []),
    ...(closing ? [closing] : []),
    `${BRAND.name}\n${BRAND.email}`,
  ].join('\n\n');
  const paragraph = (value: string) =>
    `<p style="margin:0 0 16px">${escapeHtml(value).replace(/\n/g, '<br>')}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4a2c6f;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>`
    : '';
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f1b24;max-width:560px;margin:0 auto;padding:24px">',
    paragraph(greeting),
    ...paragraphs.map(paragraph),
    button,
    closing ? paragraph(closing) : '',
    `<p style="margin:32px 0 0;color:#5c5566">${escapeHtml(BRAND.name)}<br><a href="mailto:${escapeHtml(BRAND.email)}">${escapeHtml(BRAND.email)}</a></p>`,
    '</body></html>',
  ].join('');
  return { subject, text, html };
}

/** How the portal's messages open, in each language. */
export const GREETINGS: Record<Language, string> = {
  ro: 'Bună ziua,',
  en: 'Hello,',
  it: 'Buongiorno,',
};

/** A message's wording in each language, from its data. */
export type Wordings<K extends MailKind> = Record<Language, (data: MailKinds[K]) => MailContent>;

/** The renderer of a kind worded in each language, in the shared frame. */
export const inEachLanguage =
  <K extends MailKind>(wordings: Wordings<K>): MailRenderer<K> =>
  (data, language) =>
    renderMailContent(wordings[language](data));

/** The HTML of a rendered message marked as written in `language`, for mail readers and screen readers. */
export const inLanguage = (mail: RenderedMail, language: Language): RenderedMail => ({
  ...mail,
  html: mail.html.replace(/^<!doctype html><html>/, `<!doctype html><html lang="${language}">`),
});
