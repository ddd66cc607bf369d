/**
 * Fastify's serializer writes only the fields a response schema names and drops the rest
 * without a word. The shapes are stated once, in src/contracts/*-schemas.ts; this file
 * calls each route that answers with one of them and checks that the answer carries every
 * field of the shape, all the way down, and nothing the shape does not name.
 */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { boothDetails, categories, products } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany } from '../../server/services/admin';
import {
  CompanyDocumentSchema,
  CompanySchema,
  UserSchema,
} from '../../src/contracts/accounts-schemas';
import {
  CategorySchema,
  MirrorLineSchema,
  ProductPageSchema,
  ProductSchema,
} from '../../src/contracts/catalogue-schemas';
import {
  AdminCompanyDetailSchema,
  AdminCompanyPageSchema,
  AdminSummarySchema,
  AuditPageSchema,
} from '../../src/contracts/admin-schemas';
import {
  AdminCategorySchema,
  AdminProductPageSchema,
  AdminProductSchema,
} from '../../src/contracts/admin-catalogue-schemas';
import { ErrorBodySchema } from '../../src/contracts/error-schema';
import { CartSchema, OrderSchema } from '../../src/contracts/orders-schemas';
import { companyDocument, salon, staffMember } from './factories';
import { ADDRESS, bearer, multipart, PDF, register, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
}

/**
 * Every field of `schema` is in `value`, at every depth, and no other: optional fields too,
 * except those whose path is listed in `mayLack` (`$.product.price`, `$.items[].id`).
 * Arrays must hold at least one element, so that the shape of their elements is checked.
 */
function expectEveryField(
  schema: TSchema,
  value: unknown,
  mayLack: readonly string[] = [],
  path = '$',
): void {
  const shape = schema as JsonSchema;
  if (shape.anyOf) {
    if (value === null && shape.anyOf.some((branch) => branch.type === 'null')) return;
    const branches = shape.anyOf.filter((branch) => Value.Check(branch as TSchema, value));
    expect(branches.length, `${path} matches one of its shapes`).toBe(1);
    expectEveryField(branches[0] as TSchema, value, mayLack, path);
    return;
  }
  if (shape.type === 'array' && shape.items) {
    expect(Array.isArray(value), `${path} is an array`).toBe(true);
    const items = value as unknown[];
    expect(items.length, `${path} has elements to check`).toBeGreaterThan(0);
    for (const item of items) expectEveryField(shape.items, item, mayLack, `${path}[]`);
    return;
  }
  if (shape.type === 'object' && shape.properties) {
    expect(value, `${path} is an object`).toBeTypeOf('object');
    const record = value as Record<string, unknown>;
    const expected = Object.keys(shape.properties).filter(
      (key) => key in record || !mayLack.includes(`${path}.${key}`),
    );
    expect(Object.keys(record).sort(), `the fields of ${path}`).toEqual(expected.sort());
    for (const [key, property] of Object.entries(shape.properties)) {
      if (key in record) expectEveryField(property, record[key], mayLack, `${path}.${key}`);
    }
  }
}

/** The answer is of the shape (types and formats too) and carries every field of it. */
function expectShape(schema: TSchema, value: unknown, mayLack: readonly string[] = []): void {
  expect([...Value.Errors(schema, value)]).toEqual([]);
  expectEveryField(schema, value, mayLack);
}

