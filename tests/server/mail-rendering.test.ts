/**
 * Every kind of message renders in Romanian, English and Italian: the subject and the text
 * in the recipient's language, money in euro the language's way, and every value the
 * message quotes escaped in its HTML.
 */
import { describe, expect, it } from 'vitest';
import { MAIL_KINDS } from '../../src/contracts/mail';
import { LANGUAGES, type Language } from '../../src/contracts/languages';
import type { MailKind, MailKinds } from '../../server/services/mail/kinds';
import { hideSecrets } from '../../server/services/mail/kinds';
import { GREETINGS } from '../../server/services/mail/layout';
import { renderMail } from '../../server/services/mail/render';

/** A value that must reach the reader as it was typed, and never as markup. */
const TRICKY = 'Salon <b>"Ana" & Co</b>';
const ESCAPED = 'Salon &lt;b&gt;&quot;Ana&quot; &amp; Co&lt;/b&gt;';

/** Data of each kind, quoting the tricky value wherever the message shows one. */
const SAMPLES: { [K in MailKind]: MailKinds[K] } = {
  'registration-received': { companyName: TRICKY },
  'company-approved': { companyName: TRICKY },
  'company-rejected': { companyName: TRICKY, reason: 'Unknown tax number' },
  'company-suspended': { companyName: TRICKY, reason: 'Unpaid invoices' },
  'document-rejected': { companyName: TRICKY, documentName: 'cui.pdf', note: 'Blurred scan' },
  'order-received': { orderNumber: 'FP-2026-000123', total: '1234.5', placedByRep: TRICKY },
  'order-confirmed': { orderNumber: TRICKY },
  'order-shipped': { orderNumber: TRICKY, trackingNumber: 'AWB 123-456' },
  'order-cancelled': { orderNumber: TRICKY, reason: 'Ordered twice' },
  'password-reset': { link: 'https://portal.example/reset?token=a&b=<x>' },
  'verify-email': { link: 'https://portal.example/verify?token=a&b=<x>' },
};

/** The subjects of the messages worded here; the account's own are checked below alike. */
const SUBJECTS: Partial<Record<MailKind, Record<Language, string>>> = {
  'registration-received': {
    ro: `Am primit înregistrarea firmei ${TRICKY}`,
    en: `We received the registration of ${TRICKY}`,
    it: `Abbiamo ricevuto la registrazione di ${TRICKY}`,
  },
  'company-approved': {
    ro: `Contul firmei ${TRICKY} este aprobat`,
    en: `The account of ${TRICKY} is approved`,
    it: `L’account di ${TRICKY} è approvato`,
  },
  'company-rejected': {
    ro: `Înregistrarea firmei ${TRICKY} nu a fost aprobată`,
    en: `The registration of ${TRICKY} was not approved`,
    it: `La registrazione di ${TRICKY} non è stata approvata`,
  },
  'company-suspended': {
    ro: `Contul firmei ${TRICKY} a fost suspendat`,
    en: `The account of ${TRICKY} is suspended`,
    it: `L’account di ${TRICKY} è sospeso`,
  },
  'document-rejected': {
    ro: `Un document al firmei ${TRICKY} a fost respins`,
    en: `A document of ${TRICKY} was rejected`,
    it: `Un documento di ${TRICKY} è stato rifiutato`,
  },
  'order-received': {
    ro: 'Am primit comanda FP-2026-000123',
    en: 'We received order FP-2026-000123',
    it: 'Abbiamo ricevuto l’ordine FP-2026-000123',
  },
  'order-confirmed': {
    ro: `Comanda ${TRICKY} a fost confirmată`,
    en: `Order ${TRICKY} is confirmed`,
    it: `L’ordine ${TRICKY} è confermato`,
  },
  'order-shipped': {
    ro: `Comanda ${TRICKY} a fost expediată`,
    en: `Order ${TRICKY} has shipped`,
    it: `L’ordine ${TRICKY} è stato spedito`,
  },
  'order-cancelled': {
    ro: `Comanda ${TRICKY} a fost anulată`,
    en: `Order ${TRICKY} is cancelled`,
    it: `L’ordine ${TRICKY} è stato annullato`,
  },
};

