/**
 * The server's settings are read and checked in one place (server/config.ts): a wrong
 * value stops the server at start with the setting's name, never half-way through.
 */
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';

describe('the server settings', () => {
  it('have defaults that run the portal on the embedded database', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      logLevel: 'warn',
      admin: null,
      jwtSecret: null,
      trustProxy: false,
      publicUrl: 'http://localhost:8080',
      database: { engine: 'pglite' },
    });
  });

  it('take PostgreSQL when DATABASE_URL is set', () => {
    const url = 'postgres://portal@db.example/portal';
    expect(readConfig({ DATABASE_URL: url }).database).toEqual({ engine: 'postgres', url });
  });

  it('take the staff account only with both its e-mail and password', () => {
    expect(
      readConfig({ ADMIN_EMAIL: 'staff@example.com', ADMIN_PASSWORD: 'Staff-Pass-1' }).admin,
    ).toEqual({ email: 'staff@example.com', password: 'Staff-Pass-1' });
    expect(() => readConfig({ ADMIN_EMAIL: 'staff@example.com' })).toThrow(/ADMIN_PASSWORD/);
  });

  it.each([
    [{ PORT: '80a' }, /PORT/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET/],
    [{ TRUST_PROXY: 'yes please' }, /TRUST_PROXY/],
    [{ PUBLIC_URL: 'ftp://portal.example' }, /PUBLIC_URL/],
  ])('refuse %o, naming the setting', (env, name) => {
    expect(() => readConfig(env)).toThrow(name);
  });
});
