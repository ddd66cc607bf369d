/**
 * How a rendered message leaves the server: through the SMTP server of SMTP_URL, or, when
 * none is set, as an .eml file in the data folder (data/mail/), which any mail program
 * opens, so that a demo or a development machine sends nothing and loses nothing.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Language } from '../../../src/contracts/languages.js';
import type { MailConfig } from '../../config.js';
import type { RenderedMail } from './kinds.js';

/** One message as it is handed over: its queue row's id and kind name the .eml file. */
export interface OutgoingMail extends RenderedMail {
  id: number;
  kind: string;
  to: string;
  language: Language;
}

export interface MailSender {
  /** Resolves once the mail server accepted the message (or its file is written). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * Limits of one SMTP conversation: a server that does not answer fails the attempt (it is
 * retried later) instead of holding the worker. Far below the worker's claim on a message
 * (worker.ts, CLAIM_LEASE_SECONDS), so that no other process takes it up meanwhile.
 */
const SMTP_TIMEOUTS = {
  connectionTimeout: 30_000,
  greetingTimeout: 30_000,
  socketTimeout: 60_000,
};

const envelope = (from: string, mail: OutgoingMail) => ({
  from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  headers: {
    'Content-Language': mail.language,
    // Sent by the portal, not by a person: mail servers send no out-of-office answers back.
    'Auto-Submitted': 'auto-generated',
  },
});

/** The .eml file of a message: numbered like the queue, so that the folder lists in order. */
export const emlFileName = (mail: Pick<OutgoingMail, 'id' | 'kind'>): string =>
  `${String(mail.id).padStart(8, '0')}-${mail.kind.replace(/[^a-z-]/g, '')}.eml`;

export function mailSender(config: MailConfig): MailSender {
  if (config.smtpUrl) {
    // Options in the address (?requireTLS=true …) win over these defaults.
    const transport = createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      send: async (mail) => {
        await transport.sendMail(envelope(config.from, mail));
      },
      close: () => transport.close(),
    };
  }
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    send: async (mail) => {
      const { message } = await transport.sendMail(envelope(config.from, mail));
      await mkdir(config.folder, { recursive: true });
      await writeFile(join(config.folder, emlFileName(mail)), message);
    },
    close: () => transport.close(),
  };
}
