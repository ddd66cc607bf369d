/**
 * Several server processes on one PostgreSQL each run a mail worker: two workers, each
 * with a connection pool of its own (as two processes have), draining one queue at the
 * same moment send every message exactly once.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/database';
import { mailQueue } from '../../../server/db/schema';
import { readConfig } from '../../../server/config';
import { mailSender } from '../../../server/services/mail/transport';
import { mailWorker } from '../../../server/services/mail/worker';
import { smtpListener, type SmtpListener } from '../smtp-listener';
import { createTestDatabase, type TestDatabase } from '../test-database';

let testDb: TestDatabase;
let other: Database;
let smtp: SmtpListener;

beforeAll(async () => {
  testDb = await createTestDatabase();
  other = await openDatabase({ engine: 'postgres', url: testDb.url as string });
  // Connected before the race, as a running process's pool is: a first connection made
  // during it could come after the other worker had sent everything.
  await other.db.execute(sql`SELECT 1`);
  // A little slow to accept each message, so that the two workers' rounds overlap.
  smtp = await smtpListener({ delayMs: 5 });
});

afterAll(async () => {
  await smtp?.close();
  await other?.close();
  await testDb?.drop();
});

const MESSAGES = 60;

describe('two mail workers on one PostgreSQL', () => {
  it('send each queued message once between them', async () => {
    await testDb.database.db.insert(mailQueue).values(
      Array.from({ length: MESSAGES }, (_, i) => ({
        toAddress: `salon.${i}@example.com`,
        language: 'en' as const,
        kind: 'order-confirmed',
        data: { orderNumber: `FP-2026-${String(i).padStart(6, '0')}` },
      })),
    );
    const mail = { ...readConfig({ SMTP_URL: smtp.url }).mail };
    const workers = [testDb.database, other].map((database) =>
      mailWorker({ db: database.db, sender: mailSender(mail) }),
    );

    const sent = await Promise.all(workers.map((worker) => worker.drain()));
    await Promise.all(workers.map((worker) => worker.stop()));

    expect(sent.reduce((sum, count) => sum + count, 0)).toBe(MESSAGES);
    // Both took part: the claim passes over what the other holds instead of waiting for it.
    expect(sent.every((count) => count > 0)).toBe(true);
    const subjects = smtp.received.map((message) => message.subject);
    expect(subjects).toHaveLength(MESSAGES);
    expect(new Set(subjects).size).toBe(MESSAGES);
    const rows = await testDb.database.db
      .select({ attempts: mailQueue.attempts, sentAt: mailQueue.sentAt })
      .from(mailQueue)
      .where(eq(mailQueue.kind, 'order-confirmed'));
    expect(rows).toHaveLength(MESSAGES);
    expect(rows.every((row) => row.attempts === 1 && row.sentAt !== null)).toBe(true);
  });
});
