import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
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
  await db.products.bulkPut(fixtureProductDtos(viewer));
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
