/**
 * What a salon's users who keep order notifications on are told about an order: it
 * arrived (placed by the salon or by its sales rep), staff confirmed it, shipped it (with
 * the carrier's tracking number when staff recorded one) or cancelled it, with the reason.
 * The facts quoted (payment against a pro-forma, dispatch after payment, the deadlines for
 * damage reports) are those of the support pages.
 */
import type { Language } from '../../../src/contracts/languages.js';
import type { MailRenderer } from './kinds.js';
import { GREETINGS, inEachLanguage, type Wordings } from './layout.js';

/** The locale each language writes money in, as the app does (src/lib/i18n/formats.ts). */
const LOCALES: Record<Language, string> = { ro: 'ro-RO', en: 'en-IE', it: 'it-IT' };

/** An amount in euro the language's way: "1.234,50 €", "€1,234.50". */
export const euro = (amount: string, language: Language): string =>
  new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: 'EUR' }).format(
    Number(amount),
  );

const ORDER_RECEIVED: Wordings<'order-received'> = {
  ro: ({ orderNumber, total, placedByRep, awaitingVerification }) => ({
    subject: `Am primit comanda ${orderNumber}`,
    greeting: GREETINGS.ro,
    paragraphs: [
      placedByRep
        ? `Agentul dumneavoastră de vânzări, ${placedByRep}, a plasat pentru dumneavoastră comanda ${orderNumber}, în valoare totală de ${euro(total, 'ro')}.`
        : `Vă mulțumim: am primit comanda ${orderNumber}, în valoare totală de ${euro(total, 'ro')}.`,
      ...(awaitingVerification
        ? ['Comanda va fi procesată după ce verificăm firma dumneavoastră.']
        : []),
      'Echipa noastră o verifică și vă confirmă comanda în scris; contractul se încheie la această confirmare. Plata se face prin transfer bancar, pe baza facturii proforma.',
      'Puteți urmări comanda în secțiunea Comenzi a portalului.',
    ],
  }),
  en: ({ orderNumber, total, placedByRep, awaitingVerification }) => ({
    subject: `We received order ${orderNumber}`,
    greeting: GREETINGS.en,
    paragraphs: [
      placedByRep
        ? `Your sales rep, ${placedByRep}, placed order ${orderNumber} for you, for a total of ${euro(total, 'en')}.`
        : `Thank you: we received your order ${orderNumber}, for a total of ${euro(total, 'en')}.`,
      ...(awaitingVerification ? ['It will be processed once we have verified your company.'] : []),
      'Our team checks it and confirms it in writing; the contract is formed at that confirmation. Payment is by bank transfer against a pro-forma invoice.',
      'You can follow the order under Orders on the portal.',
    ],
  }),
  it: ({ orderNumber, total, placedByRep, awaitingVerification }) => ({
    subject: `Abbiamo ricevuto l’ordine ${orderNumber}`,
    greeting: GREETINGS.it,
    paragraphs: [
      placedByRep
        ? `Il tuo agente commerciale, ${placedByRep}, ha effettuato per te l’ordine ${orderNumber}, per un totale di ${euro(total, 'it')}.`
        : `Grazie: abbiamo ricevuto il tuo ordine ${orderNumber}, per un totale di ${euro(total, 'it')}.`,
      ...(awaitingVerification
        ? ['L’ordine verrà elaborato dopo che avremo verificato la tua azienda.']
        : []),
      'Il nostro team lo controlla e te lo conferma per iscritto; il contratto si conclude con questa conferma. Il pagamento avviene con bonifico bancario su fattura pro forma.',
      'Puoi seguire l’ordine nella sezione Ordini del portale.',
    ],
  }),
};

const ORDER_CONFIRMED: Wordings<'order-confirmed'> = {
  ro: ({ orderNumber }) => ({
    subject: `Comanda ${orderNumber} a fost confirmată`,
    greeting: GREETINGS.ro,
    paragraphs: [
      `Am confirmat comanda dumneavoastră ${orderNumber}.`,
      'Plata se face prin transfer bancar, pe baza facturii proforma; marfa se expediază în 2–4 zile lucrătoare de la confirmarea plății.',
    ],
    closing: 'Vă mulțumim pentru comandă.',
  }),
  en: ({ orderNumber }) => ({
    subject: `Order ${orderNumber} is confirmed`,
    greeting: GREETINGS.en,
    paragraphs: [
      `We have confirmed your order ${orderNumber}.`,
      'Payment is by bank transfer against the pro-forma invoice; the goods are dispatched 2–4 working days after the payment is confirmed.',
    ],
    closing: 'Thank you for your order.',
  }),
  it: ({ orderNumber }) => ({
    subject: `L’ordine ${orderNumber} è confermato`,
    greeting: GREETINGS.it,
    paragraphs: [
      `Abbiamo confermato il tuo ordine ${orderNumber}.`,
      'Il pagamento avviene con bonifico bancario su fattura pro forma; la merce viene spedita 2–4 giorni lavorativi dopo la conferma del pagamento.',
    ],
    closing: 'Grazie per il tuo ordine.',
  }),
};

