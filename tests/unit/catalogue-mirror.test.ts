import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  compareProducts,
  deriveSearchFields,
  paginate,
  type Category,
  type Product,
} from '../../src/contracts/catalogue';
import type { FetchProductsParams } from '../../src/lib/api/catalogue';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import { refreshCatalogue, type CatalogueSource } from '../../src/lib/sync/catalogue-mirror';

const CATEGORY: Category = { id: 1, slug: 'shampoos', name: 'Shampoos' };

function makeProduct(id: number, updatedAt = '2026-01-01T00:00:00.000Z'): Product {
  const fields = { name: `Product ${id}`, sku: `P-${id}`, shortDescription: '', description: '' };
  return {
    id,
    ...fields,
    currency: 'EUR',
    stock: 5,
    stockQuantity: 5,
    inStock: true,
    images: [],
    tags: [],
    categoryId: CATEGORY.id,
    category: CATEGORY,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt,
    ...deriveSearchFields(fields),
  };
}

/** A server in memory: answers like the API, and records what it was asked. */
function fakeServer(initial: Product[]) {
  const products = new Map(initial.map((p) => [p.id, p]));
  const calls: FetchProductsParams[] = [];
  let failAfterPages = Infinity;
  const source: CatalogueSource = {
    categories: async () => [CATEGORY],
    productIds: async () => [...products.keys()],
    products: async (params) => {
      calls.push(params);
      if (calls.length > failAfterPages) throw new TypeError('Failed to fetch');
      const limit = params.limit ?? 12;
      const page = params.page ?? 1;
      const matching = [...products.values()]
        .filter((p) => !params.updatedSince || p.updatedAt >= params.updatedSince)
        .sort(compareProducts('newest'));
      return {
        products: matching.slice((page - 1) * limit, page * limit),
        pagination: paginate(matching.length, page, limit),
      };
    },
  };
  return {
    source,
    calls,
    products,
    failAfter: (pages: number) => {
      failAfterPages = calls.length + pages;
    },
  };
}

const opened: PortalDb[] = [];
function freshDb(): PortalDb {
  const db = createPortalDb(`mirror-${Math.random()}`);
  opened.push(db);
  return db;
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('the catalogue mirror', () => {
  it('copies every product and category, page by page, and marks itself complete', async () => {
    const db = freshDb();
    const server = fakeServer(range(230).map((id) => makeProduct(id)));
    const state = await refreshCatalogue(db, { source: server.source });
    expect(await db.products.count()).toBe(230);
    expect(await db.categories.toArray()).toEqual([CATEGORY]);
    expect(server.calls.map((c) => c.page)).toEqual([1, 2, 3]);
    expect(state).toMatchObject({
      complete: true,
      viewer: 'visitor',
      cursor: '2026-01-01T00:00:00.000Z',
    });
  });

  it('asks only for products changed since the newest one it has, and applies them', async () => {
    const db = freshDb();
    const server = fakeServer(range(20).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    const changed = { ...makeProduct(7, '2026-02-01T00:00:00.000Z'), name: 'Renamed' };
    server.products.set(7, changed);
    server.calls.length = 0;

    const state = await refreshCatalogue(db, { source: server.source });
    expect(server.calls[0]?.updatedSince).toBe('2026-01-01T00:00:00.000Z');
    expect((await db.products.get(7))?.name).toBe('Renamed');
    expect(await db.products.count()).toBe(20);
    expect(state.cursor).toBe('2026-02-01T00:00:00.000Z');
  });

  it('drops products the server no longer has, on an incremental refresh too', async () => {
    const db = freshDb();
    const server = fakeServer(range(10).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    server.products.delete(4);
    await refreshCatalogue(db, { source: server.source });
    expect(server.calls.at(-1)?.updatedSince).toBeDefined();
    expect(await db.products.get(4)).toBeUndefined();
    expect(await db.products.count()).toBe(9);
  });

  it('drops products the server no longer has on a full refresh', async () => {
    const db = freshDb();
    const server = fakeServer(range(10).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    server.products.delete(3);
    // Another viewer (a signed-in company) means other prices: everything is fetched again.
    await refreshCatalogue(db, { source: server.source, viewer: 'company:1' });
    expect(await db.products.get(3)).toBeUndefined();
    expect(await db.products.count()).toBe(9);
  });

  it('keeps what it had when the network fails half-way', async () => {
    const db = freshDb();
    const server = fakeServer(range(150).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    const before = await db.mirrorState.get('catalogue');
    server.failAfter(0);
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toThrow(
      'Failed to fetch',
    );
    expect(await db.products.count()).toBe(150);
    expect(await db.mirrorState.get('catalogue')).toEqual(before);
  });

  it('runs one refresh at a time', async () => {
    const db = freshDb();
    const server = fakeServer(range(5).map((id) => makeProduct(id)));
    const [a, b] = await Promise.all([
      refreshCatalogue(db, { source: server.source }),
      refreshCatalogue(db, { source: server.source }),
    ]);
    expect(a).toBe(b);
    expect(server.calls).toHaveLength(1);
  });

  it('is not complete before the first refresh has finished', async () => {
    const db = freshDb();
    const server = fakeServer(range(150).map((id) => makeProduct(id)));
    server.failAfter(1);
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toThrow();
    expect(await db.mirrorState.get('catalogue')).toBeUndefined();
  });
});
