/**
 * The mail worker against a real SMTP server (tests/server/smtp-listener.ts): each queued
 * message arrives once, to its recipient, in its language; a refusal is retried after a
 * pause and never troubles the request that caused the message; the last failure leaves
 * it failed and visible; without SMTP_URL it is written as an .eml file. Secret values are
 * erased once a message is done, and the back office shows the queue (/api/admin/mail).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { mailQueue, users } from '../../server/db/schema';
import type { MailMessage, Recipient } from '../../server/services/mail/kinds';
import { queueMail } from '../../server/services/mail/queue';
import { renderMail } from '../../server/services/mail/render';
import { mailSender } from '../../server/services/mail/transport';
import { mailWorker, RECIPIENT_GONE, type MailWorker } from '../../server/services/mail/worker';
import type { AdminMailDetail, AdminMailPage } from '../../src/contracts/admin-mail-schemas';
import { HIDDEN_VALUE, MAIL_MAX_ATTEMPTS } from '../../src/contracts/mail';
import { salon, staffMember, type Staff } from './factories';
import { bearer, uniqueEmail, type Tokens } from './helpers';
import { smtpListener, type SmtpListener } from './smtp-listener';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Staff;
let smtp: SmtpListener;
let folder: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
  staff = await staffMember(app, testDb.database.db, 'mail.office@example.com');
  smtp = await smtpListener();
  folder = await mkdtemp(join(tmpdir(), 'portal-mail-'));
});

const workers: MailWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  smtp.refuseAll(false);
  smtp.refuseNext(0);
  // Nothing left due for the next test's worker.
  await db()
    .update(mailQueue)
    .set({ attempts: MAIL_MAX_ATTEMPTS })
    .where(sql`${mailQueue.sentAt} IS NULL`);
});

afterAll(async () => {
  await app.close();
  await smtp.close();
  await rm(folder, { recursive: true, force: true });
  await testDb.drop();
});

const db = () => testDb.database.db;

/** The settings of a server with SMTP_URL set (or not), its data folder a test's own. */
const mailConfig = (smtpUrl: string | null) => ({
  ...readConfig({ SMTP_URL: smtpUrl ?? '' }).mail,
  folder,
});

