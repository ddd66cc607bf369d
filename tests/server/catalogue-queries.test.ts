import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSearchFields } from '../../src/contracts/catalogue-query';
import { buildApp } from '../../server/app';
import { categories, products } from '../../server/db/schema';
import { listProducts } from '../../server/services/catalogue';
import {
  CATALOGUE_CASES,
  FIXTURE_CATEGORIES,
  FIXTURE_PRODUCTS,
  fixtureCategoryId,
  withDefaults,
} from '../fixtures/catalogue-cases';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const { db } = testDb.database;
  await db.insert(categories).values(FIXTURE_CATEGORIES.map((c, position) => ({ ...c, position })));
  // One row at a time, in order, so that ids follow the fixture's order.
  for (const p of FIXTURE_PRODUCTS) {
    await db.insert(products).values({
      sku: p.sku,
      ean: p.ean,
      name: p.name,
      shortDescription: p.shortDescription,
      description: p.description,
      categoryId: fixtureCategoryId(p.category) as number,
      price: p.price.toFixed(2),
      stock: 10,
      ...deriveSearchFields(p),
      createdAt: new Date(p.createdAt),
      updatedAt: new Date(p.createdAt),
    });
  }
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('the catalogue query on the server', () => {
  it.each(CATALOGUE_CASES)(
    '$name',
    async ({ viewer, query, expected, totalProducts, totalPages }) => {
      const full = { ...withDefaults(query), categoryId: fixtureCategoryId(query.category) };
      if (viewer === 'approved') {
        // Prices are only for approved companies, who cannot sign in yet: ask the service.
        const result = await listProducts(testDb.database.db, full, { canSeePrices: true });
        expect(result.products.map((p) => p.sku)).toEqual(expected);
        expect(result.pagination).toMatchObject({ totalProducts, totalPages });
        return;
      }
      const searchParams = new URLSearchParams({
        search: full.search,
        sortBy: full.sortBy,
        page: String(full.page),
        limit: String(full.limit),
        ...(full.categoryId ? { categoryId: String(full.categoryId) } : {}),
      });
      const response = await app.inject(`/api/products?${searchParams}`);
      expect(response.statusCode).toBe(200);
      const body = response.json<{ products: { sku: string }[]; pagination: object }>();
      expect(body.products.map((p) => p.sku)).toEqual(expected);
      expect(body.pagination).toMatchObject({ totalProducts, totalPages });
    },
  );
});
