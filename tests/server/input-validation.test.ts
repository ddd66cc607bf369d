import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { companies, newsletterSubscriptions, users } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany, ensureAdmin } from '../../server/services/admin';
import { instantOf } from '../../server/validation';
import type { ProductPage } from '../../src/contracts/catalogue';
import type { ErrorBody } from '../../src/contracts/error-schema';
import {
  bearer,
  like,
  multipart,
  personPayload,
  signIn,
  uniqueEmail,
  type Tokens,
} from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Tokens;
let buyer: Tokens;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  await ensureAdmin(testDb.database.db, 'input.staff@example.com', 'Input-Staff-1');
  staff = await signIn(app, 'input.staff@example.com', 'Input-Staff-1');
  const { email, password, companyId } = await registerSalon();
  await decideCompany(testDb.database.db, companyId, 'approve');
  buyer = await signIn(app, email, password);
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

let addresses = 0;

/**
 * A salon registered through the API, from an address of its own (registrations are
 * limited per address); its company is pending.
 */
async function registerSalon() {
  const payload = personPayload();
  addresses += 1;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload,
    remoteAddress: `198.51.100.${addresses}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const [row] = await testDb.database.db
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.email, payload.email));
  return { email: payload.email, password: payload.password, companyId: row?.companyId ?? 0 };
}

const pendingCompany = async () => (await registerSalon()).companyId;

const statusOf = async (companyId: number) =>
  (
    await testDb.database.db
      .select({ status: companies.status })
      .from(companies)
      .where(eq(companies.id, companyId))
  )[0]?.status;

/** Expects the 400 the error handler builds, naming `field`. */
function expectRefused(response: LightMyRequestResponse, field: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ message: string; details: { field: string; message: string }[] }>();
  expect(body.message).toMatch(/^Invalid request/);
  expect(body.details[0]?.field).toBe(field);
  expect(typeof body.details[0]?.message).toBe('string');
}

const get = (url: string, tokens?: Tokens) =>
  app.inject({ method: 'GET', url, headers: tokens ? bearer(tokens) : {} });

/** A JSON body sent as written: JSON.stringify cannot write 1e400 or a NUL escape by mistake. */
const sendJson = (method: 'POST' | 'PUT', url: string, json: string, tokens: Tokens) =>
  app.inject({
    method,
    url,
    payload: json,
    headers: { ...bearer(tokens), 'content-type': 'application/json' },
  });

describe('numbers in paths and query strings', () => {
  it('does not read 0x10 as 16: the company with the hexadecimal id stays pending', async () => {
    const id = await pendingCompany();
    const response = await app.inject({
      method: 'POST',
      url: `/api/admin/companies/0x${id.toString(16)}/approve`,
      headers: bearer(staff),
    });
    expectRefused(response, 'id');
    expect(await statusOf(id)).toBe('PENDING');
  });

  it('refuses an id written with an exponent, a sign, spaces, a fraction or leading zeros', async () => {
    const id = await pendingCompany();
    for (const spelling of [`${id}e0`, `+${id}`, `%20${id}`, `${id}%20`, `${id}.0`, `0${id}`]) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/admin/companies/${spelling}/approve`,
        headers: bearer(staff),
      });
      expectRefused(response, 'id');
    }
    expect(await statusOf(id)).toBe('PENDING');
  });

  it('refuses 0x10, 1e3 and -0 as a product id, a page and a limit', async () => {
    for (const spelling of ['0x10', '1e3', '-0']) {
      expectRefused(await get(`/api/products/${spelling}`), 'id');
      expectRefused(await get(`/api/products?page=${spelling}`), 'page');
      expectRefused(await get(`/api/products?limit=${spelling}`), 'limit');
      expectRefused(await get(`/api/products?categoryId=${spelling}`), 'categoryId');
    }
  });

  it('refuses Infinity and 1e400 as ids, pages, limits and categories instead of failing', async () => {
    for (const spelling of ['Infinity', '-Infinity', '1e400', 'NaN', '9'.repeat(30)]) {
      expectRefused(await get(`/api/products/${spelling}`), 'id');
      expectRefused(await get(`/api/orders/${spelling}`, buyer), 'id');
      expectRefused(await get(`/api/admin/companies/${spelling}`, staff), 'id');
      expectRefused(await get(`/api/products?page=${spelling}`), 'page');
      expectRefused(await get(`/api/products?limit=${spelling}`), 'limit');
      expectRefused(await get(`/api/products?categoryId=${spelling}`), 'categoryId');
    }
  });

  it('refuses an empty number', async () => {
    expectRefused(await get('/api/products?page='), 'page');
  });
});

describe('addresses the router cannot read', () => {
  it.each([
    ['a path part over 100 characters', `/api/products/${'1'.repeat(150)}`, 414],
    ['a broken escape', '/api/products/%E0%A4%A', 400],
  ])('answers %s with the API error shape, without echoing it', async (_what, url, status) => {
    const response = await app.inject(url);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ message: 'The address of this request is not valid.' });
  });
});

