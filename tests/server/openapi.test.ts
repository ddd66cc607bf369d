/**
 * The OpenAPI document (server/plugins/api-docs.ts) held against the server itself: every
 * /api route is in it with its methods, a run through the main flows gets only answers it
 * lists (each status documented, each JSON body valid against its schema, checked with
 * Ajv), and the document and its page are served.
 */
import { randomUUID } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, registeredRoutes } from '../../server/app';
import { products } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { staffMember, type Staff } from './factories';
import {
  ADDRESS,
  bearer,
  multipart,
  PDF,
  personPayload,
  PNG,
  signIn,
  wizardFields,
  type Tokens,
} from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

interface MediaDocument {
  schema: object;
}
interface ResponseDocument {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaDocument>;
}
interface OperationDocument {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, ResponseDocument>;
}
interface OpenApiDocument {
  openapi: string;
  tags: { name: string }[];
  paths: Record<string, Record<string, OperationDocument>>;
  components: { schemas: Record<string, object>; securitySchemes: Record<string, object> };
}

/**
 * The routes that serve the document and its page, left out of the document on purpose:
 * they describe the API rather than being part of it.
 */
const DOCUMENTATION_ROUTES = [
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/docs/static/*',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/yaml',
  'GET /api/openapi.json',
];

let testDb: TestDatabase;
let app: FastifyInstance;
let document: OpenApiDocument;
let staff: Staff;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('binary', true);
const validators = new Map<string, ValidateFunction>();
/** Every "METHOD path" of the document that answered in this file. */
const answered = new Set<string>();

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  document = (await app.inject({ url: '/api/openapi.json' })).json<OpenApiDocument>();
  staff = await staffMember(app, testDb.database.db, 'openapi.staff@example.com');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/**
 * The document's path for a request: of the paths whose pattern matches and that have the
 * method, the one with the fewest parameters, as the router prefers a fixed segment.
 */
function documentPathOf(method: string, url: string): string | undefined {
  const path = url.split('?')[0] ?? url;
  const candidates = Object.keys(document.paths).filter((pattern) => {
    const expression = pattern
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    return new RegExp(`^${expression}$`).test(path) && document.paths[pattern]?.[method];
  });
  const parameters = (pattern: string) => pattern.split('{').length;
  return candidates.sort((a, b) => parameters(a) - parameters(b))[0];
}

function validatorFor(key: string, schema: object): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    // The schema's references point into the document's components: they go along.
    validate = ajv.compile({ ...schema, components: document.components });
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Fails unless the document lists the answer: its status for the route, its media type,
 * and a body valid against the schema of both (each line of an NDJSON stream).
 */
function expectDocumented(method: string, url: string, response: LightMyRequestResponse): void {
  const path = documentPathOf(method.toLowerCase(), url);
  expect(path, `an operation of the document for ${method} ${url}`).toBeDefined();
  const operation = document.paths[path ?? '']?.[method.toLowerCase()];
  const status = String(response.statusCode);
  const documented = operation?.responses[status];
  expect(
    documented,
    `${method} ${path} answered ${status} (${response.body.slice(0, 200)}), which the document does not list`,
  ).toBeDefined();
  answered.add(`${method} ${path}`);
  if (!documented?.content) {
    expect(response.body, `${method} ${path} ${status} has no body`).toBe('');
    return;
  }
  const type = String(response.headers['content-type'] ?? '').split(';')[0] ?? '';
  const media = documented.content[type];
  expect(media, `${method} ${path} ${status} documents ${type}`).toBeDefined();
  if (type !== 'application/json' && type !== 'application/x-ndjson') return;
  const validate = validatorFor(`${method} ${path} ${status} ${type}`, media?.schema ?? {});
  const bodies =
    type === 'application/json'
      ? [response.json()]
      : response.body
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as unknown);
  for (const body of bodies) {
    expect(validate(body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(
      true,
    );
  }
  for (const header of ['idempotent-replayed', 'retry-after']) {
    if (response.headers[header] === undefined) continue;
    const names = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
    expect(names, `${method} ${path} ${status} documents its ${header} header`).toContain(header);
  }
}

interface CallOptions {
  /** The caller's session, or a bearer token as sent. */
  as?: Tokens | string;
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
  key?: string;
}

/** A request through the server, its answer checked against the document. */
async function call(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  { as, payload, headers = {}, key }: CallOptions = {},
): Promise<LightMyRequestResponse> {
  const response = await app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload }),
    headers: {
      ...(as ? bearer(as) : {}),
      ...(key ? { 'idempotency-key': key } : {}),
      ...headers,
    },
  });
  expectDocumented(method, url, response);
  return response;
}