const ORDER_SHIPPED: Wordings<'order-shipped'> = {
  ro: ({ orderNumber, trackingNumber }) => ({
    subject: `Comanda ${orderNumber} a fost expediată`,
    greeting: GREETINGS.ro,
    paragraphs: [
      `Comanda dumneavoastră ${orderNumber} este pe drum.`,
      ...(trackingNumber ? [`Numărul de urmărire al curierului: ${trackingNumber}`] : []),
      'Vă rugăm să verificați coletul la primire: semnalați deteriorările din transport în 48 de ore, iar orice altă neconformitate în 24 de ore de la primire.',
    ],
  }),
  en: ({ orderNumber, trackingNumber }) => ({
    subject: `Order ${orderNumber} has shipped`,
    greeting: GREETINGS.en,
    paragraphs: [
      `Your order ${orderNumber} is on its way.`,
      ...(trackingNumber ? [`The carrier’s tracking number: ${trackingNumber}`] : []),
      'Please check the parcel when it arrives: report transport damage within 48 hours of receipt, and any other discrepancy within 24 hours.',
    ],
  }),
  it: ({ orderNumber, trackingNumber }) => ({
    subject: `L’ordine ${orderNumber} è stato spedito`,
    greeting: GREETINGS.it,
    paragraphs: [
      `Il tuo ordine ${orderNumber} è in viaggio.`,
      ...(trackingNumber ? [`Numero di tracciamento del corriere: ${trackingNumber}`] : []),
      'Controlla il pacco alla consegna: segnala i danni da trasporto entro 48 ore dal ricevimento e qualsiasi altra discrepanza entro 24 ore.',
    ],
  }),
};

const ORDER_CANCELLED: Wordings<'order-cancelled'> = {
  ro: ({ orderNumber, reason }) => ({
    subject: `Comanda ${orderNumber} a fost anulată`,
    greeting: GREETINGS.ro,
    paragraphs: [
      `Comanda ${orderNumber} a fost anulată, iar produsele ei nu vă vor fi livrate.`,
      ...(reason?.trim() ? [`Motiv: ${reason.trim()}`] : []),
      'Dacă aveți întrebări, răspundeți la acest mesaj.',
    ],
  }),
  en: ({ orderNumber, reason }) => ({
    subject: `Order ${orderNumber} is cancelled`,
    greeting: GREETINGS.en,
    paragraphs: [
      `Order ${orderNumber} has been cancelled, and its products will not be delivered.`,
      ...(reason?.trim() ? [`Reason: ${reason.trim()}`] : []),
      'If you have any questions, reply to this message.',
    ],
  }),
  it: ({ orderNumber, reason }) => ({
    subject: `L’ordine ${orderNumber} è stato annullato`,
    greeting: GREETINGS.it,
    paragraphs: [
      `L’ordine ${orderNumber} è stato annullato e i suoi prodotti non verranno consegnati.`,
      ...(reason?.trim() ? [`Motivo: ${reason.trim()}`] : []),
      'Per qualsiasi domanda, rispondi a questo messaggio.',
    ],
  }),
};

export const ORDER_MESSAGES: {
  'order-received': MailRenderer<'order-received'>;
  'order-confirmed': MailRenderer<'order-confirmed'>;
  'order-shipped': MailRenderer<'order-shipped'>;
  'order-cancelled': MailRenderer<'order-cancelled'>;
} = {
  'order-received': inEachLanguage(ORDER_RECEIVED),
  'order-confirmed': inEachLanguage(ORDER_CONFIRMED),
  'order-shipped': inEachLanguage(ORDER_SHIPPED),
  'order-cancelled': inEachLanguage(ORDER_CANCELLED),
};
