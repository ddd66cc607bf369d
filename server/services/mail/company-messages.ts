/**
 * What a salon is told about its company: the registration arrived, staff approved,
 * rejected or suspended it, or rejected one of its documents. A reason or note staff gave
 * is quoted as they wrote it; the message reads whole without one.
 */
import { BRAND } from '../../../src/contracts/brand.js';
import type { MailRenderer } from './kinds.js';
import { GREETINGS, inEachLanguage, type Wordings } from './layout.js';

/** A paragraph that is there only when staff wrote something. */
const given = (text: string | null, paragraph: (text: string) => string): string[] =>
  text?.trim() ? [paragraph(text.trim())] : [];

const REGISTRATION_RECEIVED: Wordings<'registration-received'> = {
  ro: ({ companyName }) => ({
    subject: `Am primit înregistrarea firmei ${companyName}`,
    greeting: GREETINGS.ro,
    paragraphs: [
      `Vă mulțumim că ați înregistrat firma ${companyName} pe portalul de comenzi ${BRAND.name}.`,
      'Echipa noastră verifică fiecare firmă în 24–48 de ore. Prețurile și comenzile devin disponibile pe portal după aprobarea firmei.',
      'Vă scriem imediat ce am luat o decizie.',
    ],
  }),
  en: ({ companyName }) => ({
    subject: `We received the registration of ${companyName}`,
    greeting: GREETINGS.en,
    paragraphs: [
      `Thank you for registering ${companyName} on the ${BRAND.name} ordering portal.`,
      'Our team verifies every company within 24–48 hours. Prices and ordering open on the portal once your company is approved.',
      'We will write to you as soon as we have decided.',
    ],
  }),
  it: ({ companyName }) => ({
    subject: `Abbiamo ricevuto la registrazione di ${companyName}`,
    greeting: GREETINGS.it,
    paragraphs: [
      `Grazie per aver registrato ${companyName} sul portale ordini di ${BRAND.name}.`,
      'Il nostro team verifica ogni azienda entro 24–48 ore. Prezzi e ordini si aprono sul portale appena l’azienda viene approvata.',
      'Ti scriveremo non appena avremo deciso.',
    ],
  }),
};

const COMPANY_APPROVED: Wordings<'company-approved'> = {
  ro: ({ companyName }) => ({
    subject: `Contul firmei ${companyName} este aprobat`,
    greeting: GREETINGS.ro,
    paragraphs: [
      `Contul firmei ${companyName} pe portalul de comenzi este aprobat.`,
      'Autentificați-vă pentru a vedea prețurile și pentru a plasa comenzi, inclusiv de pe telefon și fără conexiune la internet.',
    ],
    closing: 'Vă mulțumim că ne-ați ales.',
  }),
  en: ({ companyName }) => ({
    subject: `The account of ${companyName} is approved`,
    greeting: GREETINGS.en,
    paragraphs: [
      `The account of ${companyName} on the ordering portal is approved.`,
      'Sign in to see your prices and place orders, from your phone too, even without a connection.',
    ],
    closing: 'Thank you for choosing us.',
  }),
  it: ({ companyName }) => ({
    subject: `L’account di ${companyName} è approvato`,
    greeting: GREETINGS.it,
    paragraphs: [
      `L’account di ${companyName} sul portale ordini è approvato.`,
      'Accedi per vedere i tuoi prezzi e inviare ordini, anche dal telefono e senza connessione.',
    ],
    closing: 'Grazie per averci scelto.',
  }),
};

const COMPANY_REJECTED: Wordings<'company-rejected'> = {
  ro: ({ companyName, reason }) => ({
    subject: `Înregistrarea firmei ${companyName} nu a fost aprobată`,
    greeting: GREETINGS.ro,
    paragraphs: [
      `Am analizat înregistrarea firmei ${companyName} și nu am putut-o aproba.`,
      ...given(reason, (text) => `Motivul comunicat de echipa noastră: ${text}`),
      'Dacă este o greșeală sau ne puteți trimite ce lipsea, răspundeți la acest mesaj și o analizăm din nou.',
    ],
  }),
  en: ({ companyName, reason }) => ({
    subject: `The registration of ${companyName} was not approved`,
    greeting: GREETINGS.en,
    paragraphs: [
      `We have reviewed the registration of ${companyName} and could not approve it.`,
      ...given(reason, (text) => `Reason given by our team: ${text}`),
      'If this is a mistake, or you can send us what was missing, reply to this message and we will look at it again.',
    ],
  }),
  it: ({ companyName, reason }) => ({
    subject: `La registrazione di ${companyName} non è stata approvata`,
    greeting: GREETINGS.it,
    paragraphs: [
      `Abbiamo esaminato la registrazione di ${companyName} e non abbiamo potuto approvarla.`,
      ...given(reason, (text) => `Motivo indicato dal nostro team: ${text}`),
      'Se si tratta di un errore, o puoi inviarci ciò che mancava, rispondi a questo messaggio e la esamineremo di nuovo.',
    ],
  }),
};

