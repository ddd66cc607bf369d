/**
 * A real SMTP server for the mail suites (smtp-server), on a free loopback port, without
 * TLS or sign-in: what the mail worker's messages look like when they arrive, read back
 * with mailparser. It can refuse messages, as a mail server that is busy does (451).
 *
 *   const smtp = await smtpListener();
 *   ... SMTP_URL = smtp.url ...
 *   smtp.received // the parsed messages, in order of arrival
 *   await smtp.close();
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpListener {
  url: string;
  received: ParsedMail[];
  /** Refuse the next `count` messages with a temporary failure (451). */
  refuseNext(count: number): void;
  /** Refuse every message until told otherwise. */
  refuseAll(refuse: boolean): void;
  /** How many messages were refused so far. */
  refused(): number;
  close(): Promise<void>;
}

export async function smtpListener(options: { delayMs?: number } = {}): Promise<SmtpListener> {
  const received: ParsedMail[] = [];
  let refuseCount = 0;
  let refuseEvery = false;
  let refusedSoFar = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    // The client is this machine: no name to look up.
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
          if (refuseEvery || refuseCount > 0) {
            refuseCount = Math.max(0, refuseCount - 1);
            refusedSoFar += 1;
            const busy = Object.assign(new Error('Mailbox busy, try again later'), {
              responseCode: 451,
            });
            callback(busy);
            return;
          }
          received.push(mail);
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext: (count) => {
      refuseCount = count;
    },
    refuseAll: (refuse) => {
      refuseEvery = refuse;
    },
    refused: () => refusedSoFar,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
