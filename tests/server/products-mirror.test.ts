import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, MirrorLine, Product } from '../../src/contracts/catalogue';
import { buildApp } from '../../server/app';
import { products } from '../../server/db/schema';
import { seedDatabase, seedLargeCatalogue } from '../../server/db/seed';
import { decideCompany } from '../../server/services/admin';
import { bearer, register, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

type EndLine = Extract<MirrorLine, { type: 'end' }>;

interface Mirror {
  lines: MirrorLine[];
  categories: Category[];
  products: Product[];
  end: EndLine | undefined;
}

function parse(body: string): Mirror {
  expect(body.endsWith('\n')).toBe(true);
  const lines = body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as MirrorLine);
  return {
    lines,
    categories: lines.flatMap((l) => (l.type === 'categories' ? l.categories : [])),
    products: lines.flatMap((l) => (l.type === 'products' ? l.products : [])),
    end: lines.find((l): l is EndLine => l.type === 'end'),
  };
}

async function mirror(server: FastifyInstance, query = '', headers: Record<string, string> = {}) {
  const response = await server.inject({ url: `/api/products/mirror${query}`, headers });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/x-ndjson');
  return parse(response.body);
}

/** Every product as GET /api/products answers it to the same caller, by id. */
async function listed(headers: Record<string, string> = {}): Promise<Map<number, Product>> {
  const all = new Map<number, Product>();
  for (let page = 1; ; page += 1) {
    const response = await app.inject({ url: `/api/products?limit=100&page=${page}`, headers });
    const body = response.json<{ products: Product[]; pagination: { totalPages: number } }>();
    for (const product of body.products) all.set(product.id, product);
    if (page >= body.pagination.totalPages) return all;
  }
}

async function approvedCompany(): Promise<Tokens> {
  const { email, password, user } = await register(app);
  await decideCompany(testDb.database.db, user.companyId, 'approve');
  return signIn(app, email, password);
}

describe('GET /api/products/mirror', () => {
  it('answers the categories, then every product, then the end line', async () => {
    const { lines, categories, products: sent, end } = await mirror(app);
    expect(lines[0]?.type).toBe('categories');
    expect(lines.at(-1)?.type).toBe('end');
    expect(lines.filter((l) => l.type === 'end')).toHaveLength(1);
    const response = await app.inject('/api/products/categories');
    expect(categories).toEqual(response.json<{ categories: Category[] }>().categories);
    const ids = sent.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(end?.ids).toEqual(ids);
    expect(sent).toHaveLength(44);
  });

  it('sends each product exactly as GET /api/products does, without prices for a visitor', async () => {
    const { products: sent } = await mirror(app);
    const expected = await listed();
    expect(sent.map((p) => [p.id, p])).toEqual([...expected.entries()].sort(([a], [b]) => a - b));
    expect(sent.some((p) => 'price' in p)).toBe(false);
  });

  it('never sends a price to a company that is not verified and approved', async () => {
    const { email, password } = await register(app);
    const pending = await signIn(app, email, password);
    const { products: sent } = await mirror(app, '', bearer(pending));
    expect(sent).toHaveLength(44);
    expect(sent.some((p) => 'price' in p)).toBe(false);
  });

  it('sends the prices an approved company sees in GET /api/products', async () => {
    const headers = bearer(await approvedCompany());
    const { products: sent } = await mirror(app, '', headers);
    const expected = await listed(headers);
    expect(sent.every((p) => typeof p.price === 'number')).toBe(true);
    for (const product of sent) expect(product).toEqual(expected.get(product.id));
  });

  it('answers 401 for a token that is not valid, as every other call does', async () => {
    const response = await app.inject({ url: '/api/products/mirror', headers: bearer('nope') });
    expect(response.statusCode).toBe(401);
    expect(response.json<{ message: string }>().message).toBeTruthy();
  });

  it('sends only products changed since updatedSince, with every id and the newest time as cursor', async () => {
    const all = await mirror(app);
    const [a, b] = all.products;
    const later = new Date(Date.now() + 120_000);
    const latest = new Date(later.getTime() + 1);
    await testDb.database.db
      .update(products)
      .set({ updatedAt: later })
      .where(eq(products.id, a?.id ?? 0));
    await testDb.database.db
      .update(products)
      .set({ updatedAt: latest })
      .where(eq(products.id, b?.id ?? 0));

    const changed = await mirror(app, `?updatedSince=${encodeURIComponent(later.toISOString())}`);
    expect(changed.products.map((p) => p.id)).toEqual([a?.id, b?.id]);
    expect(changed.categories).toEqual(all.categories);
    expect(changed.end).toEqual({ type: 'end', cursor: latest.toISOString(), ids: all.end?.ids });

    const none = await mirror(app, `?updatedSince=${encodeURIComponent('2999-01-01T00:00:00Z')}`);
    expect(none.products).toEqual([]);
    expect(none.end?.ids).toEqual(all.end?.ids);
  });

  it('lists only the ids that still exist, so that devices drop deleted products', async () => {
    const before = await mirror(app);
    const [gone] = before.products.filter((p) => p.stock > 0).slice(-1);
    await testDb.database.db.delete(products).where(inArray(products.id, [gone?.id ?? 0]));
    const after = await mirror(
      app,
      `?updatedSince=${encodeURIComponent(new Date().toISOString())}`,
    );
    expect(after.end?.ids).toEqual(before.end?.ids.filter((id) => id !== gone?.id));
  });

  it.each([
    ['updatedSince=yesterday', 'updatedSince'],
    ['updatedSince=', 'updatedSince'],
    ['limit=10', 'limit'],
  ])('rejects %s with a JSON 400 naming the field', async (query, field) => {
    const response = await app.inject(`/api/products/mirror?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/json');
    const body = response.json<{ message: string; details: { field: string }[] }>();
    expect(body.message).toContain(field);
    expect(body.details.map((d) => d.field)).toContain(field);
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ])('is compressed with %s when the caller accepts it', async (encoding, decompress) => {
    const plain = await app.inject('/api/products/mirror');
    const response = await app.inject({
      url: '/api/products/mirror',
      headers: { 'accept-encoding': encoding },
    });
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(decompress(response.rawPayload).toString()).toBe(plain.body);
  });

  it('is never kept by a cache: what it holds depends on who asks', async () => {
    const response = await app.inject('/api/products/mirror');
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('the mirror of a large catalogue', () => {
  it('sends every product once, in batches of at most 1000', async () => {
    const own = await createTestDatabase();
    try {
      await seedLargeCatalogue(own.database.db, 2_100);
      const large = await buildApp({ database: own.database });
      const { lines, products: sent, end } = await mirror(large);
      const batches = lines.flatMap((l) => (l.type === 'products' ? [l.products.length] : []));
      expect(batches).toEqual([1000, 1000, 144]);
      expect(new Set(sent.map((p) => p.id)).size).toBe(2_144);
      expect(end?.ids).toEqual(sent.map((p) => p.id));
      await large.close();
    } finally {
      await own.drop();
    }
  });
});

describe('the mirror when the database fails', () => {
  it('answers a JSON 500 without internals, not a broken stream', async () => {
    const own = await createTestDatabase();
    const broken = await buildApp({ database: own.database });
    try {
      await own.database.close();
      const response = await broken.inject('/api/products/mirror');
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toEqual({
        message: 'Something went wrong on our side. Please try again.',
      });
    } finally {
      await broken.close();
      await own.drop().catch(() => undefined);
    }
  });
});