/** What each language's messages are sure to hold, and the others' never. */
const ONLY_IN: Record<Language, RegExp> = {
  ro: /[ăâîșț]/,
  en: /\b(the|your|we|you)\b/i,
  it: /[èàòù]|\b(il|gli|della|sul|tuo|tua|ti)\b/i,
};

const render = <K extends MailKind>(kind: K, language: Language) =>
  renderMail(kind, SAMPLES[kind], language);

describe('every kind of message', () => {
  it('has a sample here', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...MAIL_KINDS].sort());
  });

  for (const kind of MAIL_KINDS) {
    it(`${kind} reads in each language, with its values escaped in the HTML`, () => {
      const subjects = new Set<string>();
      for (const language of LANGUAGES) {
        const mail = render(kind, language);
        const expected = SUBJECTS[kind]?.[language];
        if (expected) expect(mail.subject).toBe(expected);
        subjects.add(mail.subject);
        // The text is the language's from its greeting on, and holds nothing of the others'.
        expect(mail.text.startsWith(GREETINGS[language]), mail.text).toBe(true);
        const body = mail.text.replace(/https?:\/\/\S+/g, '').replace(TRICKY, '');
        expect(body, `${kind} in ${language}`).toMatch(ONLY_IN[language]);
        for (const other of LANGUAGES.filter((l) => l !== language)) {
          expect(body, `${kind} in ${language} has ${other}`).not.toMatch(ONLY_IN[other]);
        }
        expect(mail.html).toContain(`<html lang="${language}">`);
        expect(mail.html).toContain(`<title>${mail.subject.replace(TRICKY, ESCAPED)}</title>`);
        // Quoted as typed in the text, escaped in the HTML, never as markup.
        expect(mail.html).not.toContain('<b>');
        expect(mail.html).not.toContain('<x>');
        if (Object.values(SAMPLES[kind]).includes(TRICKY)) {
          expect(mail.text).toContain(TRICKY);
          expect(mail.html).toContain(ESCAPED);
        }
        expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain('$');
      }
      expect(subjects.size).toBe(LANGUAGES.length);
    });
  }

  it('writes money in euro, the language’s way', () => {
    const totals = Object.fromEntries(
      LANGUAGES.map((language) => [
        language,
        render('order-received', language).text.replace(/\u00a0/g, ' '),
      ]),
    );
    // As Intl writes them for each locale, the app's way too.
    expect(totals.ro).toContain('1.234,50 EUR');
    expect(totals.en).toContain('€1,234.50');
    expect(totals.it).toContain('1234,50 €');
  });

  it('says what staff wrote, and reads whole without it', () => {
    const withNote = renderMail(
      'company-suspended',
      { companyName: 'Ana', reason: 'Unpaid invoices' },
      'en',
    );
    expect(withNote.text).toContain('Reason given by our team: Unpaid invoices');
    const without = renderMail('company-suspended', { companyName: 'Ana', reason: null }, 'en');
    expect(without.text).not.toContain('Reason');
    const shipped = renderMail(
      'order-shipped',
      { orderNumber: 'FP-1', trackingNumber: null },
      'ro',
    );
    expect(shipped.text).not.toContain('urmărire');
    const awaiting = renderMail(
      'order-received',
      { orderNumber: 'FP-1', total: '10', awaitingVerification: true },
      'it',
    );
    expect(awaiting.text).toContain('dopo che avremo verificato la tua azienda');
  });

  it('keeps secret values out of what is shown and kept', () => {
    expect(hideSecrets('password-reset', { link: 'https://portal.example/r?t=1' })).toEqual({
      link: '[hidden]',
    });
    expect(hideSecrets('order-confirmed', { orderNumber: 'FP-1' })).toEqual({
      orderNumber: 'FP-1',
    });
  });
});
