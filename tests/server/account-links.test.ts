/**
 * The account's e-mailed links: a forgotten password replaced through a reset link, and
 * the address given at registration confirmed through the link sent then. The links are
 * read where the mail worker reads them, in mail_queue.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { accountTokens, companies, mailQueue, users } from '../../server/db/schema';
import {
  MAX_LINK_MESSAGES_PER_EMAIL,
  MAX_LINK_REQUESTS_PER_ADDRESS,
  MAX_LINK_REQUESTS_PER_EMAIL_AND_ADDRESS,
} from '../../server/services/account-link-limit';
import { RESET_ANSWER_MS } from '../../server/services/account-links';
import { ensureAdmin } from '../../server/services/admin';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { bearer, personPayload, register, signIn, uniqueEmail, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

const PUBLIC_URL = 'https://portal.example.test';
const STAFF = { email: 'links.staff@example.com', password: 'Links-Staff-Pass-1' };

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database, publicUrl: PUBLIC_URL });
  await ensureAdmin(testDb.database.db, STAFF.email, STAFF.password);
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

/** Each test from addresses of its own: the limits count per address. */
let lastAddress = 0;
const freshAddress = () => `203.0.113.${(lastAddress += 1)}`;

const askReset = (email: string, remoteAddress = freshAddress()) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/password-reset',
    payload: { email },
    remoteAddress,
  });

const confirmReset = (token: string, newPassword: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/password-reset/confirm',
    payload: { token, newPassword },
  });

const verify = (token: string) =>
  app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });

const login = (email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

/** The messages queued to an address, newest first. */
const mailTo = (email: string, kind: 'password-reset' | 'verify-email') =>
  db()
    .select()
    .from(mailQueue)
    .where(and(eq(mailQueue.toAddress, email), eq(mailQueue.kind, kind)))
    .orderBy(desc(mailQueue.id));

/** The token of the newest link of that kind sent to an address. */
async function tokenSent(email: string, kind: 'password-reset' | 'verify-email') {
  const [message] = await mailTo(email, kind);
  const link = new URL(String(message?.data.link));
  return link.searchParams.get('token') ?? '';
}

const userRow = async (email: string) => {
  const [row] = await db().select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row;
};

describe('asking for a password reset', () => {
  it('answers an existing and an unknown address alike, and writes only to the existing one', async () => {
    const { email, user } = await register(app);
    const unknown = uniqueEmail('nobody');
    const forExisting = await askReset(email);
    const forUnknown = await askReset(unknown);
    expect(forExisting.statusCode).toBe(202);
    expect(forUnknown.statusCode).toBe(forExisting.statusCode);
    expect(forUnknown.body).toBe(forExisting.body);
    expect(forUnknown.headers['content-type']).toBe(forExisting.headers['content-type']);
    expect(forExisting.json()).toEqual({
      message: expect.stringMatching(/^If an account uses this e-mail address/) as unknown,
    });

    const sent = await mailTo(email, 'password-reset');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ toAddress: email, userId: user.id, language: 'ro' });
    expect(String(sent[0]?.data.link)).toMatch(
      new RegExp(`^${PUBLIC_URL}/account/reset-password\\?token=[A-Za-z0-9_-]{43}$`),
    );
    expect(await mailTo(unknown, 'password-reset')).toEqual([]);
  });

  it('takes at least as long for an unknown address as the work for an existing one', async () => {
    const { email } = await register(app);
    const timed = async (address: string) => {
      const started = performance.now();
      expect((await askReset(address)).statusCode).toBe(202);
      return performance.now() - started;
    };
    // Both wait for the same floor, which the work for an existing account stays within.
    const forExisting = await timed(email);
    const forUnknown = await timed(uniqueEmail('nobody'));
    expect(forExisting).toBeGreaterThanOrEqual(RESET_ANSWER_MS - 5);
    expect(forUnknown).toBeGreaterThanOrEqual(RESET_ANSWER_MS - 5);
    expect(forExisting).toBeLessThan(RESET_ANSWER_MS * 3);
  });

  it('writes in the language of the user, and finds the address in any letter case', async () => {
    const { email } = await register(app);
    await db().update(users).set({ language: 'it' }).where(eq(users.email, email));
    expect((await askReset(`  ${email.toUpperCase()} `)).statusCode).toBe(202);
    const [message] = await mailTo(email, 'password-reset');
    expect(message?.language).toBe('it');
  });

  it('writes nothing to a deleted or a deactivated account, and answers the same', async () => {
    const deleted = await register(app);
    const tokens = await signIn(app, deleted.email, deleted.password);
    const removal = await app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      payload: { password: deleted.password },
      headers: bearer(tokens),
    });
    expect(removal.statusCode).toBe(200);
    const deactivated = await register(app);
    await db()
      .update(users)
      .set({ deactivatedAt: new Date() })
      .where(eq(users.email, deactivated.email));
    const answers = [await askReset(deleted.email), await askReset(deactivated.email)];
    for (const answer of answers) expect(answer.statusCode).toBe(202);
    expect(await mailTo(deleted.email, 'password-reset')).toEqual([]);
    expect(await mailTo(deactivated.email, 'password-reset')).toEqual([]);
  });

  it('keeps only a hash of the token: the database holds no token of a link', async () => {
    const { email, user } = await register(app);
    await askReset(email);
    const token = await tokenSent(email, 'password-reset');
    const rows = await db().select().from(accountTokens).where(eq(accountTokens.userId, user.id));
    const reset = rows.find((row) => row.purpose === 'password-reset');
    expect(reset?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    // No column of the tokens' table nor of the user holds the token itself.
    const tables = await db().execute(
      sql`SELECT row_to_json(t)::text AS row FROM account_tokens t UNION ALL SELECT row_to_json(u)::text FROM users u`,
    );
    const text = (tables as { rows: { row: string }[] }).rows.map((r) => r.row).join();
    expect(text).not.toContain(token);
  });

  it('makes one address wait after 3 requests for one e-mail, with retryAfter and Retry-After', async () => {
    const { email } = await register(app);
    const address = freshAddress();
    for (let i = 0; i < MAX_LINK_REQUESTS_PER_EMAIL_AND_ADDRESS; i += 1) {
      expect((await askReset(email, address)).statusCode).toBe(202);
    }
    const refused = await askReset(email, address);
    expect(refused.statusCode).toBe(429);
    const body = refused.json<ErrorBody>();
    expect(body).toMatchObject({ code: 'TOO_MANY_LINK_REQUESTS' });
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(refused.headers['retry-after']).toBe(String(body.retryAfter));
    // The same for an unknown address: the limit tells nothing about accounts.
    const unknown = uniqueEmail('nobody');
    for (let i = 0; i < MAX_LINK_REQUESTS_PER_EMAIL_AND_ADDRESS; i += 1) {
      expect((await askReset(unknown, address)).statusCode).toBe(202);
    }
    expect((await askReset(unknown, address)).statusCode).toBe(429);
    // Another address still may.
    expect((await askReset(email)).statusCode).toBe(202);
  });

  it('makes one address wait after 20 requests for any e-mails, also when they come at once', async () => {
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: MAX_LINK_REQUESTS_PER_ADDRESS + 5 }, () =>
        askReset(uniqueEmail('many'), address),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort((a, b) => a - b);
    expect(statuses).toEqual([
      ...Array<number>(MAX_LINK_REQUESTS_PER_ADDRESS).fill(202),
      ...Array<number>(5).fill(429),
    ]);
  });

  it('sends one e-mail at most 5 messages an hour, however many addresses ask at once', async () => {
    const { email } = await register(app);
    const answers = await Promise.all(
      Array.from({ length: MAX_LINK_MESSAGES_PER_EMAIL + 3 }, () => askReset(email)),
    );
    for (const answer of answers) expect(answer.statusCode).toBe(202);
    expect(await mailTo(email, 'password-reset')).toHaveLength(MAX_LINK_MESSAGES_PER_EMAIL);
  });

  it('refuses what is not an e-mail address, with the sign-in form’s codes', async () => {
    const answer = await askReset('not-an-address');
    expect(answer.statusCode).toBe(400);
    expect(answer.json<ErrorBody>().details).toEqual([
      { field: 'email', code: 'emailInvalid', message: expect.any(String) as unknown },
    ]);
  });
});