const COMPANY_SUSPENDED: Wordings<'company-suspended'> = {
  ro: ({ companyName, reason }) => ({
    subject: `Contul firmei ${companyName} a fost suspendat`,
    greeting: GREETINGS.ro,
    paragraphs: [
      `Contul firmei ${companyName} pe portalul de comenzi a fost suspendat: deocamdată prețurile, coșul și comenzile nu sunt disponibile.`,
      ...given(reason, (text) => `Motivul comunicat de echipa noastră: ${text}`),
      `Vă rugăm să luați legătura cu noi: răspundeți la acest mesaj sau sunați la ${BRAND.phone}.`,
    ],
  }),
  en: ({ companyName, reason }) => ({
    subject: `The account of ${companyName} is suspended`,
    greeting: GREETINGS.en,
    paragraphs: [
      `The account of ${companyName} on the ordering portal has been suspended: for now, prices, the cart and ordering are not available.`,
      ...given(reason, (text) => `Reason given by our team: ${text}`),
      `Please get in touch with us: reply to this message or call ${BRAND.phone}.`,
    ],
  }),
  it: ({ companyName, reason }) => ({
    subject: `L’account di ${companyName} è sospeso`,
    greeting: GREETINGS.it,
    paragraphs: [
      `L’account di ${companyName} sul portale ordini è stato sospeso: per ora prezzi, carrello e ordini non sono disponibili.`,
      ...given(reason, (text) => `Motivo indicato dal nostro team: ${text}`),
      `Contattaci: rispondi a questo messaggio o chiama il ${BRAND.phone}.`,
    ],
  }),
};

const DOCUMENT_REJECTED: Wordings<'document-rejected'> = {
  ro: ({ companyName, documentName, note }) => ({
    subject: `Un document al firmei ${companyName} a fost respins`,
    greeting: GREETINGS.ro,
    paragraphs: [
      `Am verificat documentul „${documentName}” al firmei ${companyName} și nu l-am putut accepta.`,
      ...given(note, (text) => `Nota echipei noastre: ${text}`),
      'Vă rugăm să încărcați un document nou din secțiunea Documente a profilului dumneavoastră de pe portal.',
    ],
  }),
  en: ({ companyName, documentName, note }) => ({
    subject: `A document of ${companyName} was rejected`,
    greeting: GREETINGS.en,
    paragraphs: [
      `We have checked the document “${documentName}” of ${companyName} and could not accept it.`,
      ...given(note, (text) => `Our team’s note: ${text}`),
      'Please upload a new one in the Documents section of your profile on the portal.',
    ],
  }),
  it: ({ companyName, documentName, note }) => ({
    subject: `Un documento di ${companyName} è stato rifiutato`,
    greeting: GREETINGS.it,
    paragraphs: [
      `Abbiamo controllato il documento «${documentName}» di ${companyName} e non abbiamo potuto accettarlo.`,
      ...given(note, (text) => `Nota del nostro team: ${text}`),
      'Carica un nuovo documento nella sezione Documenti del tuo profilo sul portale.',
    ],
  }),
};

export const COMPANY_MESSAGES: {
  'registration-received': MailRenderer<'registration-received'>;
  'company-approved': MailRenderer<'company-approved'>;
  'company-rejected': MailRenderer<'company-rejected'>;
  'company-suspended': MailRenderer<'company-suspended'>;
  'document-rejected': MailRenderer<'document-rejected'>;
} = {
  'registration-received': inEachLanguage(REGISTRATION_RECEIVED),
  'company-approved': inEachLanguage(COMPANY_APPROVED),
  'company-rejected': inEachLanguage(COMPANY_REJECTED),
  'company-suspended': inEachLanguage(COMPANY_SUSPENDED),
  'document-rejected': inEachLanguage(DOCUMENT_REJECTED),
};
