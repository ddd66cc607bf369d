import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { companies, users } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { issueAccountToken } from '../../server/services/account-tokens';
import { ensureAdmin } from '../../server/services/admin';
import type { Company, User } from '../../src/contracts/accounts';
import type { Product, ProductPage } from '../../src/contracts/catalogue';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { bearer, like, personPayload, register, signIn, uniqueEmail, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let admin: Tokens;
const ADMIN = { email: 'staff@example.com', password: 'Staff-Password-1' };

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  await ensureAdmin(testDb.database.db, ADMIN.email, ADMIN.password);
  admin = await signIn(app, ADMIN.email, ADMIN.password);
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const post = (url: string, payload: object, headers = {}) =>
  app.inject({ method: 'POST', url, payload, headers });

describe('POST /api/auth/register', () => {
  it('creates a user and a pending company, trimmed, with the company e-mail and country set', async () => {
    const email = uniqueEmail();
    const response = await post(
      '/api/auth/register',
      personPayload({
        email: `  ${email.toUpperCase()} `,
        firstName: '  Ana ',
        companyName: ' Salon X ',
      }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json<{ message: string }>().message).toMatch(/Registration successful/);
    const [user] = await testDb.database.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ email, firstName: 'Ana', role: 'USER' });
    const [company] = await testDb.database.db
      .select()
      .from(companies)
      .where(eq(companies.id, user?.companyId ?? 0));
    expect(company).toMatchObject({
      name: 'Salon X',
      status: 'PENDING',
      isVerified: false,
      email,
      country: 'Romania',
    });
    expect(JSON.stringify(response.json())).not.toContain('Secure-Pass1');
  });

  it('answers an e-mail already registered exactly as a new one, creating nothing', async () => {
    const { email } = await register(app);
    const fresh = await post('/api/auth/register', personPayload());
    const response = await post(
      '/api/auth/register',
      personPayload({ email: email.toUpperCase() }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe(fresh.body);
    expect(
      await testDb.database.db.select().from(users).where(eq(users.email, email)),
    ).toHaveLength(1);
  });

  it('maps every broken rule to its field', async () => {
    const response = await post(
      '/api/auth/register',
      personPayload({ firstName: ' ', email: 'nope', password: 'short', taxNumber: '' }),
    );
    expect(response.statusCode).toBe(400);
    const { message, details } = response.json<ErrorBody>();
    expect(message).toBe('Please review the highlighted fields and try again.');
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'firstName', code: 'firstNameRequired', message: 'First name is required' },
        { field: 'email', code: 'emailInvalid', message: 'Email address is not valid' },
        {
          field: 'password',
          code: 'passwordTooShort',
          message: 'Password must be at least 8 characters',
        },
        { field: 'taxNumber', code: 'taxNumberRequired', message: 'VAT/CUI is required' },
      ]),
    );
  });

  it('refuses a password without upper case, lower case and a digit', async () => {
    const response = await post('/api/auth/register', personPayload({ password: 'alllowercase' }));
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().details).toEqual([
      expect.objectContaining({ field: 'password', code: 'passwordWeak' }),
    ]);
  });

  it.each([{ role: 'ADMIN' }, { status: 'APPROVED' }, { isVerified: true }])(
    'refuses mass assignment of %j and creates nothing',
    async (extra) => {
      const payload = personPayload(extra);
      const response = await post('/api/auth/register', payload);
      expect(response.statusCode).toBe(400);
      const found = await testDb.database.db
        .select()
        .from(users)
        .where(eq(users.email, payload.email));
      expect(found).toEqual([]);
    },
  );
});