describe('choosing the new password', () => {
  it('sets it, ends every session of the account, and the old password stops working', async () => {
    const { email, password } = await register(app);
    const sessions: Tokens[] = [
      await signIn(app, email, password),
      await signIn(app, email, password),
    ];
    await askReset(email);
    const answer = await confirmReset(await tokenSent(email, 'password-reset'), 'Brand-New-Pass-7');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      message: 'Your password has been changed. Please sign in with it.',
    });
    for (const session of sessions) {
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(session) });
      expect(me.statusCode).toBe(401);
      const refresh = await app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refreshToken: session.refreshToken },
      });
      expect(refresh.statusCode).toBe(401);
    }
    expect((await login(email, password)).statusCode).toBe(401);
    expect((await login(email, 'Brand-New-Pass-7')).statusCode).toBe(200);
  });

  it('works once: the link used again is refused with TOKEN_USED', async () => {
    const { email } = await register(app);
    await askReset(email);
    const token = await tokenSent(email, 'password-reset');
    expect((await confirmReset(token, 'First-New-Pass-1')).statusCode).toBe(200);
    const again = await confirmReset(token, 'Second-New-Pass-2');
    expect(again.statusCode).toBe(410);
    expect(again.json<ErrorBody>()).toMatchObject({
      code: 'TOKEN_USED',
      message: 'This link has already been used.',
    });
    expect((await login(email, 'First-New-Pass-1')).statusCode).toBe(200);
  });

  it('takes one link once when it is sent twice at the same time', async () => {
    const { email } = await register(app);
    await askReset(email);
    const token = await tokenSent(email, 'password-reset');
    const answers = await Promise.all([
      confirmReset(token, 'Racing-Pass-One-1'),
      confirmReset(token, 'Racing-Pass-Two-2'),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 410]);
    const winner = answers[0]?.statusCode === 200 ? 'Racing-Pass-One-1' : 'Racing-Pass-Two-2';
    expect((await login(email, winner)).statusCode).toBe(200);
  });

  it('refuses a link past its hour with TOKEN_EXPIRED, and changes nothing', async () => {
    const { email, password } = await register(app);
    await askReset(email);
    const token = await tokenSent(email, 'password-reset');
    const hash = createHash('sha256').update(token).digest('hex');
    const [row] = await db()
      .select({ expiresAt: accountTokens.expiresAt, createdAt: accountTokens.createdAt })
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hash));
    // Valid one hour from when it was made.
    expect((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBeCloseTo(
      60 * 60 * 1000,
      -4,
    );
    await db()
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.tokenHash, hash));
    const answer = await confirmReset(token, 'Late-New-Pass-3');
    expect(answer.statusCode).toBe(410);
    expect(answer.json<ErrorBody>().code).toBe('TOKEN_EXPIRED');
    expect((await login(email, password)).statusCode).toBe(200);
  });

  it('refuses an unknown or malformed token with TOKEN_INVALID', async () => {
    for (const token of ['A'.repeat(43), 'short', '']) {
      const answer = await confirmReset(token, 'Any-New-Pass-4');
      expect(answer.statusCode).toBe(400);
      expect(answer.json<ErrorBody>().code).toBe('TOKEN_INVALID');
    }
  });

  it('keeps the registration’s password rules, and a refused password leaves the link usable', async () => {
    const { email } = await register(app);
    await askReset(email);
    const token = await tokenSent(email, 'password-reset');
    const weak = await confirmReset(token, 'alllowercase1');
    expect(weak.statusCode).toBe(400);
    expect(weak.json<ErrorBody>().details).toEqual([
      { field: 'newPassword', code: 'passwordWeak', message: expect.any(String) as unknown },
    ]);
    const short = await confirmReset(token, 'Ab1');
    expect(short.json<ErrorBody>().details?.[0]?.code).toBe('passwordTooShort');
    expect((await confirmReset(token, 'Strong-Enough-5')).statusCode).toBe(200);
  });

  it('ends the account’s other reset links, confirms the address and forgives wrong guesses', async () => {
    const { email, password } = await register(app);
    for (let i = 0; i < 5; i += 1)
      expect((await login(email, `Wrong-${i}-Pass`)).statusCode).toBe(401);
    expect((await login(email, password)).statusCode).toBe(429);
    await askReset(email);
    const older = await tokenSent(email, 'password-reset');
    await askReset(email);
    const newer = await tokenSent(email, 'password-reset');
    expect(newer).not.toBe(older);
    expect((await confirmReset(newer, 'Fresh-Start-Pass-6')).statusCode).toBe(200);
    expect((await confirmReset(older, 'Other-Start-Pass-7')).json<ErrorBody>().code).toBe(
      'TOKEN_USED',
    );
    expect((await userRow(email)).emailVerifiedAt).not.toBeNull();
    expect((await login(email, 'Fresh-Start-Pass-6')).statusCode).toBe(200);
  });

  it('does not take a confirmation link for a reset link', async () => {
    const { email } = await register(app);
    const answer = await confirmReset(await tokenSent(email, 'verify-email'), 'Mixed-Up-Pass-8');
    expect(answer.json<ErrorBody>().code).toBe('TOKEN_INVALID');
  });
});

