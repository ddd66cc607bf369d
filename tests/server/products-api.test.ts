import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidEan13 } from '../../src/contracts/barcodes';
import type { Product } from '../../src/contracts/catalogue';
import { buildApp } from '../../server/app';
import { products } from '../../server/db/schema';
import { seedDatabase, seedLargeCatalogue } from '../../server/db/seed';
import { like } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

interface ListBody {
  products: Product[];
  pagination: { page: number; limit: number; totalPages: number; totalProducts: number };
}

const list = async (query = '') => {
  const response = await app.inject(`/api/products${query}`);
  return { status: response.statusCode, body: response.json<ListBody>() };
};

const allProducts = async (): Promise<Product[]> => (await list('?limit=100')).body.products;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db);
  app = await buildApp({ database: testDb.database });
  app.get('/api/test-failure', () =>
    Promise.reject(new Error('connection string postgres://admin:secret@db')),
  );
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('GET /api/health', () => {
  it('answers ok with the database engine', async () => {
    const response = await app.inject('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: process.env.TEST_DB });
  });
});

describe('the demo catalogue', () => {
  it('has at least 40 products in at least 6 categories, the Tea Tree line and kits among them', async () => {
    const response = await app.inject('/api/products/categories');
    const { categories } = response.json<{ categories: { slug: string }[] }>();
    expect(categories.length).toBeGreaterThanOrEqual(6);
    expect(categories.map((c) => c.slug)).toEqual(
      expect.arrayContaining([
        'shampoos',
        'conditioners',
        'masks',
        'treatments',
        'styling',
        'tea-tree',
        'kits',
      ]),
    );
    const all = await allProducts();
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(new Set(all.map((p) => p.categoryId)).size).toBe(categories.length);
  });

  it('has products out of stock and products with several pictures', async () => {
    const all = await allProducts();
    expect(all.some((p) => !p.inStock && p.stock === 0)).toBe(true);
    expect(all.some((p) => p.inStock && p.stock > 0)).toBe(true);
    expect(all.some((p) => p.images.length > 1)).toBe(true);
    expect(
      all.every((p) => p.sku && p.description && p.shortDescription && p.tags.length > 0),
    ).toBe(true);
  });

  it('gives every product an EAN-13 of its own, by which the search finds it', async () => {
    const all = await allProducts();
    const eans = all.map((p) => p.ean ?? '');
    expect(eans.filter((ean) => !isValidEan13(ean))).toEqual([]);
    expect(new Set(eans).size).toBe(all.length);
    const [first] = all;
    const found = await list(`?search=${first?.ean}`);
    expect(found.body.products.map((p) => p.id)).toEqual([first?.id]);
    const detail = await app.inject(`/api/products/${first?.id}`);
    expect(detail.json<{ product: Product }>().product.ean).toBe(first?.ean);
  });

  it('serves every product picture under /uploads/products', async () => {
    const all = await allProducts();
    const paths = all.flatMap((p) => p.images);
    expect(paths.every((path) => path.startsWith('/uploads/products/'))).toBe(true);
    for (const path of paths.slice(0, 10)) {
      const response = await app.inject(path);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('image/svg+xml');
      expect(response.body).toContain('<svg');
    }
    expect((await app.inject('/uploads/products/nothing-here.svg')).statusCode).toBe(404);
  });

  it('seeds only once', async () => {
    expect(await seedDatabase(testDb.database.db)).toBe(false);
    expect((await allProducts()).length).toBe((await list()).body.pagination.totalProducts);
  });
});

describe('GET /api/products', () => {
  it('answers the first page of 12 by name with the pagination', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.products).toHaveLength(12);
    expect(body.pagination).toEqual({ page: 1, limit: 12, totalProducts: 44, totalPages: 4 });
    const keys = body.products.map((p) => p.nameKey);
    expect(keys).toEqual([...keys].sort());
  });

  it('never sends a price to a caller who is not a verified, approved company', async () => {
    for (const sortBy of ['name', 'price', 'newest']) {
      const { body } = await list(`?limit=100&sortBy=${sortBy}`);
      expect(body.products.every((p) => !('price' in p))).toBe(true);
    }
    const detail = await app.inject(`/api/products/${(await allProducts())[0]?.id}`);
    expect(detail.json<{ product: object }>().product).not.toHaveProperty('price');
  });

  it('sends the fields of a product', async () => {
    const [product] = (await list('?limit=1')).body.products;
    expect(product).toMatchObject({
      id: like.any(Number),
      sku: like.any(String),
      ean: like.stringMatching(/^\d{13}$/),
      name: like.any(String),
      currency: 'EUR',
      stock: like.any(Number),
      stockQuantity: like.any(Number),
      inStock: like.any(Boolean),
      images: like.any(Array),
      tags: like.any(Array),
      category: { id: like.any(Number), name: like.any(String), slug: like.any(String) },
      createdAt: like.stringMatching(/Z$/),
      searchText: like.any(String),
      nameKey: like.any(String),
    });
  });

  it('pages through the whole catalogue without repeating or missing a product', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const { body } = await list(`?page=${page}&sortBy=newest`);
      seen.push(...body.products.map((p) => p.id));
    }
    expect(new Set(seen).size).toBe(44);
    expect((await list('?page=5')).body.products).toEqual([]);
  });

  it('accepts a limit of up to 100', async () => {
    expect((await list('?limit=100')).body.products).toHaveLength(44);
    expect((await list('?limit=101')).status).toBe(400);
  });

  it('answers an unknown category with no products', async () => {
    const { status, body } = await list('?categoryId=999999');
    expect(status).toBe(200);
    expect(body.pagination.totalProducts).toBe(0);
  });

  it('answers only products changed since a moment when asked (updatedSince)', async () => {
    const [target] = await allProducts();
    const later = new Date(Date.now() + 60_000);
    await testDb.database.db
      .update(products)
      .set({ updatedAt: later })
      .where(eq(products.id, target?.id ?? 0));
    const { body } = await list(
      `?updatedSince=${encodeURIComponent(later.toISOString())}&limit=100`,
    );
    expect(body.products.map((p) => p.id)).toEqual([target?.id]);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['limit=0', 'limit'],
    ['limit=-5', 'limit'],
    ['categoryId=abc', 'categoryId'],
    ['categoryId=-1', 'categoryId'],
    ['sortBy=cheapest', 'sortBy'],
    ['updatedSince=yesterday', 'updatedSince'],
    ['colour=red', 'colour'],
    [`search=${'a'.repeat(10_240)}`, 'search'],
  ])('rejects %s with a clear 400', async (query, field) => {
    const response = await app.inject(`/api/products?${query}`);
    expect(response.statusCode).toBe(400);
    const body = response.json<{ message: string; details: { field: string }[] }>();
    expect(body.message).toContain(field);
    expect(body.details.map((d) => d.field)).toContain(field);
  });
});

