/** The server's settings, read once from the environment. */
import { resolve } from 'node:path';
import { BRAND } from '../src/contracts/brand.js';
import { isEmailAddress } from '../src/contracts/email.js';
import {
  BRAND_DETAILS,
  DEFAULT_PAYMENT_DAYS,
  printedIban,
  type MakerDetails,
} from '../src/contracts/maker.js';
import type { DatabaseConfig } from './db/database.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  staticDir: string;
  /** The app's server rendering of first screens (built with the app). */
  renderDir: string;
  /** The site's address as visitors reach it: canonical links, JSON-LD, sitemap, robots.txt. */
  publicUrl: string;
  /** Whose X-Forwarded-For/-Proto headers give the client's address and protocol. */
  trustProxy: boolean | string;
  /** The server log's level (pino's names). */
  logLevel: string;
  /** The staff account made (or given this password) at start, when both are set. */
  admin: { email: string; password: string } | null;
  /** The access tokens' signing key, when set; else a random key kept in the database. */
  jwtSecret: string | null;
  mail: MailConfig;
  /** The maker's details on pro-formas: its registered office, numbers and bank account. */
  maker: MakerDetails;
}

export interface MailConfig {
  /** The SMTP server e-mail is sent through; null writes each message as an .eml file. */
  smtpUrl: string | null;
  /** The sender of every message: "Name <address>" or an address. */
  from: string;
  /** Where messages are written as .eml files when no SMTP server is set. */
  folder: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * TRUST_PROXY: unset or "false" believes no proxy (the default: otherwise any client could
 * name its own address and slip past the per-address limits); "true" believes every one
 * (only behind a proxy that overwrites X-Forwarded-For); or a comma-separated list of the
 * proxies' addresses or CIDR ranges (the safer choice: only they are believed).
 */
function readTrustProxy(value: string | undefined): boolean | string {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^[0-9a-fA-F.:/, ]+$/.test(text) && /[.:]/.test(text)) return text;
  throw new Error(`TRUST_PROXY must be true, false or the proxies' addresses, not "${value}"`);
}

function readPublicUrl(value: string | undefined, host: string, port: number): string {
  if (!value) {
    const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `PUBLIC_URL must be an address such as https://portal.example.com, not "${value}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`PUBLIC_URL must start with https:// or http://, not "${value}"`);
  }
  return url.origin;
}

/**
 * SMTP_URL: the mail server, as smtp://user:password@host:587 (STARTTLS when the server
 * offers it) or smtps://user:password@host:465 (TLS from the start); nodemailer's options
 * may follow as query parameters (?requireTLS=true). Unset or empty: no mail server.
 */
function readSmtpUrl(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('SMTP_URL must be an address such as smtp://user:password@mail.example:587');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// and name a host`);
  }
  return text;
}

/** The maker's name and address, as the footer shows them. */
const DEFAULT_MAIL_FROM = `"${BRAND.name}" <${BRAND.email}>`;

/** MAIL_FROM: "Name <address>" or a bare address; the default is the maker's. */
function readMailFrom(value: string | undefined): string {
  const text = value?.trim() ?? '';
  if (text === '') return DEFAULT_MAIL_FROM;
  const address = /^[^<>]*<([^<>]+)>$/.exec(text)?.[1] ?? text;
  if (!isEmailAddress(address.trim())) {
    throw new Error(
      `MAIL_FROM must be an address such as "Floravia Professional <comenzi@floravia.ro>", not "${value}"`,
    );
  }
  return text;
}

/** The longest payment term accepted, in days: a year. */
const MAX_PAYMENT_DAYS = 365;

/**
 * The maker's legal details, which every pro-forma carries: MAKER_ADDRESS (the registered
 * office, on one line), MAKER_TAX_NUMBER, MAKER_TRADE_REGISTER, MAKER_IBAN and MAKER_BANK,
 * each left off the pro-forma while unset; PAYMENT_DAYS, the days a salon has to pay (15
 * unless set). The name and contacts are the brand's.
 */
function readMaker(env: NodeJS.ProcessEnv): MakerDetails {
  const text = (name: string) => env[name]?.trim() ?? '';
  const ibanText = text('MAKER_IBAN');
  const iban = ibanText === '' ? '' : printedIban(ibanText);
  if (iban === null) {
    throw new Error(
      `MAKER_IBAN must be an IBAN such as RO49 AAAA 1B31 0075 9384 0000, not "${ibanText}"`,
    );
  }
  const daysText = text('PAYMENT_DAYS');
  const paymentDays = daysText === '' ? DEFAULT_PAYMENT_DAYS : Number(daysText);
  if (!/^\d*$/.test(daysText) || paymentDays > MAX_PAYMENT_DAYS) {
    throw new Error(`PAYMENT_DAYS must be a number of days from 0 to 365, not "${daysText}"`);
  }
  return {
    ...BRAND_DETAILS,
    address: text('MAKER_ADDRESS') || BRAND_DETAILS.address,
    taxNumber: text('MAKER_TAX_NUMBER'),
    tradeRegister: text('MAKER_TRADE_REGISTER'),
    iban,
    bank: text('MAKER_BANK'),
    paymentDays,
  };
}

/** A signing key shorter than this can be guessed offline from one token. */
const MIN_JWT_SECRET_LENGTH = 32;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  }
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  const host = env.HOST ?? '0.0.0.0';
  if (env.JWT_SECRET !== undefined && env.JWT_SECRET.length < MIN_JWT_SECRET_LENGTH) {
    throw new Error(`JWT_SECRET must be at least ${MIN_JWT_SECRET_LENGTH} characters long`);
  }
  const logLevel = env.LOG_LEVEL ?? 'warn';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}"`);
  }
  const { ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword } = env;
  if (Boolean(adminEmail) !== Boolean(adminPassword)) {
    throw new Error('ADMIN_EMAIL and ADMIN_PASSWORD are set together, or neither');
  }
  return {
    port,
    host,
    dataDir,
    logLevel,
    admin: adminEmail && adminPassword ? { email: adminEmail, password: adminPassword } : null,
    jwtSecret: env.JWT_SECRET || null,
    database: env.DATABASE_URL
      ? { engine: 'postgres', url: env.DATABASE_URL }
      : { engine: 'pglite', dataDir: resolve(dataDir, 'db') },
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    renderDir: resolve(env.RENDER_DIR ?? 'dist-ssr'),
    publicUrl: readPublicUrl(env.PUBLIC_URL, host, port),
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    mail: {
      smtpUrl: readSmtpUrl(env.SMTP_URL),
      from: readMailFrom(env.MAIL_FROM),
      folder: resolve(dataDir, 'mail'),
    },
    maker: readMaker(env),
  };
}
