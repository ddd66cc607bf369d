import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import { removeProducts, storeProducts } from '../../src/lib/db/stored-products';
import { queryLocalCatalogue } from '../../src/lib/sync/local-catalogue';
import {
  CATALOGUE_CASES,
  fixtureCategoryId,
  fixtureProductDtos,
  withDefaults,
} from '../fixtures/catalogue-cases';

const opened: PortalDb[] = [];

async function mirrorWith(viewer: 'visitor' | 'approved'): Promise<PortalDb> {
  const db = createPortalDb(`test-${viewer}-${Math.random()}`);
  opened.push(db);
  await storeProducts(db, fixtureProductDtos(viewer));
  return db;
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

describe('the catalogue query on the device', () => {
  it.each(CATALOGUE_CASES)(
    '$name',
    async ({ viewer, query, expected, totalProducts, totalPages }) => {
      const db = await mirrorWith(viewer);
      const result = await queryLocalCatalogue(db, {
        ...withDefaults(query),
        categoryId: fixtureCategoryId(query.category),
      });
      expect(result.products.map((p) => p.sku)).toEqual(expected);
      expect(result.pagination).toMatchObject({ totalProducts, totalPages });
    },
  );

  it('never shows a price the mirror was not given', async () => {
    const db = await mirrorWith('visitor');
    const result = await queryLocalCatalogue(db, withDefaults({}));
    expect(result.products.every((p) => p.price === undefined)).toBe(true);
  });
});

describe('the device query kept in memory', () => {
  it('follows the mirror when products are changed, added or removed', async () => {
    const db = await mirrorWith('visitor');
    const query = { search: '', sortBy: 'name' as const, page: 1, limit: 50 };
    expect((await queryLocalCatalogue(db, query)).pagination.totalProducts).toBe(10);
    const [first] = fixtureProductDtos('visitor');
    await storeProducts(db, [
      { ...first!, nameKey: 'aaa first now', updatedAt: '2027-01-01T00:00:00.000Z' },
    ]);
    expect((await queryLocalCatalogue(db, query)).products[0]?.sku).toBe(first?.sku);
    await removeProducts(db, [first!.id]);
    const after = await queryLocalCatalogue(db, query);
    expect(after.pagination.totalProducts).toBe(9);
    expect(after.products.map((p) => p.sku)).not.toContain(first?.sku);
  });
});
