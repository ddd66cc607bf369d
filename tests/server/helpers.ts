/**
 * Small factories for the server suites: accounts, sessions and multipart bodies; and
 * vitest's matchers typed for expected objects.
 */
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body as a browser would send it. */
export function multipart(fields: Record<string, string>, files: MultipartFile[] = []) {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  randomBytes(64),
]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);

/** A shipping address that passes the checkout's rules. */
export const ADDRESS = {
  firstName: 'Ioana',
  lastName: 'Pop',
  street: 'Strada Lalelelor 3',
  city: 'Cluj-Napoca',
  zipCode: '400001',
  country: 'Romania',
  phone: '+40 264 555 010',
};

let counter = 0;
/** A unique e-mail for each account a test creates. */
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}.${Date.now()}.${(counter += 1)}@example.com`;

export function personPayload(overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail(),
    password: 'Secure-Pass1',
    firstName: 'Ana',
    lastName: 'Ionescu',
    companyName: 'Salon Ana SRL',
    taxNumber: 'RO123456',
    ...overrides,
  };
}

export function wizardFields(overrides: Record<string, string> = {}) {
  return {
    firstName: 'Luca',
    lastName: 'Rossi',
    email: uniqueEmail('wizard'),
    password: 'secret1',
    confirmPassword: 'secret1',
    companyName: 'Capelli Rossi SRL',
    taxNumber: 'IT01234567890',
    registrationNumber: 'MI-123456',
    companyEmail: 'office@capelli-rossi.example',
    companyPhone: '+39 02 1234 5678',
    address: 'Via Roma 1',
    city: 'Milano',
    postalCode: '20100',
    country: 'Italy',
    website: 'https://capelli-rossi.example',
    ...overrides,
  };
}

/**
 * A customer registered through the quick form. The registration's answer does not say
 * who was created (it reads the same for a taken e-mail), so the user is read after
 * signing in.
 */
export async function register(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const payload = personPayload(overrides);
  const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
  const tokens = await signIn(app, String(payload.email), String(payload.password));
  const me = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
  return { ...payload, user: me.json<{ user: { id: number; companyId: number } }>().user };
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export async function signIn(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<Tokens> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return response.json<Tokens>();
}

export const bearer = (tokens: Tokens | string) => ({
  authorization: `Bearer ${typeof tokens === 'string' ? tokens : tokens.accessToken}`,
});

/**
 * vitest's asymmetric matchers, typed `unknown` instead of `any`, so that an expected
 * object can hold them and stay typed: `toMatchObject({ id: like.any(Number) })`.
 */
export const like = {
  any: (type: unknown): unknown => expect.any(type),
  stringContaining: (text: string): unknown => expect.stringContaining(text),
  stringMatching: (pattern: RegExp): unknown => expect.stringMatching(pattern),
  objectContaining: (object: object): unknown => expect.objectContaining(object),
};
