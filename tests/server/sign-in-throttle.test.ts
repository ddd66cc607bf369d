/**
 * The sign-in throttle as an attacker and as the account's owner meet it: simultaneous
 * guesses, guesses from many addresses, and an office behind one proxy.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import {
  MAX_FAILURES_PER_EMAIL,
  MAX_FAILURES_PER_EMAIL_AND_ADDRESS,
} from '../../server/services/login-throttle';
import { clientAddress } from '../../server/services/client-address';
import { bearer, register, signIn } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const login = (
  email: string,
  password: string,
  remoteAddress = '203.0.113.10',
  target: FastifyInstance = app,
  headers: Record<string, string> = {},
) =>
  target.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress,
    headers,
  });

describe('simultaneous guesses', () => {
  it('checks at most 5 of 100 simultaneous wrong guesses; the rest wait with retryAfter and Retry-After', async () => {
    const { email, password } = await register(app);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login(email, `Wrong-${i}-Pass`, '203.0.113.20')),
    );
    const checked = answers.filter((a) => a.statusCode === 401);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(checked.length).toBeLessThanOrEqual(MAX_FAILURES_PER_EMAIL_AND_ADDRESS);
    expect(checked.length + refused.length).toBe(100);
    for (const answer of refused) {
      const retryAfter = answer.json<{ retryAfter: number }>().retryAfter;
      expect(retryAfter).toBeGreaterThan(0);
      expect(answer.headers['retry-after']).toBe(String(retryAfter));
    }
    // The right password from the guessing address waits too.
    expect((await login(email, password, '203.0.113.20')).statusCode).toBe(429);
  });
});

describe('the owner is not locked out by someone else', () => {
  it('lets the right password in from another address after 5 failures from one', async () => {
    const { email, password } = await register(app);
    for (let i = 0; i < 5; i += 1) {
      expect((await login(email, `Wrong-${i}-Pass`, '198.51.100.1')).statusCode).toBe(401);
    }
    expect((await login(email, password, '198.51.100.1')).statusCode).toBe(429);
    expect((await login(email, password, '198.51.100.2')).statusCode).toBe(200);
  });

  it('after 50 failures from many addresses, an address without failures still signs in; one with failures waits', async () => {
    const { email, password } = await register(app);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i += 1) {
      // 25 addresses, 2 guesses each: under the per-address limit, over the e-mail's.
      const answer = await login(email, `Wrong-${i}-Pass`, `192.0.2.${Math.floor(i / 2) + 1}`);
      expect(answer.statusCode).toBe(401);
    }
    expect((await login(email, password, '192.0.2.1')).statusCode).toBe(429);
    // A new address gets one guess: a wrong one closes it too.
    expect((await login(email, 'Wrong-Again1', '192.0.2.200')).statusCode).toBe(401);
    expect((await login(email, password, '192.0.2.200')).statusCode).toBe(429);
    expect((await login(email, password, '192.0.2.201')).statusCode).toBe(200);
  });

  it("forgives an address's failures for an e-mail once its password is right", async () => {
    const { email, password } = await register(app);
    for (let i = 0; i < 4; i += 1) await login(email, `Wrong-${i}-Pass`, '198.51.100.7');
    expect((await login(email, password, '198.51.100.7')).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) {
      expect((await login(email, `Wrong-${i}-Pass`, '198.51.100.7')).statusCode).toBe(401);
    }
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  const PROXY = '10.0.0.5';

  it('without TRUST_PROXY, X-Forwarded-For is ignored: a guesser cannot name a new address each time', async () => {
    const { email, password } = await register(app);
    for (let i = 0; i < 5; i += 1) {
      await login(email, `Wrong-${i}-Pass`, PROXY, app, { 'x-forwarded-for': `192.0.2.${i}` });
    }
    const answer = await login(email, password, PROXY, app, { 'x-forwarded-for': '192.0.2.99' });
    expect(answer.statusCode).toBe(429);
  });

  it('with TRUST_PROXY, each client behind the proxy is counted by its own address, so one guesser does not lock out the office', async () => {
    const proxied = await buildApp({ database: testDb.database, trustProxy: PROXY });
    try {
      const { email, password } = await register(app);
      for (let i = 0; i < 5; i += 1) {
        await login(email, `Wrong-${i}-Pass`, PROXY, proxied, { 'x-forwarded-for': '192.0.2.66' });
      }
      const guesser = await login(email, password, PROXY, proxied, {
        'x-forwarded-for': '192.0.2.66',
      });
      expect(guesser.statusCode).toBe(429);
      const owner = await login(email, password, PROXY, proxied, {
        'x-forwarded-for': '192.0.2.77',
      });
      expect(owner.statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe('addresses of one client', () => {
  it('count an IPv6 /64 as one address, and an IPv4 written as IPv6 as that IPv4', () => {
    expect(clientAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('2001:db8:1:3::1')).not.toBe(clientAddress('2001:db8:1:2::1'));
  });

  it('gives a guesser naming a new address of its /64 for every guess no more than 5 guesses', async () => {
    const { email, password } = await register(app);
    const answers = [];
    for (let i = 1; i <= 8; i += 1) {
      answers.push(
        (await login(email, `Wrong-${i}-Pass`, `2001:db8:77:1::${i.toString(16)}`)).statusCode,
      );
    }
    expect(answers.filter((status) => status === 401)).toHaveLength(5);
    expect((await login(email, password, '2001:db8:77:1::99')).statusCode).toBe(429);
    expect((await login(email, password, '2001:db8:77:2::1')).statusCode).toBe(200);
  });
});

describe('changes that check the password', () => {
  it('are throttled with sign-in: a stolen session cannot guess the password without limit', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    const change = (currentPassword: string) =>
      app.inject({
        method: 'PUT',
        url: '/api/users/password',
        payload: { currentPassword, newPassword: 'Brand-New-Pass1' },
        headers: bearer(tokens),
        remoteAddress: '203.0.113.50',
      });
    for (let i = 0; i < 5; i += 1) expect((await change(`Wrong-${i}-Pass`)).statusCode).toBe(400);
    const blocked = await change(password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    const deletion = await app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      payload: { password },
      headers: bearer(tokens),
      remoteAddress: '203.0.113.50',
    });
    expect(deletion.statusCode).toBe(429);
  });

  it('do not count a refusal that is no guess, such as a weak new password', async () => {
    const { email, password } = await register(app);
    const tokens = await signIn(app, email, password);
    for (let i = 0; i < 6; i += 1) {
      const weak = await app.inject({
        method: 'PUT',
        url: '/api/users/password',
        payload: { currentPassword: password, newPassword: 'weak' },
        headers: bearer(tokens),
        remoteAddress: '203.0.113.51',
      });
      expect(weak.statusCode).toBe(400);
    }
    expect((await login(email, password, '203.0.113.51')).statusCode).toBe(200);
  });
});