describe('confirming the address given at registration', () => {
  it('sends a link at registration, in the user’s language, valid 7 days', async () => {
    const { email, user } = await register(app);
    const [message] = await mailTo(email, 'verify-email');
    expect(message).toMatchObject({ toAddress: email, userId: user.id, language: 'ro' });
    expect(String(message?.data.link)).toMatch(
      new RegExp(`^${PUBLIC_URL}/account/verify-email\\?token=[A-Za-z0-9_-]{43}$`),
    );
    const [row] = await db()
      .select()
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, 'verify-email')));
    expect((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBeCloseTo(
      7 * 24 * 60 * 60 * 1000,
      -4,
    );
  });

  it('marks the address confirmed once; the link again is TOKEN_USED and changes nothing', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    const before = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
    expect(before.json<{ user: { emailVerified: boolean } }>().user.emailVerified).toBe(false);

    const token = await tokenSent(email, 'verify-email');
    const answer = await verify(token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: 'Thank you: your e-mail address is confirmed.' });
    const verifiedAt = (await userRow(email)).emailVerifiedAt;
    expect(verifiedAt).not.toBeNull();
    const after = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
    expect(after.json<{ user: { emailVerified: boolean } }>().user.emailVerified).toBe(true);

    const again = await verify(token);
    expect(again.statusCode).toBe(410);
    expect(again.json<ErrorBody>().code).toBe('TOKEN_USED');
    expect((await userRow(email)).emailVerifiedAt).toEqual(verifiedAt);
  });

  it('refuses a link past its end, and an unknown one', async () => {
    const { email } = await register(app);
    const token = await tokenSent(email, 'verify-email');
    await db()
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.tokenHash, createHash('sha256').update(token).digest('hex')));
    expect((await verify(token)).json<ErrorBody>().code).toBe('TOKEN_EXPIRED');
    expect((await verify('B'.repeat(43))).json<ErrorBody>().code).toBe('TOKEN_INVALID');
    expect((await userRow(email)).emailVerifiedAt).toBeNull();
  });

  it('sends a signed-in user a new link on request, until the address is confirmed', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    const resend = () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/verify-email/resend',
        payload: {},
        headers: bearer(tokens),
        remoteAddress: '198.51.100.77',
      });
    const first = await resend();
    expect(first.statusCode).toBe(202);
    expect(await mailTo(email, 'verify-email')).toHaveLength(2);
    // The new link works; so does the first one, until one of them is followed.
    expect((await verify(await tokenSent(email, 'verify-email'))).statusCode).toBe(200);
    const confirmed = await resend();
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json<ErrorBody>().code).toBe('EMAIL_ALREADY_VERIFIED');
    expect(await mailTo(email, 'verify-email')).toHaveLength(2);
    const visitor = await app.inject({
      method: 'POST',
      url: '/api/auth/verify-email/resend',
      payload: {},
    });
    expect(visitor.statusCode).toBe(401);
  });

  it('throttles new links like reset requests', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    const address = freshAddress();
    const resend = () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/verify-email/resend',
        payload: {},
        headers: bearer(tokens),
        remoteAddress: address,
      });
    for (let i = 0; i < MAX_LINK_REQUESTS_PER_EMAIL_AND_ADDRESS; i += 1) {
      expect((await resend()).statusCode).toBe(202);
    }
    expect((await resend()).statusCode).toBe(429);
  });

  it('shows staff which users have not confirmed their address', async () => {
    const confirmedUser = await register(app);
    await verify(await tokenSent(confirmedUser.email, 'verify-email'));
    const staff = await signIn(app, STAFF.email, STAFF.password);
    const detail = await app.inject({
      url: `/api/admin/companies/${confirmedUser.user.companyId}`,
      headers: bearer(staff),
    });
    expect(detail.json<{ users: { email: string; emailVerified: boolean }[] }>().users).toEqual([
      expect.objectContaining({ email: confirmedUser.email, emailVerified: true }) as unknown,
    ]);
    const other = await register(app);
    const pending = await app.inject({
      url: `/api/admin/companies/${other.user.companyId}`,
      headers: bearer(staff),
    });
    expect(pending.json<{ users: { emailVerified: boolean }[] }>().users[0]?.emailVerified).toBe(
      false,
    );
  });
});

