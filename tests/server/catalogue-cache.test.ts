/**
 * The catalogue's answer cache: kept while the catalogue is unchanged, never served after
 * a change, whoever made it.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { products } from '../../server/db/schema';
import { decideCompany } from '../../server/services/admin';
import { seedDatabase } from '../../server/db/seed';
import { createCatalogueCache, matchesEtag } from '../../server/services/catalogue-cache';
import { changeVersions, type ChangeVersions } from '../../server/services/change-versions';
import type { Product, ProductPage } from '../../src/contracts/catalogue';
import { bearer, register, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let buyer: Tokens;
let versions: ChangeVersions;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  const { email, password, user } = await register(app);
  await decideCompany(testDb.database.db, user.companyId, 'approve');
  buyer = await signIn(app, email, password);
  versions = await changeVersions(testDb.database);
});

afterAll(async () => {
  await versions.close();
  await app.close();
  await testDb.drop();
});

const priceOf = async (id: number) =>
  (
    await testDb.database.db
      .select({ price: products.price })
      .from(products)
      .where(eq(products.id, id))
  )[0]?.price;

const catalogueVersion = async () => (await versions.read()).catalogue;

describe('kept answers', () => {
  it('are served while nothing changed, and computed again after a change', async () => {
    const cache = createCatalogueCache();
    let computed = 0;
    const compute = async () => {
      computed += 1;
      return JSON.stringify({ price: await priceOf(1) });
    };
    const first = await cache.answer(await catalogueVersion(), '/api/products/1', true, compute);
    const again = await cache.answer(await catalogueVersion(), '/api/products/1', true, compute);
    expect(again).toEqual(first);
    expect(computed).toBe(1);

    await testDb.database.db.update(products).set({ price: '99.99' }).where(eq(products.id, 1));
    await testDb.settled();
    const changed = await cache.answer(await catalogueVersion(), '/api/products/1', true, compute);
    expect(computed).toBe(2);
    expect(JSON.parse(changed.body)).toEqual({ price: '99.99' });
    expect(changed.encoded('identity').etag).not.toBe(first.encoded('identity').etag);
  });

  it('are found without waiting while their version stands, and not after it moved', async () => {
    const cache = createCatalogueCache();
    const version = await catalogueVersion();
    expect(cache.kept(version, '/api/products/5', false)).toBeUndefined();
    const answer = await cache.answer(version, '/api/products/5', false, () =>
      Promise.resolve('{"a":1}'),
    );
    expect(cache.kept(version, '/api/products/5', false)).toBe(answer);
    expect(cache.kept(version, '/api/products/5', true)).toBeUndefined();
    expect(cache.kept(String(Number(version) + 1), '/api/products/5', false)).toBeUndefined();
  });

  it('are kept apart for viewers with and without prices', async () => {
    const cache = createCatalogueCache();
    const version = await catalogueVersion();
    const priced = await cache.answer(version, '/api/products/2', true, () =>
      Promise.resolve('{"price":1}'),
    );
    const unpriced = await cache.answer(version, '/api/products/2', false, () =>
      Promise.resolve('{}'),
    );
    expect(priced.body).toBe('{"price":1}');
    expect(unpriced.body).toBe('{}');
  });
});

describe('If-None-Match', () => {
  it('matches the ETag in a list, weak or strong, or "*"', () => {
    expect(matchesEtag('"a", W/"b"', '"b"')).toBe(true);
    expect(matchesEtag('*', '"b"')).toBe(true);
    expect(matchesEtag('"a"', '"b"')).toBe(false);
    expect(matchesEtag(undefined, '"b"')).toBe(false);
  });
});

describe('catalogue answers of the API', () => {
  const priceIn = (body: string) => (JSON.parse(body) as { product: Product }).product.price;

  it('give a visitor an ETag to revalidate with, and 304 when it still holds', async () => {
    for (const url of ['/api/products?page=2', '/api/products/3', '/api/products/categories']) {
      const first = await app.inject(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-cache');
      expect(String(first.headers.vary)).toContain('authorization');
      const etag = String(first.headers.etag);
      const again = await app.inject({ url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
  });

  it('come compressed to a caller that takes brotli or gzip, each with its own ETag', async () => {
    const url = '/api/products?limit=24';
    const plain = await app.inject(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const [encoding, decode] of Object.entries(decoders)) {
      const headers = { 'accept-encoding': `${encoding}, identity;q=0.5` };
      const response = await app.inject({ url, headers });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(String(response.headers.vary)).toContain('accept-encoding');
      expect(decode(response.rawPayload).toString()).toBe(plain.body);
      const etag = String(response.headers.etag);
      expect(etag).not.toBe(plain.headers.etag);
      const again = await app.inject({ url, headers: { ...headers, 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
    }
  });

  it('go as they are, under the plain ETag, to a caller that takes neither brotli nor gzip', async () => {
    const url = '/api/products?limit=24';
    const plain = await app.inject(url);
    const deflateOnly = await app.inject({ url, headers: { 'accept-encoding': 'deflate' } });
    expect(deflateOnly.headers['content-encoding']).toBeUndefined();
    expect(deflateOnly.headers.etag).toBe(plain.headers.etag);
    expect(deflateOnly.body).toBe(plain.body);
  });

  it('are never kept by a browser when they carry prices', async () => {
    const response = await app.inject({ url: '/api/products/3', headers: bearer(buyer) });
    expect(priceIn(response.body)).toBeGreaterThan(0);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('show a price changed through another connection once it is seen, to buyers and never to visitors', async () => {
    const before = await app.inject({ url: '/api/products/4', headers: bearer(buyer) });
    const visitor = await app.inject('/api/products/4');
    // Another server process's change: straight to the database, not through this app.
    await testDb.database.db.update(products).set({ price: '77.70' }).where(eq(products.id, 4));
    await testDb.settled();
    const after = await app.inject({ url: '/api/products/4', headers: bearer(buyer) });
    expect(priceIn(after.body)).toBe(77.7);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const list = await app.inject({ url: '/api/products?limit=100', headers: bearer(buyer) });
    expect(list.json<ProductPage>().products.find((p) => p.id === 4)?.price).toBe(77.7);
    const stillVisitor = await app.inject('/api/products/4');
    expect(priceIn(stillVisitor.body)).toBeUndefined();
    expect(priceIn(visitor.body)).toBeUndefined();
  });

  it('answer the mirror with an ETag that changes with the catalogue', async () => {
    const first = await app.inject('/api/products/mirror');
    const etag = String(first.headers.etag);
    expect(
      (await app.inject({ url: '/api/products/mirror', headers: { 'if-none-match': etag } }))
        .statusCode,
    ).toBe(304);
    // The device's next refresh asks from the cursor it got: still nothing newer.
    const { cursor } = JSON.parse(first.body.trim().split('\n').at(-1) ?? '{}') as {
      cursor: string;
    };
    const fromCursor = `/api/products/mirror?updatedSince=${encodeURIComponent(cursor)}`;
    const next = await app.inject({ url: fromCursor, headers: { 'if-none-match': etag } });
    expect(next.statusCode).toBe(304);
    await testDb.database.db.update(products).set({ stock: 5 }).where(eq(products.id, 5));
    await testDb.settled();
    const changed = await app.inject({
      url: '/api/products/mirror',
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body.trim().split('\n').at(-1)).toMatch(/"type":"end"/);
    const delta = await app.inject({ url: fromCursor, headers: { 'if-none-match': etag } });
    expect(delta.statusCode).toBe(200);
    expect(delta.body).toContain('"id":5');
  });
});

describe('the whole catalogue for a device', () => {
  const mirrorOf = async (headers: Record<string, string>) => {
    const response = await app.inject({
      url: '/api/products/mirror',
      headers: { 'accept-encoding': 'br', ...headers },
    });
    expect(response.statusCode).toBe(200);
    const encoding = response.headers['content-encoding'];
    const raw = response.rawPayload;
    const text = (
      encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw
    ).toString();
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; products?: Product[] });
    return {
      text,
      product: (id: number) =>
        lines.flatMap((line) => line.products ?? []).find((product) => product.id === id),
    };
  };

  it('is the same for the next device, with or without prices, until a change made elsewhere', async () => {
    const visitor = await mirrorOf({});
    const priced = await mirrorOf(bearer(buyer));
    // The next devices, each class its own answer, in another encoding too.
    expect((await mirrorOf({})).text).toBe(visitor.text);
    expect((await mirrorOf({ 'accept-encoding': 'gzip' })).text).toBe(visitor.text);
    expect((await mirrorOf(bearer(buyer))).text).toBe(priced.text);
    expect(visitor.product(6)?.price).toBeUndefined();
    expect(priced.product(6)?.price).toBe(Number(await priceOf(6)));

    // Another server process's change: straight to the database, not through this app.
    await testDb.database.db.update(products).set({ price: '66.60' }).where(eq(products.id, 6));
    await testDb.settled();
    expect((await mirrorOf(bearer(buyer))).product(6)?.price).toBe(66.6);
    expect((await mirrorOf({})).product(6)?.price).toBeUndefined();
  });
});