describe('GET /api/products/{id}', () => {
  it('answers one product', async () => {
    const [first] = await allProducts();
    const response = await app.inject(`/api/products/${first?.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ product: Product }>().product).toMatchObject({
      id: first?.id,
      sku: first?.sku,
    });
  });

  it('answers 404 with a message for a product that does not exist', async () => {
    const response = await app.inject('/api/products/999999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Product not found' });
  });

  it.each(['abc', '0', '-3', '99999999999'])('answers 400 for the id %s', async (id) => {
    const response = await app.inject(`/api/products/${id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(/id/);
  });
});

describe('errors', () => {
  it('answers unknown /api paths with a JSON 404', async () => {
    const response = await app.inject('/api/no-such-thing');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json<{ message: string }>().message).toBeTruthy();
  });

  it('never leaks internals in a 500', async () => {
    const response = await app.inject('/api/test-failure');
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('at ');
    expect(response.json<{ message: string }>().message).toBeTruthy();
  });

  it('answers a malformed JSON body with a 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/newsletter',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBeTruthy();
  });
});

describe('POST /api/newsletter', () => {
  it('subscribes an address, and subscribing it again is not an error', async () => {
    for (let i = 0; i < 2; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/newsletter',
        payload: { email: 'Salon@Example.com', locale: 'it' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ subscribed: true });
    }
  });

  it.each([{ email: 'not-an-address' }, { email: 'a@b.co', extra: 1 }, {}])(
    'rejects %j',
    async (payload) => {
      const response = await app.inject({ method: 'POST', url: '/api/newsletter', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBeTruthy();
    },
  );
});

describe('the large catalogue for benchmarks', () => {
  it('adds the requested number of generated products, searchable like the others', async () => {
    const own = await createTestDatabase();
    try {
      await seedLargeCatalogue(own.database.db, 1_200);
      const large = await buildApp({ database: own.database });
      const all = await large.inject('/api/products?limit=1');
      expect(all.json<ListBody>().pagination.totalProducts).toBe(44 + 1_200);
      const found = await large.inject('/api/products?search=bn-000777');
      expect(found.json<ListBody>().products.map((p) => p.sku)).toEqual(['BN-000777']);
      // Each with an EAN-13 of its own, none of them a demo product's.
      const eans = (await own.database.db.select({ ean: products.ean }).from(products)).map(
        (row) => row.ean ?? '',
      );
      expect(eans).toHaveLength(44 + 1_200);
      expect(eans.filter((ean) => !isValidEan13(ean))).toEqual([]);
      expect(new Set(eans).size).toBe(eans.length);
      const [generated] = found.json<ListBody>().products;
      const byEan = await large.inject(`/api/products?search=${generated?.ean}`);
      expect(byEan.json<ListBody>().products.map((p) => p.sku)).toEqual(['BN-000777']);
      await large.close();
    } finally {
      await own.drop();
    }
  });
});

describe('the sitemap', () => {
  it('lists every product with the date it last changed', async () => {
    const response = await app.inject('/sitemap.xml');
    const all = await allProducts();
    for (const product of all) {
      expect(response.body).toContain(
        `<loc>http://localhost:8080/products/${product.id}</loc><lastmod>${product.updatedAt}</lastmod>`,
      );
    }
  });
});

describe('GET /api/products/ids', () => {
  it('lists every product id, for devices to drop deleted products', async () => {
    const response = await app.inject('/api/products/ids');
    const ids = response.json<{ ids: number[] }>().ids;
    expect(ids).toEqual((await allProducts()).map((p) => p.id).sort((a, b) => a - b));
  });
});