describe('repeated query parameters', () => {
  it('are refused where one value is expected', async () => {
    expectRefused(await get('/api/products?page=1&page=2'), 'page');
    expectRefused(await get('/api/products?search=a&search=b'), 'search');
    expectRefused(await get('/api/products?sortBy=name&sortBy=price'), 'sortBy');
    expectRefused(
      await get('/api/admin/companies?status=PENDING&status=APPROVED', staff),
      'status',
    );
  });
});

describe('JSON bodies', () => {
  it('refuses an array where a text is expected instead of taking its first item', async () => {
    const response = await sendJson(
      'PUT',
      '/api/users/profile',
      JSON.stringify({ firstName: ['x'], lastName: 'Pop' }),
      buyer,
    );
    expectRefused(response, 'firstName');
  });

  it('refuses null where a yes or no is expected instead of reading it as no', async () => {
    const response = await sendJson(
      'PUT',
      '/api/users/notifications',
      JSON.stringify({
        orderNotifications: true,
        newProductNotifications: true,
        marketingNewsletter: null,
      }),
      buyer,
    );
    expectRefused(response, 'marketingNewsletter');
  });

  it('refuses numbers written as text and booleans written as numbers', async () => {
    expectRefused(
      await sendJson('POST', '/api/cart/add', '{"productId":"1","quantity":1}', buyer),
      'productId',
    );
    expectRefused(
      await sendJson(
        'PUT',
        '/api/users/notifications',
        '{"orderNotifications":1,"newProductNotifications":true,"marketingNewsletter":true}',
        buyer,
      ),
      'orderNotifications',
    );
  });

  it('refuses 1e400, which JSON reads as Infinity, as a quantity', async () => {
    expectRefused(
      await sendJson('POST', '/api/cart/add', '{"productId":1,"quantity":1e400}', buyer),
      'quantity',
    );
  });

  it('still refuses unknown fields and still fills in defaults', async () => {
    const unknown = await sendJson(
      'POST',
      '/api/newsletter',
      JSON.stringify({ email: uniqueEmail(), extra: 1 }),
      buyer,
    );
    expectRefused(unknown, 'extra');
    expect(unknown.json<ErrorBody>().details?.[0]?.message).toBe('is not a known field');

    const email = uniqueEmail('news');
    const subscribed = await sendJson('POST', '/api/newsletter', JSON.stringify({ email }), buyer);
    expect(subscribed.statusCode).toBe(200);
    const [row] = await testDb.database.db
      .select({ locale: newsletterSubscriptions.locale })
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, email));
    expect(row?.locale).toBe('ro');
  });

  it('are the only forms a route without uploads takes: a multipart one gets 415', async () => {
    const form = multipart({ email: uniqueEmail(), password: 'Secure-Pass1' });
    const response = await app.inject({ method: 'POST', url: '/api/auth/login', ...form });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: like.any(String) });
  });
});

describe('the NUL character', () => {
  it('is refused in a body field, naming the field', async () => {
    const response = await sendJson(
      'PUT',
      '/api/users/profile',
      JSON.stringify({ firstName: 'Ana\u0000', lastName: 'Pop' }),
      buyer,
    );
    expectRefused(response, 'firstName');
    expect(response.json<ErrorBody>().details?.[0]?.message).toMatch(/NUL/);
  });

  it('is refused in a nested body field, naming its path', async () => {
    const shippingAddress = {
      firstName: 'Ioana',
      lastName: 'Pop',
      street: 'Strada Lalelelor 3',
      city: 'Cluj\u0000',
      zipCode: '400001',
      country: 'Romania',
      phone: '+40 264 555 010',
    };
    const response = await sendJson(
      'POST',
      '/api/cart/checkout',
      JSON.stringify({ shippingAddress }),
      buyer,
    );
    expectRefused(response, 'shippingAddress.city');
  });

  it('is refused in the fields of a registration and of a sign-in', async () => {
    const registration = {
      email: uniqueEmail(),
      password: 'Secure-Pass1',
      firstName: 'Ana',
      lastName: 'Ionescu',
      companyName: 'Salon\u0000Ana',
      taxNumber: 'RO123456',
    };
    expectRefused(
      await sendJson('POST', '/api/auth/register', JSON.stringify(registration), buyer),
      'companyName',
    );
    expectRefused(
      await sendJson(
        'POST',
        '/api/auth/login',
        JSON.stringify({ email: 'a\u0000@example.com', password: 'x' }),
        buyer,
      ),
      'email',
    );
  });

  it('is refused in a query, naming the parameter', async () => {
    const response = await get('/api/products?search=ulei%00');
    expectRefused(response, 'search');
    expect(response.json<ErrorBody>().details?.[0]?.message).toMatch(/NUL/);
  });

  it('is refused in a path parameter', async () => {
    expectRefused(await get('/uploads/products/a%00.png'), 'file');
  });

  it('is refused in an unpaired surrogate too, which the database would store as U+FFFD', async () => {
    expectRefused(
      await sendJson(
        'PUT',
        '/api/users/profile',
        '{"firstName":"\\ud800","lastName":"Pop"}',
        buyer,
      ),
      'firstName',
    );
  });
});