let testDb: TestDatabase;
let app: FastifyInstance;
let buyer: Tokens;
let productId: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  const { email, password, user } = await register(app);
  await decideCompany(testDb.database.db, user.companyId, 'approve');
  buyer = await signIn(app, email, password);
  const [first] = await testDb.database.db.select({ id: products.id }).from(products).limit(1);
  if (!first) throw new Error('The seeded catalogue is empty');
  productId = first.id;
  // Translations and a category's names are sent only where staff gave them: given here.
  const [product] = await testDb.database.db
    .update(products)
    .set({
      stock: 50,
      translations: {
        en: { name: 'Shampoo', shortDescription: 'Short', description: 'Long' },
        it: { name: 'Shampoo', shortDescription: 'Breve', description: 'Lunga' },
      },
    })
    .where(eq(products.id, productId))
    .returning({ categoryId: products.categoryId });
  await testDb.database.db
    .update(categories)
    .set({ names: { ro: 'Șampoane', en: 'Shampoos', it: 'Shampoo' } })
    .where(eq(categories.id, product?.categoryId ?? 0));
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/** Products and categories staff have not translated carry no translations. */
const UNTRANSLATED_PRODUCTS = ['$.products[].translations', '$.products[].category.names'];

const get = (url: string, tokens?: Tokens) =>
  app.inject({ url, headers: tokens ? bearer(tokens) : {} });

describe('the catalogue answers', () => {
  it('carry every field of a product, its price included, to a buyer who may see prices', async () => {
    const response = await get(`/api/products/${productId}`, buyer);
    expect(response.statusCode).toBe(200);
    expectShape(ProductSchema, response.json<{ product: unknown }>().product);
  });

  it('carry every field of a product but the price to a visitor', async () => {
    const response = await get(`/api/products/${productId}`);
    expect(response.statusCode).toBe(200);
    const { product } = response.json<{ product: Record<string, unknown> }>();
    expect(product).not.toHaveProperty('price');
    expectShape(ProductSchema, product, ['$.price']);
  });

  it('carry every field of a page of products and of its pagination', async () => {
    const response = await get('/api/products?limit=5', buyer);
    expect(response.statusCode).toBe(200);
    expectShape(ProductPageSchema, response.json(), UNTRANSLATED_PRODUCTS);
  });

  it('carry every field of a category', async () => {
    const response = await get('/api/products/categories');
    expect(response.statusCode).toBe(200);
    for (const category of response.json<{ categories: unknown[] }>().categories) {
      expectShape(CategorySchema, category, ['$.names']);
    }
  });

  it('stream mirror lines that carry every field of their shape', async () => {
    const response = await get('/api/products/mirror', buyer);
    expect(response.statusCode).toBe(200);
    const lines = response.body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((line) => line.type)).toEqual(
      expect.arrayContaining(['categories', 'products', 'end']),
    );
    for (const line of lines) {
      expectShape(MirrorLineSchema, line, [...UNTRANSLATED_PRODUCTS, '$.categories[].names']);
    }
  });
});

describe('the account answers', () => {
  it('carry every field of the signed-in user and of their company summary', async () => {
    const response = await get('/api/auth/me', buyer);
    expect(response.statusCode).toBe(200);
    const { user } = response.json<{ user: { company: unknown } }>();
    expect(user.company).not.toBeNull();
    expectShape(UserSchema, user);
  });

  it('carry every field of the company', async () => {
    const response = await get('/api/companies/me', buyer);
    expect(response.statusCode).toBe(200);
    expectShape(CompanySchema, response.json<{ company: unknown }>().company);
  });

  it('carry every field of an uploaded document', async () => {
    const body = multipart({}, [
      {
        field: 'tradeRegister',
        filename: 'register.pdf',
        contentType: 'application/pdf',
        data: PDF,
      },
    ]);
    const upload = await app.inject({
      method: 'POST',
      url: '/api/companies/me/documents',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(buyer) },
    });
    expect(upload.statusCode).toBe(201);
    const response = await get('/api/companies/me/documents', buyer);
    expect(response.statusCode).toBe(200);
    const { documents } = response.json<{ documents: unknown[] }>();
    expect(documents).toHaveLength(1);
    // Not reviewed yet: reviewedAt is null, which the shape allows.
    expectShape(CompanyDocumentSchema, documents[0]);
  });
});

