/**
 * The back office's catalogue changes with two server processes on one PostgreSQL: staff
 * change a product through one, salons read the catalogue through the other, whose kept
 * answers must not outlive the change (services/change-versions.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../../server/db/seed';
import { ensureAdmin } from '../../../server/services/admin';
import type { AdminProduct } from '../../../src/contracts/admin-catalogue';
import type { ProductPage } from '../../../src/contracts/catalogue';
import { salon } from '../factories';
import { createTestDatabase, type TestDatabase } from '../test-database';
import { startServers, type Servers } from './servers';

let testDb: TestDatabase;
let servers: Servers;
let staffToken: string;
let salonToken: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const db = testDb.database.db;
  await seedDatabase(db, { demoAccounts: false });
  await ensureAdmin(db, 'two.staff@example.com', 'Two-Staff-Pass-1');
  salonToken = (await salon(db, { status: 'APPROVED', isVerified: true })).tokens.accessToken;
  servers = await startServers(testDb.url as string, 2);
  const login = await fetch(`${servers.urls[0]}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'two.staff@example.com', password: 'Two-Staff-Pass-1' }),
  });
  staffToken = ((await login.json()) as { accessToken: string }).accessToken;
}, 180_000);

afterAll(async () => {
  await servers?.stop();
  await testDb?.drop();
});

async function call<T>(i: number, token: string, method: string, path: string, body?: object) {
  const response = await fetch(`${servers.urls[i]}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : null,
  });
  return { status: response.status, body: (await response.json()) as T };
}

const shown = async (sku: string) =>
  (await call<ProductPage>(1, salonToken, 'GET', `/api/products?search=${sku}`)).body.products;

describe('a product changed through one process', () => {
  it('is read through the other at once: its new price, then gone when off sale', async () => {
    const sku = `TWO-${randomUUID().slice(0, 8).toUpperCase()}`;
    const blank = { name: '', shortDescription: '', description: '' };
    const created = await call<{ product: AdminProduct }>(
      0,
      staffToken,
      'POST',
      '/api/admin/products',
      {
        sku,
        price: 10,
        stock: 5,
        categoryId: 1,
        tags: [],
        texts: { ro: { ...blank, name: 'Doi' }, en: blank, it: blank },
      },
    );
    expect(created.status).toBe(201);
    const id = created.body.product.id;
    // Read twice through the second process: its answer is kept.
    expect((await shown(sku))[0]?.price).toBe(10);
    expect((await shown(sku))[0]?.price).toBe(10);

    const edited = await call(0, staffToken, 'PATCH', `/api/admin/products/${id}`, {
      price: 14.25,
    });
    expect(edited.status).toBe(200);
    expect((await shown(sku))[0]?.price).toBe(14.25);

    await call(0, staffToken, 'POST', `/api/admin/products/${id}/deactivate`, {});
    expect(await shown(sku)).toEqual([]);
  });
});