/** The same as `call`, expecting `status`. */
async function expectAnswer(
  status: number,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  const response = await call(method, url, options);
  expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBe(status);
  return response;
}

const upload = (fields: Record<string, string>, field: string, data: Buffer, type: string) => {
  const form = multipart(fields, [
    {
      field,
      filename: type === 'application/pdf' ? 'file.pdf' : 'file.png',
      contentType: type,
      data,
    },
  ]);
  return { payload: form.payload, headers: form.headers };
};

/** A salon user made through the quick form, signed in. */
async function newBuyer(): Promise<{ email: string; password: string; tokens: Tokens }> {
  const person = personPayload({ taxNumber: `RO${Date.now()}` });
  await expectAnswer(201, 'POST', '/api/auth/register', { payload: person });
  const session = await expectAnswer(200, 'POST', '/api/auth/login', {
    payload: { email: person.email, password: person.password },
  });
  return {
    email: person.email,
    password: person.password,
    tokens: session.json<Tokens>(),
  };
}

/** A product of the seeded catalogue, on sale with stock to sell. */
async function productOnSale(): Promise<number> {
  const db = testDb.database.db;
  const [first] = await db.select({ id: products.id }).from(products).limit(1);
  if (!first) throw new Error('The seeded catalogue is empty');
  await db.update(products).set({ stock: 500, active: true }).where(eq(products.id, first.id));
  return first.id;
}

describe('the document', () => {
  it('lists every /api route with its methods, but the routes of the document and its page', () => {
    const routes = (registeredRoutes.get(app) ?? [])
      .filter((route) => route.url.startsWith('/api/'))
      .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.filter((route) => DOCUMENTATION_ROUTES.includes(route)).sort()).toEqual(
      DOCUMENTATION_ROUTES,
    );
    expect(documented.sort()).toEqual(
      routes.filter((route) => !DOCUMENTATION_ROUTES.includes(route)).sort(),
    );
  });

  it('gives every operation a summary, a known group, who may call, and a fault answer', () => {
    const tags = document.tags.map((tag) => tag.name);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(operation.summary, `${name} has a summary`).toBeTruthy();
        expect(operation.tags?.length, `${name} has a group`).toBe(1);
        expect(tags, `${name}'s group is declared`).toContain(operation.tags?.[0]);
        expect(operation.security, `${name} says who may call`).toBeDefined();
        for (const requirement of operation.security ?? []) {
          for (const scheme of Object.keys(requirement)) {
            expect(Object.keys(document.components.securitySchemes)).toContain(scheme);
          }
        }
        expect(operation.responses['500'], `${name} documents a fault`).toBeDefined();
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(response.description, `${name} ${status} is described`).toBeTruthy();
        }
      }
    }
  });

  it('documents the Idempotency-Key header on exactly the routes that read it', () => {
    const readers = (registeredRoutes.get(app) ?? [])
      .filter((route) => {
        const headers = route.schema?.headers as { properties?: object } | undefined;
        return headers?.properties && 'idempotency-key' in headers.properties;
      })
      .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) =>
          operation.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(readers.length).toBeGreaterThan(40);
    expect(documented.sort()).toEqual(readers.sort());
  });

  it('refers only to components it has', () => {
    const references = JSON.stringify(document).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    expect(references.length).toBeGreaterThan(0);
    for (const reference of new Set(references)) {
      const name = reference.slice('"#/components/schemas/'.length, -1);
      expect(document.components.schemas, reference).toHaveProperty(name);
    }
  });

  it('fails an answer whose status it does not list', () => {
    const teapot = { statusCode: 418, body: '', headers: {} } as LightMyRequestResponse;
    expect(() => expectDocumented('GET', '/api/health', teapot)).toThrow(/does not list/);
  });
});