describe('the cart and order answers', () => {
  it('carry every field of the cart, its lines and their products, then of the order', async () => {
    const added = await app.inject({
      method: 'POST',
      url: '/api/cart/add',
      headers: bearer(buyer),
      payload: { productId, quantity: 2 },
    });
    expect(added.statusCode).toBe(200);
    expectShape(CartSchema, added.json());

    const cart = await get('/api/cart', buyer);
    expect(cart.statusCode).toBe(200);
    expectShape(CartSchema, cart.json());

    const checkout = await app.inject({
      method: 'POST',
      url: '/api/cart/checkout',
      headers: bearer(buyer),
      payload: { shippingAddress: ADDRESS, notes: 'Leave at the desk', clientReference: 'L-1' },
    });
    expect(checkout.statusCode).toBe(201);
    const { order } = checkout.json<{ order: { id: number } }>();
    expectShape(OrderSchema, order);

    const read = await get(`/api/orders/${order.id}`, buyer);
    expect(read.statusCode).toBe(200);
    expectShape(OrderSchema, read.json<{ order: unknown }>().order);

    const list = await get('/api/orders', buyer);
    expect(list.statusCode).toBe(200);
    for (const listed of list.json<{ orders: unknown[] }>().orders)
      expectShape(OrderSchema, listed);
  });
});

describe('the back office answers', () => {
  it('carry every field of the summary, a page of companies, a company with its history and a page of the log', async () => {
    const db = testDb.database.db;
    const staff = await staffMember(app, db, 'shapes.staff@example.com');
    // Registered twice: the company's page names the other.
    const taxNumber = `RO${String(Date.now()).slice(-8)}`;
    const { companyId } = await salon(db, { city: 'Sibiu', taxNumber });
    await salon(db, { city: 'Sibiu', taxNumber });
    const documentId = await companyDocument(db, companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'registru.pdf',
    });
    for (const [url, payload] of [
      [`/api/admin/companies/${companyId}/approve`, {}],
      [`/api/admin/documents/${documentId}/reject`, { reviewNotes: 'Blurred' }],
    ] as const) {
      const response = await app.inject({
        method: 'POST',
        url,
        payload,
        headers: bearer(staff.tokens),
      });
      expect(response.statusCode).toBe(200);
    }
    // A rep typed every detail otherwise at a booth: each field of an entry shows.
    await db.insert(boothDetails).values({
      companyId,
      repId: staff.id,
      details: {
        companyName: 'Salon Nou',
        registrationNumber: 'J32/1/2026',
        companyEmail: 'nou@salon.example',
        companyPhone: '+40 700 000 001',
        address: 'Strada Nouă 1',
        city: 'Turda',
        postalCode: '401001',
        country: 'Italy',
        website: 'salon-nou.example',
      },
    });
    const read = async (url: string) => {
      const response = await get(url, staff.tokens);
      expect(response.statusCode).toBe(200);
      return response.json<unknown>();
    };
    expectShape(AdminSummarySchema, await read('/api/admin/summary'));
    expectShape(AdminCompanyPageSchema, await read(`/api/admin/companies?search=Sibiu`));
    expectShape(AdminCompanyDetailSchema, await read(`/api/admin/companies/${companyId}`));
    expectShape(AuditPageSchema, await read(`/api/admin/audit?companyId=${companyId}`));
    expectShape(AdminProductPageSchema, await read('/api/admin/products?limit=3'));
    const { product } = (await read(`/api/admin/products/${productId}`)) as { product: unknown };
    expectShape(AdminProductSchema, product);
    const { categories: list } = (await read('/api/admin/categories')) as {
      categories: unknown[];
    };
    for (const category of list) expectShape(AdminCategorySchema, category);
  });
});

describe('the error body', () => {
  it('carries the message and every field of each detail of a broken rule', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/cart/checkout',
      headers: bearer(buyer),
      payload: { shippingAddress: { ...ADDRESS, city: ' ' } },
    });
    expect(response.statusCode).toBe(400);
    expectShape(ErrorBodySchema, response.json(), [
      '$.code',
      '$.params',
      '$.retryAfter',
      '$.details[].params',
    ]);
  });
});