describe('POST /api/auth/login', () => {
  it('answers tokens and the user, never the password hash', async () => {
    const { email, password } = await register(app);
    const response = await post('/api/auth/login', { email, password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      accessToken: like.any(String),
      refreshToken: like.any(String),
      user: { email },
    });
    expect(response.body).not.toMatch(/argon2|passwordHash/);
  });

  it('answers a wrong password and an unknown e-mail alike', async () => {
    const { email } = await register(app);
    const wrong = await post('/api/auth/login', { email, password: 'Wrong-Pass1' });
    const unknown = await post('/api/auth/login', {
      email: uniqueEmail('nobody'),
      password: 'Wrong-Pass1',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('blocks an e-mail for 15 minutes after 5 failures, even with the right password, with no hint of any password', async () => {
    const { email, password } = await register(app);
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await post('/api/auth/login', { email, password: `Wrong-${i}-Pass` })).statusCode,
      ).toBe(401);
    }
    const blocked = await post('/api/auth/login', { email, password });
    expect(blocked.statusCode).toBe(429);
    const body = blocked.json<ErrorBody>();
    expect(body.retryAfter).toBeGreaterThan(890);
    expect(body.retryAfter).toBeLessThanOrEqual(900);
    expect(body.message).toBe('Too many login attempts. Please try again in 15 minutes.');
    expect(blocked.body).not.toMatch(/password[^s]|Wrong-|Secure-Pass1|Staff-Password/i);
  });

  it('rejects a body with unknown fields', async () => {
    const response = await post('/api/auth/login', { email: 'a@b.co', password: 'x', admin: true });
    expect(response.statusCode).toBe(400);
  });
});

describe('sessions', () => {
  it('rotates the refresh token, and reusing a spent one ends the whole session', async () => {
    const { email, password } = await register(app);
    const first = await signIn(app, email, password);
    const second = await post('/api/auth/refresh', { refreshToken: first.refreshToken });
    expect(second.statusCode).toBe(200);
    const rotated = second.json<Tokens>();
    expect(rotated.refreshToken).not.toBe(first.refreshToken);

    const reuse = await post('/api/auth/refresh', { refreshToken: first.refreshToken });
    expect(reuse.statusCode).toBe(401);
    // The thief's reuse also revoked the rightful holder's newer token.
    expect(
      (await post('/api/auth/refresh', { refreshToken: rotated.refreshToken })).statusCode,
    ).toBe(401);
  });

  it('revokes the session on logout', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    expect((await post('/api/auth/logout', { refreshToken: tokens.refreshToken })).statusCode).toBe(
      200,
    );
    expect(
      (await post('/api/auth/refresh', { refreshToken: tokens.refreshToken })).statusCode,
    ).toBe(401);
  });

  it('tells the browser while a session is open, until it ends, and no more once signed out', async () => {
    const { email, password } = await register(app);
    const day = 24 * 60 * 60;
    /** The cookie an answer sets: its value and how many seconds it lasts. */
    const signedIn = (response: { headers: Record<string, unknown> }) => {
      const cookie = String(response.headers['set-cookie']);
      expect(cookie).toMatch(/^portal-signed-in=1?; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
      return {
        value: /=(1?);/.exec(cookie)?.[1],
        seconds: Number(/Max-Age=(\d+)/.exec(cookie)?.[1]),
      };
    };
    /** The answer says a session is open for about `seconds` (to the test's own seconds). */
    const openFor = (response: { headers: Record<string, unknown> }, seconds: number) => {
      const cookie = signedIn(response);
      expect(cookie.value).toBe('1');
      expect(Math.abs(cookie.seconds - seconds)).toBeLessThan(5);
    };

    const remembered = await post('/api/auth/login', { email, password });
    openFor(remembered, 30 * day);
    // The answer itself is unchanged: no end date beside the tokens.
    expect(Object.keys(remembered.json<object>()).sort()).toEqual([
      'accessToken',
      'refreshToken',
      'user',
    ]);
    const shortly = await post('/api/auth/login', { email, password, rememberMe: false });
    openFor(shortly, day / 2);

    // A refreshed session ends when it was going to.
    const refreshed = await post('/api/auth/refresh', {
      refreshToken: shortly.json<Tokens>().refreshToken,
    });
    openFor(refreshed, day / 2);

    const out = await post('/api/auth/logout', {
      refreshToken: refreshed.json<Tokens>().refreshToken,
    });
    expect(signedIn(out)).toEqual({ value: '', seconds: 0 });
    // A refused sign-in sets nothing.
    const refused = await post('/api/auth/login', { email, password: 'not-the-password' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('answers /api/auth/me for a valid token and 401 otherwise', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    const me = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ user: User }>().user.email).toBe(email);
    expect((await app.inject('/api/auth/me')).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/api/auth/me', headers: bearer('not.a.token') })).statusCode,
    ).toBe(401);
    const [header, payload] = tokens.accessToken.split('.');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect(header).toBeTruthy();
    expect((await app.inject({ url: '/api/auth/me', headers: bearer(unsigned) })).statusCode).toBe(
      401,
    );
  });
});

describe('prices', () => {
  const firstProductPrice = async (headers = {}) => {
    const list = await app.inject({ url: '/api/products?limit=1', headers });
    const [product] = list.json<ProductPage>().products;
    const detail = await app.inject({ url: `/api/products/${product?.id}`, headers });
    return { list: product?.price, detail: detail.json<{ product: Product }>().product.price };
  };

  it('are absent for visitors and pending companies, present once approved, gone when suspended', async () => {
    const { email, password, user } = await register(app);
    expect(await firstProductPrice()).toEqual({ list: undefined, detail: undefined });
    const tokens = await signIn(app, email, password);
    expect(await firstProductPrice(bearer(tokens))).toEqual({ list: undefined, detail: undefined });

    const approve = await post(`/api/admin/companies/${user.companyId}/approve`, {}, bearer(admin));
    expect(approve.statusCode).toBe(200);
    expect(approve.json<{ company: Company }>().company).toMatchObject({
      status: 'APPROVED',
      isVerified: true,
    });
    const priced = await firstProductPrice(bearer(tokens));
    expect(priced.list).toEqual(expect.any(Number));
    expect(priced.detail).toBe(priced.list);

    // The same token: the company's state is read at every request.
    await post(
      `/api/admin/companies/${user.companyId}/suspend`,
      { reason: 'Unpaid invoices' },
      bearer(admin),
    );
    expect(await firstProductPrice(bearer(tokens))).toEqual({ list: undefined, detail: undefined });
  });
});

describe('staff routes', () => {
  it('are refused to users and to visitors', async () => {
    const { email, password, user } = await register(app);
    const tokens = await signIn(app, email, password);
    for (const [method, url] of [
      ['GET', '/api/admin/companies'],
      ['GET', `/api/admin/companies/${user.companyId}`],
      ['POST', `/api/admin/companies/${user.companyId}/approve`],
    ] as const) {
      expect(
        (
          await app.inject({
            method,
            url,
            headers: bearer(tokens),
            ...(method === 'POST' ? { payload: {} } : {}),
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) }))
          .statusCode,
      ).toBe(401);
    }
  });

  it('list companies by status and show one with its users and documents', async () => {
    const { user, email } = await register(app);
    const pending = await app.inject({
      url: '/api/admin/companies?status=PENDING',
      headers: bearer(admin),
    });
    expect(pending.json<{ companies: Company[] }>().companies.map((c) => c.id)).toContain(
      user.companyId,
    );
    const detail = await app.inject({
      url: `/api/admin/companies/${user.companyId}`,
      headers: bearer(admin),
    });
    expect(detail.json()).toMatchObject({
      company: { id: user.companyId },
      documents: [],
      users: [{ email }],
    });
  });

  it('reject with a reason, and refuse to repeat a decision', async () => {
    const { user } = await register(app);
    const rejected = await post(
      `/api/admin/companies/${user.companyId}/reject`,
      { reason: 'Tax number not found' },
      bearer(admin),
    );
    expect(rejected.json<{ company: Company }>().company).toMatchObject({
      status: 'REJECTED',
      statusReason: 'Tax number not found',
    });
    expect(
      (await post(`/api/admin/companies/${user.companyId}/reject`, {}, bearer(admin))).statusCode,
    ).toBe(409);
    expect((await post('/api/admin/companies/999999/approve', {}, bearer(admin))).statusCode).toBe(
      404,
    );
  });
});

describe('users', () => {
  it('update their own names; the e-mail stays read-only; roles cannot be assigned', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    const put = (payload: object) =>
      app.inject({ method: 'PUT', url: '/api/users/profile', payload, headers: bearer(tokens) });
    const ok = await put({ firstName: ' Maria ', lastName: 'Dobre', email });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Profile updated successfully!',
      user: { firstName: 'Maria', lastName: 'Dobre' },
    });
    expect(
      (await put({ firstName: 'M', lastName: 'D', email: 'other@example.com' })).statusCode,
    ).toBe(400);
    expect((await put({ firstName: 'M', lastName: 'D', role: 'ADMIN' })).statusCode).toBe(400);
    expect(
      (await put({ firstName: '', lastName: 'D' })).json<ErrorBody>().details?.[0],
    ).toMatchObject({
      field: 'firstName',
    });
    const me = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
    expect(me.json<{ user: User }>().user).toMatchObject({ role: 'USER', firstName: 'Maria' });
  });

  it('change their password with the current one, and other sessions and reset links end', async () => {
    const { email, password, user } = await register(app);
    const tokens = await signIn(app, email, password);
    const link = await issueAccountToken(testDb.database.db, user.id, 'password-reset');
    const change = (payload: object) =>
      app.inject({ method: 'PUT', url: '/api/users/password', payload, headers: bearer(tokens) });
    const wrong = await change({ currentPassword: 'Not-It-123', newPassword: 'Brand-New-Pass1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<ErrorBody>().details?.[0]).toMatchObject({ field: 'currentPassword' });
    expect((await change({ currentPassword: password, newPassword: 'weak' })).statusCode).toBe(400);
    expect(
      (await change({ currentPassword: password, newPassword: 'Brand-New-Pass1' })).statusCode,
    ).toBe(200);
    expect((await post('/api/auth/login', { email, password })).statusCode).toBe(401);
    await signIn(app, email, 'Brand-New-Pass1');
    const followed = await post('/api/auth/password-reset/confirm', {
      token: link,
      newPassword: 'Taken-Over-Pass-1',
    });
    expect(followed.json<ErrorBody>().code).toBe('TOKEN_USED');
  });

  it('keep their notification settings', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    const settings = {
      orderNotifications: false,
      newProductNotifications: true,
      marketingNewsletter: true,
    };
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/users/notifications',
      payload: settings,
      headers: bearer(tokens),
    });
    expect(saved.json<{ user: User }>().user.notifications).toEqual(settings);
    const me = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
    expect(me.json<{ user: User }>().user.notifications).toEqual(settings);
  });

  it('delete their account after confirming the password: personal data gone, sign-in refused', async () => {
    const { email, password, user } = await register(app);
    const tokens = await signIn(app, email, password);
    const remove = (pw: string) =>
      app.inject({
        method: 'DELETE',
        url: '/api/users/me',
        payload: { password: pw },
        headers: bearer(tokens),
      });
    expect((await remove('Wrong-Pass-1')).statusCode).toBe(400);
    expect((await remove(password)).statusCode).toBe(200);
    expect((await post('/api/auth/login', { email, password })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/auth/me', headers: bearer(tokens) })).statusCode).toBe(
      401,
    );
    const [row] = await testDb.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ firstName: '', lastName: '' });
    expect(row?.email).not.toContain(email.split('@')[0]);
    // The e-mail can be used for a new account.
    await register(app, { email });
  });

  it.each(['ADMIN', 'SALES_REP'] as const)(
    'cannot delete their own account as %s: the back office closes those, and the last staff account stays',
    async (role) => {
      const email = uniqueEmail();
      const made = await app.inject({
        method: 'POST',
        url: '/api/admin/staff',
        payload: { firstName: 'Ilinca', lastName: 'Dobre', email, role },
        headers: bearer(admin),
      });
      const password = made.json<{ temporaryPassword: string }>().temporaryPassword;
      const tokens = await signIn(app, email, password);
      const response = await app.inject({
        method: 'DELETE',
        url: '/api/users/me',
        payload: { password },
        headers: bearer(tokens),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json<ErrorBody>()).toMatchObject({ code: 'ACCOUNT_CLOSED_BY_STAFF' });
      // Still there, still signed in.
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
      expect(me.json<{ user: User }>().user).toMatchObject({ email, role });
      // The only staff account of a deployment cannot remove itself either.
      const own = await app.inject({
        method: 'DELETE',
        url: '/api/users/me',
        payload: { password: ADMIN.password },
        headers: bearer(admin),
      });
      expect(own.statusCode).toBe(403);
    },
  );
});