describe('updatedSince', () => {
  const invalid = [
    '0000-01-01T00:00:00Z',
    '2016-12-31T23:59:60Z',
    '1969-12-31T23:59:59Z',
    '9999-12-31T23:59:59-01:00',
    '2023-02-29T00:00:00Z',
    '2023-01-01T24:00:00Z',
    '2023-01-01',
    // ajv-formats takes these offsets; JavaScript reads the first as no date at all.
    '2020-01-01T00:00:00+01',
    '2020-01-01T00:00:00+0100',
  ];

  it('is refused when it is no real instant between 1970 and 9999, on the list', async () => {
    for (const since of invalid) {
      expectRefused(
        await get(`/api/products?updatedSince=${encodeURIComponent(since)}`),
        'updatedSince',
      );
    }
  });

  it('is refused when it is no real instant between 1970 and 9999, on the mirror', async () => {
    for (const since of invalid) {
      const response = await get(`/api/products/mirror?updatedSince=${encodeURIComponent(since)}`);
      expectRefused(response, 'updatedSince');
    }
  });

  it('is read at its offset and its fraction of a second', () => {
    expect(instantOf('1970-01-01T00:30:00+00:30')?.getTime()).toBe(0);
    expect(instantOf('1970-01-01T00:29:59+00:30')).toBeNull();
    expect(instantOf('2020-01-01T02:00:00.5+02:00')?.toISOString()).toBe(
      '2020-01-01T00:00:00.500Z',
    );
    expect(instantOf('2024-02-29t10:00:00.123999z')?.toISOString()).toBe(
      '2024-02-29T10:00:00.123Z',
    );
    expect(instantOf('9999-12-31T23:59:59.999999Z')).not.toBeNull();
  });

  it('filters the list at the instant it names, whatever its offset', async () => {
    const total = async (since: string) =>
      (await get(`/api/products?updatedSince=${encodeURIComponent(since)}`)).json<ProductPage>()
        .pagination.totalProducts;
    const list = await get('/api/products?sortBy=newest&limit=100');
    const dates = list
      .json<ProductPage>()
      .products.map((product) => product.updatedAt)
      .sort();
    const middle = new Date(dates[Math.floor(dates.length / 2)] ?? '');
    const shifted = new Date(middle.getTime() + 3 * 3_600_000).toISOString().replace('Z', '+03:00');
    expect(await total(shifted)).toBe(await total(middle.toISOString()));
    expect(await total(middle.toISOString())).toBeGreaterThan(0);
  });
});

describe('correct requests', () => {
  it('still pass with decimal ids, pages and limits', async () => {
    const list = await get('/api/products?page=2&limit=12&sortBy=price&search=');
    expect(list.statusCode).toBe(200);
    expect(list.json<ProductPage>().pagination).toMatchObject({ page: 2, limit: 12 });
    const id = list.json<ProductPage>().products[0]?.id;
    expect((await get(`/api/products/${id}`)).statusCode).toBe(200);
    expect((await get('/api/products/2147483647')).statusCode).toBe(404);
  });

  it('still pass with a real updatedSince on the list and the mirror', async () => {
    const since = encodeURIComponent('2020-01-01T00:00:00.000+02:00');
    expect((await get(`/api/products?updatedSince=${since}`)).statusCode).toBe(200);
    const mirror = await get(`/api/products/mirror?updatedSince=${since}`);
    expect(mirror.statusCode).toBe(200);
    expect(mirror.body.trim().split('\n').at(-1)).toMatch(/"type":"end"/);
  });

  it('still pass without the optional body and with an empty one', async () => {
    for (const payload of [undefined, {}]) {
      const id = await pendingCompany();
      const response = await app.inject({
        method: 'POST',
        url: `/api/admin/companies/${id}/approve`,
        headers: bearer(staff),
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(await statusOf(id)).toBe('APPROVED');
    }
  });

  it('still pass with a status from a list of values in the query', async () => {
    const response = await get('/api/admin/companies?status=PENDING', staff);
    expect(response.statusCode).toBe(200);
    expectRefused(await get('/api/admin/companies?status=pending', staff), 'status');
  });

  it('still refuse an overlong Idempotency-Key header', async () => {
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/cart',
      headers: { ...bearer(buyer), 'idempotency-key': 'k'.repeat(101) },
    });
    expectRefused(response, 'idempotency-key');
  });
});
