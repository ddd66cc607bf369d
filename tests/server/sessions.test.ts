/**
 * Sessions end when they are ended: signing out, a password change or a stolen refresh
 * token stop the session's access tokens at once, not when they expire 15 minutes later.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { bearer, register, signIn, type Tokens } from './helpers';
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

const post = (url: string, payload: object, tokens?: Tokens) =>
  app.inject({ method: 'POST', url, payload, headers: tokens ? bearer(tokens) : {} });
const me = async (tokens: Tokens | string) =>
  (await app.inject({ url: '/api/auth/me', headers: bearer(tokens) })).statusCode;
const refresh = async (tokens: Tokens) =>
  (await post('/api/auth/refresh', { refreshToken: tokens.refreshToken })).statusCode;

describe('changing the password', () => {
  it('keeps the device that changed it signed in and signs out every other device at once', async () => {
    const { email, password } = await register(app);
    const phone = await signIn(app, email, password);
    const tablet = await signIn(app, email, password);
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/users/password',
      payload: { currentPassword: password, newPassword: 'Brand-New-Pass1' },
      headers: bearer(phone),
    });
    expect(changed.statusCode).toBe(200);

    expect(await me(phone)).toBe(200);
    expect(await refresh(phone)).toBe(200);
    expect(await me(tablet)).toBe(401);
    expect(await refresh(tablet)).toBe(401);
  });
});

describe('access tokens of an ended session', () => {
  it('stop working as soon as the session signs out, while other sessions go on', async () => {
    const { email, password } = await register(app);
    const leaving = await signIn(app, email, password);
    const staying = await signIn(app, email, password);
    expect(await me(leaving)).toBe(200);
    expect(
      (await post('/api/auth/logout', { refreshToken: leaving.refreshToken })).statusCode,
    ).toBe(200);
    expect(await me(leaving)).toBe(401);
    expect(await me(staying)).toBe(200);
  });

  it('stop working when a spent refresh token comes back and the session is revoked', async () => {
    const { email, password } = await register(app);
    const first = await signIn(app, email, password);
    const rotated = (
      await post('/api/auth/refresh', { refreshToken: first.refreshToken })
    ).json<Tokens>();
    expect(await me(rotated)).toBe(200);
    expect(await refresh(first)).toBe(401);
    expect(await me(rotated)).toBe(401);
  });

  it('carry on after the refresh token is rotated: the session is the same', async () => {
    const { email, password } = await register(app);
    const first = await signIn(app, email, password);
    const rotated = (
      await post('/api/auth/refresh', { refreshToken: first.refreshToken })
    ).json<Tokens>();
    expect(await me(first.accessToken)).toBe(200);
    expect(await me(rotated.accessToken)).toBe(200);
  });
});