/** A worker as start.ts makes one, with the pauses a test can wait for. */
function worker(
  smtpUrl: string | null,
  options: { retryDelayMs?: number; pollMs?: number } = {},
): MailWorker {
  const made = mailWorker({
    db: db(),
    sender: mailSender(mailConfig(smtpUrl)),
    retryDelayMs: () => options.retryDelayMs ?? 0,
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  workers.push(made);
  return made;
}

/** A message queued as a service queues one; its row's id. */
async function queue(to: Recipient, message: MailMessage): Promise<number> {
  await queueMail(db(), to, message);
  const [row] = await db()
    .select({ id: sql<number>`max(${mailQueue.id})` })
    .from(mailQueue)
    .where(eq(mailQueue.toAddress, to.email));
  return Number(row?.id);
}

const rowOf = async (id: number) =>
  (await db().select().from(mailQueue).where(eq(mailQueue.id, id)))[0];

/** Waits until `check` holds (the worker runs on its own), failing after a few seconds. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Still not ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const read = <T>(url: string, tokens: Tokens = staff.tokens) =>
  app.inject({ url, headers: bearer(tokens) }).then((response) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  });

const order = (orderNumber: string): MailMessage => ({
  kind: 'order-confirmed',
  data: { orderNumber },
});

describe('sending through SMTP', () => {
  it('delivers each message once, to its recipient, in its language', async () => {
    const italian = uniqueEmail('it');
    const romanian = uniqueEmail('ro');
    await queue({ email: italian, language: 'it' }, order('FP-IT-1'));
    await queue({ email: romanian, language: 'ro' }, order('FP-RO-1'));
    const start = smtp.received.length;

    expect(await worker(smtp.url).drain()).toBe(2);
    expect(await worker(smtp.url).drain()).toBe(0);

    const arrived = smtp.received.slice(start);
    expect(arrived.map((mail) => mail.to && 'text' in mail.to && mail.to.text)).toEqual([
      italian,
      romanian,
    ]);
    expect(arrived.map((mail) => mail.subject)).toEqual([
      renderMail('order-confirmed', { orderNumber: 'FP-IT-1' }, 'it').subject,
      renderMail('order-confirmed', { orderNumber: 'FP-RO-1' }, 'ro').subject,
    ]);
    expect(arrived.map((mail) => mail.headers.get('content-language'))).toEqual(['it', 'ro']);
    expect(arrived[0]?.from?.text).toBe('"Floravia Professional" <comenzi@floravia.ro>');
    expect(arrived[1]?.text).toContain('Am confirmat comanda dumneavoastră FP-RO-1.');
    expect(arrived[1]?.html).toContain('<html lang="ro">');
  });

  it('tries a refused message again after a pause, then sends it; the request that caused it answers as usual', async () => {
    const buyer = await salon(db(), {});
    const email = await db()
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, buyer.userId))
      .then((rows) => rows[0]?.email ?? '');
    smtp.refuseAll(true);
    const running = worker(smtp.url, { pollMs: 20, retryDelayMs: 60_000 });
    running.start();

    const approved = await app.inject({
      method: 'POST',
      url: `/api/admin/companies/${buyer.companyId}/approve`,
      payload: {},
      headers: { ...bearer(staff.tokens), 'idempotency-key': randomUUID() },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const [queued] = await db()
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(eq(mailQueue.toAddress, email));
    const id = queued?.id ?? 0;

    await until(async () => (await rowOf(id))?.lastError != null, 'refused');
    const refused = await rowOf(id);
    expect(refused).toMatchObject({ attempts: 1, sentAt: null });
    expect(refused?.lastError).toContain('451');
    // Not tried again before its pause is over.
    expect(refused?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    const listed = await read<AdminMailPage>(`/api/admin/mail?search=${email}`);
    expect(listed.messages[0]).toMatchObject({
      id,
      status: 'waiting',
      attempts: 1,
      lastError: refused?.lastError,
      kind: 'company-approved',
    });

    smtp.refuseAll(false);
    const start = smtp.received.length;
    await db().update(mailQueue).set({ nextAttemptAt: new Date() }).where(eq(mailQueue.id, id));
    await until(async () => (await rowOf(id))?.sentAt != null, 'sent');
    expect((await rowOf(id))?.attempts).toBe(2);
    expect(smtp.received.slice(start).map((mail) => mail.subject)).toEqual([
      listed.messages[0]?.subject,
    ]);
  });

  it('gives up after the last attempt: the message stays failed, with its error, and its secrets are erased', async () => {
    const id = await queue(
      { email: uniqueEmail('failing'), language: 'en' },
      { kind: 'password-reset', data: { link: 'https://portal.example/reset?token=SECRET1' } },
    );
    smtp.refuseAll(true);
    const before = smtp.refused();
    expect(await worker(smtp.url).drain()).toBe(0);
    expect(smtp.refused() - before).toBe(MAIL_MAX_ATTEMPTS);

    const row = await rowOf(id);
    expect(row).toMatchObject({ attempts: MAIL_MAX_ATTEMPTS, sentAt: null });
    expect(row?.data).toEqual({ link: HIDDEN_VALUE });
    const failed = await read<AdminMailPage>('/api/admin/mail?status=failed');
    expect(failed.messages.map((message) => message.id)).toContain(id);
    expect(failed.messages.find((message) => message.id === id)?.lastError).toContain('451');
    const waiting = await read<AdminMailPage>('/api/admin/mail?status=waiting');
    expect(waiting.messages.map((message) => message.id)).not.toContain(id);
    // Never tried again.
    expect(await worker(smtp.url).drain()).toBe(0);
  });

  it('sends the secret link, then keeps only a mark of it', async () => {
    const link = 'https://portal.example/reset?token=SECRET2';
    const id = await queue(
      { email: uniqueEmail('reset'), language: 'ro' },
      { kind: 'password-reset', data: { link } },
    );
    const shown = await read<AdminMailDetail>(`/api/admin/mail/${id}`);
    expect(`${shown.message.text}${shown.message.html}`).not.toContain('SECRET2');
    expect(shown.message.text).toContain(HIDDEN_VALUE);

    const start = smtp.received.length;
    expect(await worker(smtp.url).drain()).toBe(1);
    expect(smtp.received[start]?.text).toContain(link);
    expect((await rowOf(id))?.data).toEqual({ link: HIDDEN_VALUE });
  });

  it('sends nothing to an account deleted or deactivated after the message was queued', async () => {
    const deleted = await salon(db(), {});
    const deactivated = await salon(db(), {});
    const ids = [
      await queue(
        { email: uniqueEmail('gone'), language: 'ro', userId: deleted.userId },
        order('FP-G'),
      ),
      await queue(
        { email: uniqueEmail('off'), language: 'ro', userId: deactivated.userId },
        order('FP-O'),
      ),
    ];
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.userId));
    await db()
      .update(users)
      .set({ deactivatedAt: new Date() })
      .where(eq(users.id, deactivated.userId));
    const start = smtp.received.length;
    expect(await worker(smtp.url).drain()).toBe(0);
    expect(smtp.received.length).toBe(start);
    const rows = await db().select().from(mailQueue).where(inArray(mailQueue.id, ids));
    expect(rows.map((row) => [row.sentAt, row.lastError])).toEqual([
      [null, RECIPIENT_GONE],
      [null, RECIPIENT_GONE],
    ]);
  });
});

describe('without SMTP_URL', () => {
  it('writes each message as an .eml file in the data folder', async () => {
    const email = uniqueEmail('eml');
    const id = await queue({ email, language: 'en' }, order('FP-EML-1'));
    expect(await worker(null).drain()).toBe(1);
    const name = `${String(id).padStart(8, '0')}-order-confirmed.eml`;
    expect(await readdir(folder)).toContain(name);
    const mail = await simpleParser(await readFile(join(folder, name)));
    expect(mail.subject).toBe('Order FP-EML-1 is confirmed');
    expect(mail.to && 'text' in mail.to && mail.to.text).toBe(email);
    expect((await rowOf(id))?.sentAt).not.toBeNull();
  });
});

describe('the back office’s outgoing e-mail', () => {
  it('lists messages newest first, a page at a time, each subject in its message’s language', async () => {
    const email = uniqueEmail('listed');
    const ids = [];
    for (const language of ['ro', 'en', 'it'] as const) {
      ids.push(await queue({ email, language }, order(`FP-${language}`)));
    }
    const page = await read<AdminMailPage>(`/api/admin/mail?search=${email}&limit=2`);
    expect(page.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(page.messages.map((message) => [message.id, message.language, message.subject])).toEqual(
      [
        [ids[2], 'it', 'L’ordine FP-it è confermato'],
        [ids[1], 'en', 'Order FP-en is confirmed'],
      ],
    );
    expect(page.messages[0]).toMatchObject({
      to: email,
      kind: 'order-confirmed',
      status: 'waiting',
      attempts: 0,
      lastError: null,
      sentAt: null,
    });
    const second = await read<AdminMailPage>(`/api/admin/mail?search=${email}&limit=2&page=2`);
    expect(second.messages.map((message) => message.id)).toEqual([ids[0]]);

    const detail = await read<AdminMailDetail>(`/api/admin/mail/${ids[0]}`);
    expect(detail.message).toMatchObject({
      id: ids[0],
      subject: 'Comanda FP-ro a fost confirmată',
    });
    expect(detail.message.text).toContain('Am confirmat comanda dumneavoastră FP-ro.');
    expect(detail.message.html).toContain('<html lang="ro">');
  });

  it('answers 404 for a message that does not exist, and refuses visitors, salons and bad filters', async () => {
    const missing = await app.inject({
      url: '/api/admin/mail/999999',
      headers: bearer(staff.tokens),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Message not found' });
    const visitor = await app.inject({ url: '/api/admin/mail' });
    expect(visitor.statusCode).toBe(401);
    const buyer = await salon(db(), { status: 'APPROVED', isVerified: true });
    for (const url of ['/api/admin/mail', '/api/admin/mail/1']) {
      const refused = await app.inject({ url, headers: bearer(buyer.tokens) });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({ message: 'This area is for staff only.' });
    }
    const badStatus = await app.inject({
      url: '/api/admin/mail?status=lost',
      headers: bearer(staff.tokens),
    });
    expect(badStatus.statusCode).toBe(400);
  });
});
