/**
 * The account's own messages: a link to choose a new password, and a link that confirms
 * the address a user registered with. Each says how long its link works and what to do
 * when the reader asked for nothing, since anyone can type someone else's address.
 */
import type { MailRenderer } from './kinds.js';
import { GREETINGS, inEachLanguage, type Wordings } from './layout.js';

const PASSWORD_RESET: Wordings<'password-reset'> = {
  ro: ({ link }) => ({
    subject: 'Alegeți o parolă nouă',
    greeting: GREETINGS.ro,
    paragraphs: [
      'Am primit o cerere de resetare a parolei contului dumneavoastră de pe portalul de comenzi.',
      'Linkul de mai jos este valabil o oră și poate fi folosit o singură dată. După ce alegeți parola nouă, toate sesiunile deschise se închid și vă autentificați din nou.',
    ],
    action: { label: 'Alegeți parola nouă', url: link },
    closing:
      'Dacă nu ați cerut dumneavoastră resetarea, ignorați acest mesaj: parola rămâne neschimbată.',
  }),
  en: ({ link }) => ({
    subject: 'Choose a new password',
    greeting: GREETINGS.en,
    paragraphs: [
      'We received a request to reset the password of your ordering portal account.',
      'The link below is valid for one hour and works only once. Once you choose the new password, every open session is signed out and you sign in again.',
    ],
    action: { label: 'Choose a new password', url: link },
    closing: 'If you did not ask for a reset, ignore this message: your password stays as it is.',
  }),
  it: ({ link }) => ({
    subject: 'Scegli una nuova password',
    greeting: GREETINGS.it,
    paragraphs: [
      'Abbiamo ricevuto una richiesta di reimpostare la password del tuo account del portale ordini.',
      'Il link qui sotto è valido per un’ora e si può usare una sola volta. Quando scegli la nuova password, tutte le sessioni aperte vengono chiuse e accedi di nuovo.',
    ],
    action: { label: 'Scegli la nuova password', url: link },
    closing:
      'Se non hai chiesto tu la reimpostazione, ignora questo messaggio: la password resta invariata.',
  }),
};

const VERIFY_EMAIL: Wordings<'verify-email'> = {
  ro: ({ link }) => ({
    subject: 'Confirmați adresa de e-mail',
    greeting: GREETINGS.ro,
    paragraphs: [
      'Confirmați că această adresă vă aparține, pentru a primi în siguranță mesajele despre cont și comenzi.',
      'Linkul de mai jos este valabil 7 zile și poate fi folosit o singură dată. Dacă a expirat, cereți unul nou din profilul dumneavoastră.',
    ],
    action: { label: 'Confirmați adresa', url: link },
    closing:
      'Dacă nu v-ați creat dumneavoastră un cont pe portalul nostru, ignorați acest mesaj sau scrieți-ne.',
  }),
  en: ({ link }) => ({
    subject: 'Confirm your e-mail address',
    greeting: GREETINGS.en,
    paragraphs: [
      'Please confirm that this address is yours, so that account and order messages reach you safely.',
      'The link below is valid for 7 days and works only once. If it has expired, ask for a new one from your profile.',
    ],
    action: { label: 'Confirm the address', url: link },
    closing: 'If you did not create an account on our portal, ignore this message or write to us.',
  }),
  it: ({ link }) => ({
    subject: 'Conferma il tuo indirizzo e-mail',
    greeting: GREETINGS.it,
    paragraphs: [
      'Conferma che questo indirizzo è tuo, così i messaggi sull’account e sugli ordini ti raggiungono in sicurezza.',
      'Il link qui sotto è valido 7 giorni e si può usare una sola volta. Se è scaduto, chiedine uno nuovo dal tuo profilo.',
    ],
    action: { label: 'Conferma l’indirizzo', url: link },
    closing:
      'Se non hai creato tu un account sul nostro portale, ignora questo messaggio o scrivici.',
  }),
};

export const ACCOUNT_MESSAGES: {
  'password-reset': MailRenderer<'password-reset'>;
  'verify-email': MailRenderer<'verify-email'>;
} = {
  'password-reset': inEachLanguage(PASSWORD_RESET),
  'verify-email': inEachLanguage(VERIFY_EMAIL),
};