describe('the document and its page', () => {
  it('serve the document as JSON, OpenAPI 3.1', async () => {
    const response = await app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json<{ openapi: string }>().openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('serve the page as HTML under a policy that lets its own code run, and its code', async () => {
    const page = await app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toContain('/api/docs/static/swagger-ui-bundle.js');
    for (const script of scripts) {
      const file = await app.inject({ url: script ?? '' });
      expect(file.statusCode, script).toBe(200);
      expect(file.headers['content-type'], script).toMatch(/javascript/);
    }
    // The page reads the document from beside it: the same document.
    const beside = await app.inject({ url: '/api/docs/json' });
    expect(beside.json()).toEqual(document);
  });

  it('leave the API’s own strict policy to every other /api answer', async () => {
    const response = await app.inject({ url: '/api/health' });
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});

describe('a run through the main flows', () => {
  let buyer: { email: string; password: string; tokens: Tokens };
  let companyId: number;
  let productId: number;
  let documentId: number;
  let orderId: number;
  let rep: Tokens;
  let repId: number;

  it('answers the catalogue as documented', async () => {
    productId = await productOnSale();
    await expectAnswer(200, 'GET', '/api/health');
    await expectAnswer(200, 'GET', '/api/maker');
    const list = await expectAnswer(200, 'GET', '/api/products?limit=3');
    await expectAnswer(304, 'GET', '/api/products?limit=3', {
      headers: { 'if-none-match': String(list.headers.etag) },
    });
    await expectAnswer(400, 'GET', '/api/products?limit=0');
    await expectAnswer(401, 'GET', '/api/products', { as: 'not-a-token' });
    await expectAnswer(200, 'GET', '/api/products/ids');
    await expectAnswer(200, 'GET', '/api/products/categories');
    await expectAnswer(200, 'GET', `/api/products/${productId}`);
    await expectAnswer(404, 'GET', '/api/products/2000000000');
    await expectAnswer(200, 'GET', '/api/products/mirror');
    await expectAnswer(200, 'POST', '/api/newsletter', {
      payload: { email: `news.${randomUUID()}@example.com`, locale: 'en' },
    });
    await expectAnswer(413, 'POST', '/api/newsletter', {
      payload: { email: 'x@example.com', locale: 'x'.repeat(1_100_000) },
    });
    await expectAnswer(415, 'POST', '/api/newsletter', {
      payload: 'email=x@example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  });

  it('answers registration, sign-in and the account as documented', async () => {
    buyer = await newBuyer();
    await expectAnswer(400, 'POST', '/api/auth/register', {
      payload: personPayload({ email: 'not an address' }),
    });
    await expectAnswer(401, 'POST', '/api/auth/login', {
      payload: { email: buyer.email, password: 'Wrong-Pass-1' },
    });
    const me = await expectAnswer(200, 'GET', '/api/auth/me', { as: buyer.tokens });
    companyId = me.json<{ user: { companyId: number } }>().user.companyId;
    const renewed = await expectAnswer(200, 'POST', '/api/auth/refresh', {
      payload: { refreshToken: buyer.tokens.refreshToken },
    });
    buyer.tokens = renewed.json<Tokens>();

    const wizard = upload(
      wizardFields({ taxNumber: `IT${Date.now()}` }),
      'tradeRegister',
      PDF,
      'application/pdf',
    );
    await expectAnswer(201, 'POST', '/api/auth/register-company', wizard);
    await expectAnswer(415, 'POST', '/api/auth/register-company', { payload: {} });

    await expectAnswer(202, 'POST', '/api/auth/password-reset', {
      payload: { email: buyer.email },
    });
    await expectAnswer(400, 'POST', '/api/auth/password-reset/confirm', {
      payload: { token: 'A'.repeat(43), newPassword: 'Another-Pass-2' },
    });
    await expectAnswer(400, 'POST', '/api/auth/verify-email', {
      payload: { token: 'A'.repeat(43) },
    });
    await expectAnswer(202, 'POST', '/api/auth/verify-email/resend', {
      as: buyer.tokens,
      payload: {},
      key: randomUUID(),
    });

    await expectAnswer(200, 'PUT', '/api/users/profile', {
      as: buyer.tokens,
      payload: { firstName: 'Ana', lastName: 'Pop' },
      key: randomUUID(),
    });
    await expectAnswer(200, 'PUT', '/api/users/notifications', {
      as: buyer.tokens,
      payload: {
        orderNotifications: true,
        newProductNotifications: false,
        marketingNewsletter: false,
      },
    });
    await expectAnswer(200, 'GET', '/api/companies/me', { as: buyer.tokens });
    await expectAnswer(201, 'POST', '/api/companies/me/documents', {
      as: buyer.tokens,
      key: randomUUID(),
      ...upload({}, 'tradeRegister', PDF, 'application/pdf'),
    });
    await expectAnswer(415, 'POST', '/api/companies/me/documents', {
      as: buyer.tokens,
      payload: {},
    });
    const documents = await expectAnswer(200, 'GET', '/api/companies/me/documents', {
      as: buyer.tokens,
    });
    documentId = documents.json<{ documents: { id: number }[] }>().documents[0]?.id ?? 0;
    await expectAnswer(200, 'GET', `/api/companies/me/documents/${documentId}/file`, {
      as: buyer.tokens,
    });
    await expectAnswer(404, 'GET', '/api/companies/me/documents/2000000000/file', {
      as: buyer.tokens,
    });
  });

  it('answers the cart, the checkout, orders and their cancellation as documented', async () => {
    await expectAnswer(403, 'GET', '/api/cart', { as: buyer.tokens });
    await expectAnswer(200, 'POST', `/api/admin/companies/${companyId}/approve`, {
      as: staff.tokens,
      key: randomUUID(),
    });
    await expectAnswer(200, 'GET', '/api/cart', { as: buyer.tokens });
    const key = randomUUID();
    const add = { productId, quantity: 2 };
    await expectAnswer(200, 'POST', '/api/cart/add', { as: buyer.tokens, payload: add, key });
    const replayed = await expectAnswer(200, 'POST', '/api/cart/add', {
      as: buyer.tokens,
      payload: add,
      key,
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    await expectAnswer(422, 'POST', '/api/cart/add', {
      as: buyer.tokens,
      payload: { ...add, quantity: 3 },
      key,
    });
    await expectAnswer(400, 'POST', '/api/cart/add', {
      as: buyer.tokens,
      payload: add,
      key: 'short',
    });
    await expectAnswer(404, 'POST', '/api/cart/add', {
      as: buyer.tokens,
      payload: { productId: 2_000_000_000, quantity: 1 },
    });
    await expectAnswer(422, 'PUT', `/api/cart/items/${productId}`, {
      as: buyer.tokens,
      payload: { quantity: 9999 },
    });
    await expectAnswer(200, 'PUT', `/api/cart/items/${productId}`, {
      as: buyer.tokens,
      payload: { quantity: 3 },
    });
    const checkout = await expectAnswer(201, 'POST', '/api/cart/checkout', {
      as: buyer.tokens,
      payload: { shippingAddress: ADDRESS, notes: 'At the desk', clientReference: 'R-1' },
      key: randomUUID(),
    });
    orderId = checkout.json<{ order: { id: number } }>().order.id;
    await expectAnswer(400, 'POST', '/api/cart/checkout', {
      as: buyer.tokens,
      payload: { shippingAddress: ADDRESS },
    });
    await expectAnswer(200, 'GET', '/api/orders', { as: buyer.tokens });
    await expectAnswer(200, 'GET', `/api/orders/${orderId}`, { as: buyer.tokens });
    await expectAnswer(404, 'GET', '/api/orders/2000000000', { as: buyer.tokens });
    await expectAnswer(200, 'DELETE', `/api/orders/${orderId}`, {
      as: buyer.tokens,
      payload: { cancellationReason: 'Ordered twice' },
    });
    await expectAnswer(409, 'DELETE', `/api/orders/${orderId}`, { as: buyer.tokens });
    await expectAnswer(200, 'POST', '/api/cart/add', { as: buyer.tokens, payload: add });
    await expectAnswer(200, 'DELETE', `/api/cart/items/${productId}`, { as: buyer.tokens });
    await expectAnswer(200, 'DELETE', '/api/cart', { as: buyer.tokens });
  });

  it('answers order lists as documented', async () => {
    const listId = randomUUID();
    await expectAnswer(201, 'PUT', `/api/lists/${listId}`, {
      as: buyer.tokens,
      payload: { name: 'Back-bar' },
    });
    await expectAnswer(200, 'PUT', `/api/lists/${listId}`, {
      as: buyer.tokens,
      payload: { name: 'Back bar' },
    });
    await expectAnswer(400, 'PUT', '/api/lists/not-a-uuid', {
      as: buyer.tokens,
      payload: { name: 'X' },
    });
    await expectAnswer(200, 'PUT', `/api/lists/${listId}/items/${productId}`, {
      as: buyer.tokens,
      payload: { quantity: 4 },
    });
    await expectAnswer(404, 'PUT', `/api/lists/${listId}/items/2000000000`, {
      as: buyer.tokens,
      payload: { quantity: 4 },
    });
    await expectAnswer(200, 'GET', '/api/lists', { as: buyer.tokens });
    await expectAnswer(200, 'DELETE', `/api/lists/${listId}/items/${productId}`, {
      as: buyer.tokens,
    });
    await expectAnswer(200, 'DELETE', `/api/lists/${listId}`, { as: buyer.tokens });
    // Deleted again (on another device): gone, as asked. A change of it is not found.
    await expectAnswer(200, 'DELETE', `/api/lists/${listId}`, { as: buyer.tokens });
    await expectAnswer(404, 'PUT', `/api/lists/${listId}/items/${productId}`, {
      as: buyer.tokens,
      payload: { quantity: 1 },
    });
  });

  it('answers the back office as documented', async () => {
    const as = staff.tokens;
    await expectAnswer(401, 'GET', '/api/admin/summary');
    await expectAnswer(403, 'GET', '/api/admin/summary', { as: buyer.tokens });
    await expectAnswer(200, 'GET', '/api/admin/summary', { as });

    await expectAnswer(200, 'GET', '/api/admin/companies?sortBy=name&limit=5', { as });
    await expectAnswer(400, 'GET', '/api/admin/companies?status=LOST', { as });
    await expectAnswer(200, 'GET', `/api/admin/companies/${companyId}`, { as });
    await expectAnswer(404, 'GET', '/api/admin/companies/2000000000', { as });
    await expectAnswer(200, 'PATCH', `/api/admin/companies/${companyId}`, {
      as,
      payload: { city: 'Brașov' },
      key: randomUUID(),
    });
    await expectAnswer(409, 'POST', `/api/admin/companies/${companyId}/approve`, { as });
    await expectAnswer(200, 'POST', `/api/admin/companies/${companyId}/suspend`, {
      as,
      payload: { reason: 'Unpaid invoices' },
    });
    await expectAnswer(200, 'POST', `/api/admin/companies/${companyId}/reactivate`, { as });
    const pending = await newBuyer();
    const pendingCompany = (
      await expectAnswer(200, 'GET', '/api/auth/me', { as: pending.tokens })
    ).json<{ user: { companyId: number } }>().user.companyId;
    await expectAnswer(200, 'POST', `/api/admin/companies/${pendingCompany}/reject`, {
      as,
      payload: { reason: 'Not a salon' },
    });

    await expectAnswer(200, 'POST', `/api/admin/documents/${documentId}/approve`, { as });
    await expectAnswer(200, 'POST', `/api/admin/documents/${documentId}/reject`, {
      as,
      payload: { reviewNotes: 'Blurred' },
    });
    await expectAnswer(409, 'POST', `/api/admin/documents/${documentId}/reject`, {
      as,
      payload: { reviewNotes: 'Blurred' },
    });
    await expectAnswer(200, 'GET', `/api/admin/documents/${documentId}/file`, { as });
    await expectAnswer(200, 'DELETE', `/api/admin/documents/${documentId}`, { as });
    await expectAnswer(404, 'DELETE', `/api/admin/documents/${documentId}`, { as });

    await expectAnswer(200, 'POST', '/api/cart/add', {
      as: buyer.tokens,
      payload: { productId, quantity: 1 },
    });
    const placed = await expectAnswer(201, 'POST', '/api/cart/checkout', {
      as: buyer.tokens,
      payload: { shippingAddress: ADDRESS },
    });
    orderId = placed.json<{ order: { id: number } }>().order.id;
    await expectAnswer(200, 'GET', '/api/admin/orders?sortBy=total', { as });
    await expectAnswer(400, 'GET', '/api/admin/orders?from=2026-02-30', { as });
    await expectAnswer(200, 'GET', '/api/admin/orders/export.csv', { as });
    await expectAnswer(200, 'GET', `/api/admin/orders/${orderId}`, { as });
    await expectAnswer(200, 'POST', `/api/admin/orders/${orderId}/status`, {
      as,
      payload: { status: 'CONFIRMED' },
      key: randomUUID(),
    });
    await expectAnswer(409, 'POST', `/api/admin/orders/${orderId}/status`, {
      as,
      payload: { status: 'DELIVERED' },
    });
    await expectAnswer(200, 'POST', `/api/admin/orders/${orderId}/payment`, {
      as,
      payload: { paymentStatus: 'PAID', note: 'Transfer seen' },
    });
    await expectAnswer(409, 'POST', `/api/admin/orders/${orderId}/payment`, {
      as,
      payload: { paymentStatus: 'PAID' },
    });

    await expectAnswer(200, 'GET', '/api/admin/audit?entityType=company', { as });
    const mail = await expectAnswer(200, 'GET', '/api/admin/mail', { as });
    const [message] = mail.json<{ messages: { id: number }[] }>().messages;
    await expectAnswer(200, 'GET', `/api/admin/mail/${message?.id ?? 0}`, { as });
    await expectAnswer(404, 'GET', '/api/admin/mail/2000000000', { as });
  });

  it('answers the people of the back office as documented', async () => {
    const as = staff.tokens;
    await expectAnswer(200, 'GET', '/api/admin/staff', { as });
    const email = `rep.${randomUUID()}@example.com`;
    const made = await expectAnswer(201, 'POST', '/api/admin/staff', {
      as,
      payload: { firstName: 'Victor', lastName: 'Pop', email, role: 'SALES_REP' },
      key: randomUUID(),
    });
    const created = made.json<{ member: { id: number }; temporaryPassword: string }>();
    repId = created.member.id;
    await expectAnswer(409, 'POST', '/api/admin/staff', {
      as,
      payload: { firstName: 'Victor', lastName: 'Pop', email },
    });
    await expectAnswer(409, 'POST', `/api/admin/staff/${staff.id}/deactivate`, { as });
    await expectAnswer(200, 'POST', `/api/admin/staff/${repId}/deactivate`, { as });
    await expectAnswer(200, 'POST', `/api/admin/staff/${repId}/reactivate`, { as });
    const reset = await expectAnswer(200, 'POST', `/api/admin/staff/${repId}/reset-password`, {
      as,
    });
    await expectAnswer(404, 'POST', '/api/admin/staff/2000000000/reset-password', { as });
    rep = await signIn(app, email, reset.json<{ temporaryPassword: string }>().temporaryPassword);
    await expectAnswer(200, 'PUT', `/api/admin/companies/${companyId}/sales-rep`, {
      as,
      payload: { salesRepId: repId },
    });
    await expectAnswer(400, 'PUT', `/api/admin/companies/${companyId}/sales-rep`, {
      as,
      payload: { salesRepId: staff.id },
    });
  });

  it('answers the back office catalogue as documented', async () => {
    const as = staff.tokens;
    await expectAnswer(200, 'GET', '/api/admin/products?stock=low', { as });
    const texts = (name: string) => ({ name, shortDescription: '', description: '' });
    const input = {
      sku: 'OA-0001',
      price: 12.5,
      stock: 7,
      categoryId: 1,
      tags: ['argan'],
      texts: { ro: texts('Ulei'), en: texts('Oil'), it: texts('Olio') },
    };
    const created = await expectAnswer(201, 'POST', '/api/admin/products', {
      as,
      payload: input,
      key: randomUUID(),
    });
    const id = created.json<{ product: { id: number } }>().product.id;
    await expectAnswer(409, 'POST', '/api/admin/products', { as, payload: input });
    await expectAnswer(400, 'POST', '/api/admin/products', {
      as,
      payload: { ...input, sku: 'lower case' },
    });
    await expectAnswer(200, 'GET', `/api/admin/products/${id}`, { as });
    await expectAnswer(404, 'GET', '/api/admin/products/2000000000', { as });
    await expectAnswer(200, 'PATCH', `/api/admin/products/${id}`, { as, payload: { stock: 8 } });
    await expectAnswer(200, 'POST', `/api/admin/products/${id}/deactivate`, { as });
    await expectAnswer(200, 'POST', `/api/admin/products/${id}/activate`, { as });

    const picture = await sharp({
      create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 90, b: 40 } },
    })
      .png()
      .toBuffer();
    const added = await expectAnswer(201, 'POST', `/api/admin/products/${id}/pictures`, {
      as,
      key: randomUUID(),
      ...upload({}, 'file', picture, 'image/png'),
    });
    await expectAnswer(415, 'POST', `/api/admin/products/${id}/pictures`, {
      as,
      ...upload({}, 'file', PDF, 'image/png'),
    });
    const images = added.json<{ product: { images: string[] } }>().product.images;
    await expectAnswer(200, 'PUT', `/api/admin/products/${id}/pictures`, {
      as,
      payload: { images },
    });
    await expectAnswer(409, 'PUT', `/api/admin/products/${id}/pictures`, {
      as,
      payload: { images: ['/uploads/products/other.webp'] },
    });
    const file = images[0]?.split('/').pop() ?? '';
    await expectAnswer(200, 'DELETE', `/api/admin/products/${id}/pictures/${file}`, { as });
    await expectAnswer(200, 'DELETE', `/api/admin/products/${id}`, { as });
    await expectAnswer(409, 'DELETE', `/api/admin/products/${productId}`, { as });

    const categories = await expectAnswer(200, 'GET', '/api/admin/categories', { as });
    const names = { ro: 'Uleiuri', en: 'Oils', it: 'Oli' };
    const category = await expectAnswer(201, 'POST', '/api/admin/categories', {
      as,
      payload: { names },
    });
    const categoryId = category.json<{ category: { id: number } }>().category.id;
    await expectAnswer(200, 'PATCH', `/api/admin/categories/${categoryId}`, {
      as,
      payload: { names: { ...names, en: 'Hair oils' } },
    });
    const ids = [
      categoryId,
      ...categories.json<{ categories: { id: number }[] }>().categories.map((c) => c.id),
    ];
    await expectAnswer(200, 'PUT', '/api/admin/categories/order', { as, payload: { ids } });
    await expectAnswer(409, 'PUT', '/api/admin/categories/order', {
      as,
      payload: { ids: [categoryId] },
    });
  });

  it('answers field sales as documented', async () => {
    await expectAnswer(403, 'GET', '/api/rep/customers', { as: buyer.tokens });
    await expectAnswer(200, 'GET', '/api/rep/customers', { as: rep });
    const booth = {
      companyName: 'Salon Ariadna',
      taxNumber: `RO${Date.now()}`,
      registrationNumber: 'J40/1234/2020',
      companyEmail: 'office@ariadna.example',
      companyPhone: '+40 721 000 111',
      address: 'Strada Lipscani 10',
      city: 'București',
      postalCode: '030031',
      country: 'Romania',
    };
    const registered = await expectAnswer(201, 'POST', '/api/rep/customers', {
      as: rep,
      payload: booth,
      key: randomUUID(),
    });
    const customerId = registered.json<{ customer: { id: number } }>().customer.id;
    await expectAnswer(200, 'POST', '/api/rep/customers', { as: rep, payload: booth });
    // A new phone typed at the booth, which staff dismiss.
    await expectAnswer(200, 'POST', '/api/rep/customers', {
      as: rep,
      payload: { ...booth, companyPhone: '+40 721 999 000' },
    });
    const detail = await expectAnswer(200, 'GET', `/api/admin/companies/${customerId}`, {
      as: staff.tokens,
    });
    const [entry] = detail.json<{ boothDetails: { id: number }[] }>().boothDetails;
    await expectAnswer(200, 'POST', `/api/admin/booth-details/${entry?.id ?? 0}/dismiss`, {
      as: staff.tokens,
      key: randomUUID(),
    });
    await expectAnswer(404, 'POST', '/api/admin/booth-details/2000000000/dismiss', {
      as: staff.tokens,
    });
    await expectAnswer(400, 'POST', '/api/rep/customers', {
      as: rep,
      payload: { ...booth, companyEmail: 'not an address' },
    });
    await expectAnswer(200, 'GET', `/api/rep/customers/${customerId}`, { as: rep });
    await expectAnswer(404, 'GET', '/api/rep/customers/2000000000', { as: rep });
    await expectAnswer(201, 'POST', `/api/rep/customers/${customerId}/documents`, {
      as: rep,
      key: randomUUID(),
      ...upload({}, 'tradeRegister', PDF, 'application/pdf'),
    });
    const placed = await expectAnswer(201, 'POST', `/api/rep/customers/${companyId}/orders`, {
      as: rep,
      payload: {
        items: [{ productId, quantity: 1 }],
        shippingAddress: ADDRESS,
        signature: PNG.toString('base64'),
      },
      key: randomUUID(),
    });
    const repOrder = placed.json<{ order: { id: number } }>().order.id;
    await expectAnswer(422, 'POST', `/api/rep/customers/${companyId}/orders`, {
      as: rep,
      payload: { items: [{ productId, quantity: 9999 }], shippingAddress: ADDRESS },
    });
    await expectAnswer(200, 'GET', `/api/rep/customers/${companyId}/orders`, { as: rep });
    const since = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    await expectAnswer(200, 'GET', `/api/rep/orders?since=${encodeURIComponent(since)}`, {
      as: rep,
    });
    await expectAnswer(400, 'GET', '/api/rep/orders?since=2000-01-01T00:00:00Z', { as: rep });
    await expectAnswer(200, 'GET', `/api/orders/${repOrder}/signature`, { as: buyer.tokens });
    await expectAnswer(404, 'GET', `/api/orders/${orderId}/signature`, { as: buyer.tokens });
  });

  it('answers the end of an account as documented', async () => {
    const leaving = await newBuyer();
    await expectAnswer(400, 'PUT', '/api/users/password', {
      as: leaving.tokens,
      payload: { currentPassword: 'Wrong-Pass-1', newPassword: 'Another-Pass-2' },
    });
    await expectAnswer(200, 'PUT', '/api/users/password', {
      as: leaving.tokens,
      payload: { currentPassword: leaving.password, newPassword: 'Another-Pass-2' },
    });
    await expectAnswer(200, 'DELETE', '/api/users/me', {
      as: leaving.tokens,
      payload: { password: 'Another-Pass-2' },
    });
    await expectAnswer(401, 'GET', '/api/auth/me', { as: leaving.tokens });
    await expectAnswer(200, 'POST', '/api/auth/logout', {
      payload: { refreshToken: buyer.tokens.refreshToken },
    });
    // The sign-in throttle: after 5 wrong passwords for one e-mail, the next one waits.
    const statuses: number[] = [];
    while (!statuses.includes(429) && statuses.length < 7) {
      const attempt = await call('POST', '/api/auth/login', {
        payload: { email: buyer.email, password: 'Wrong-Pass-1' },
      });
      statuses.push(attempt.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it('reached every operation of the document', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.filter((operation) => !answered.has(operation))).toEqual([]);
  });
});
