/**
 * The server's settings are read and checked in one place (server/config.ts): a wrong
 * value stops the server at start with the setting's name, never half-way through.
 */
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { CONFIGURED_MAKER, MAKER_SETTINGS } from '../fixtures/maker-details';

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

  it('send e-mail through SMTP_URL from MAIL_FROM, else write it to the data folder as the maker', () => {
    expect(readConfig({ DATA_DIR: '/srv/portal' }).mail).toEqual({
      smtpUrl: null,
      from: '"Floravia Professional" <comenzi@floravia.ro>',
      folder: '/srv/portal/mail',
    });
    expect(
      readConfig({
        SMTP_URL: 'smtps://portal:secret@mail.example.com:465',
        MAIL_FROM: 'Floravia Comenzi <comenzi@floravia.ro>',
      }).mail,
    ).toMatchObject({
      smtpUrl: 'smtps://portal:secret@mail.example.com:465',
      from: 'Floravia Comenzi <comenzi@floravia.ro>',
    });
    expect(readConfig({ MAIL_FROM: 'orders@floravia.ro' }).mail.from).toBe('orders@floravia.ro');
  });

  it('take the staff account only with both its e-mail and password', () => {
    expect(
      readConfig({ ADMIN_EMAIL: 'staff@example.com', ADMIN_PASSWORD: 'Staff-Pass-1' }).admin,
    ).toEqual({ email: 'staff@example.com', password: 'Staff-Pass-1' });
    expect(() => readConfig({ ADMIN_EMAIL: 'staff@example.com' })).toThrow(/ADMIN_PASSWORD/);
  });

  it("give pro-formas the maker's legal details, and only the brand's when none are set", () => {
    expect(readConfig({}).maker).toEqual({
      name: 'Floravia Professional',
      email: 'comenzi@floravia.ro',
      phone: '+40 256 490 198',
      address: '',
      taxNumber: '',
      tradeRegister: '',
      iban: '',
      bank: '',
      paymentDays: 15,
    });
    // Typed as a bank prints it, or as a clerk pastes it: the same account.
    const typed = { ...MAKER_SETTINGS, MAKER_IBAN: 'ro49aaaa1b31007593840000' };
    expect(readConfig(typed).maker).toEqual(CONFIGURED_MAKER);
    expect(readConfig({ ...typed, MAKER_IBAN: CONFIGURED_MAKER.iban }).maker).toEqual(
      CONFIGURED_MAKER,
    );
    expect(readConfig({ MAKER_ADDRESS: `  ${CONFIGURED_MAKER.address} ` }).maker.address).toBe(
      CONFIGURED_MAKER.address,
    );
  });

  it.each([
    [{ PORT: '80a' }, /PORT/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET/],
    [{ TRUST_PROXY: 'yes please' }, /TRUST_PROXY/],
    [{ PUBLIC_URL: 'ftp://portal.example' }, /PUBLIC_URL/],
    [{ SMTP_URL: 'mail.example.com:587' }, /SMTP_URL/],
    [{ SMTP_URL: 'https://mail.example.com' }, /SMTP_URL/],
    [{ MAIL_FROM: 'Floravia <not an address>' }, /MAIL_FROM/],
    // One digit mistyped: the check digits no longer agree.
    [{ MAKER_IBAN: 'RO49 AAAA 1B31 0075 9384 0001' }, /MAKER_IBAN/],
    [{ MAKER_IBAN: '1234' }, /MAKER_IBAN/],
    [{ PAYMENT_DAYS: '-5' }, /PAYMENT_DAYS/],
    [{ PAYMENT_DAYS: '400' }, /PAYMENT_DAYS/],
    [{ PAYMENT_DAYS: 'fifteen' }, /PAYMENT_DAYS/],
  ])('refuse %o, naming the setting', (env, name) => {
    expect(() => readConfig(env)).toThrow(name);
  });
});