describe('registering with an address an account already has', () => {
  const registerWith = (email: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: personPayload({ email, password: 'Claimed-Pass-9', firstName: 'Mallory' }),
      remoteAddress: freshAddress(),
    });

  it('cannot claim the staff account: the same answer, nothing made, no message', async () => {
    const fresh = await registerWith(uniqueEmail('fresh'));
    const companiesBefore = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(companies);
    const staffBefore = await userRow(STAFF.email);
    for (const email of [STAFF.email, STAFF.email.toUpperCase()]) {
      const answer = await registerWith(email);
      expect(answer.statusCode).toBe(fresh.statusCode);
      expect(answer.body).toBe(fresh.body);
    }
    expect(
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(companies),
    ).toEqual(companiesBefore);
    expect(await userRow(STAFF.email)).toEqual(staffBefore);
    expect(await mailTo(STAFF.email, 'verify-email')).toEqual([]);
    expect((await login(STAFF.email, 'Claimed-Pass-9')).statusCode).toBe(401);
    expect((await login(STAFF.email, STAFF.password)).statusCode).toBe(200);
  });

  it('cannot claim a salon’s account either, nor send it a confirmation link', async () => {
    const owner = await register(app);
    const answer = await registerWith(owner.email);
    expect(answer.statusCode).toBe(201);
    expect(await mailTo(owner.email, 'verify-email')).toHaveLength(1);
    expect((await login(owner.email, 'Claimed-Pass-9')).statusCode).toBe(401);
  });
});
