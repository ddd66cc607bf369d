import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { Product } from '../../src/contracts/catalogue';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import {
  clearProducts,
  keepOnlyProducts,
  readAllProducts,
  readProduct,
  readProducts,
  readStoredCatalogue,
  removeProducts,
  storeProducts,
} from '../../src/lib/db/stored-products';
import { generatedProduct } from '../fixtures/generated-products';

const makeProduct = (id: number, name?: string) => generatedProduct(id, { name });

const opened: PortalDb[] = [];
function freshDb(name = `stored-${Math.random()}`): PortalDb {
  const db = createPortalDb(name);
  opened.push(db);
  return db;
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

/** The tables of version 3 of the portal: one record per product. */
const VERSION_3_TABLES = {
  products: 'id, categoryId, updatedAt',
  categories: 'id',
  mirrorState: 'key',
  session: 'key',
  outbox: '++id, userId, state',
  carts: 'userId',
  orders: 'ref, userId, [userId+createdAt]',
};

/** The database as version 3 of the portal declared it. */
function earlierVersion(name: string): Dexie {
  const old = new Dexie(name);
  old.version(3).stores(VERSION_3_TABLES);
  return old;
}

const ids = (products: Product[]) => products.map((p) => p.id);
/** Ids on both sides of block boundaries, out of order, sparse. */
const SPREAD = [250, 1, 99, 100, 0, 199, 10_000, 200];

describe('the products on the device', () => {
  it('are read back by id, several at once and all in id order, across blocks', async () => {
    const db = freshDb();
    await storeProducts(
      db,
      SPREAD.map((id) => makeProduct(id)),
    );
    expect(await readProduct(db, 199)).toEqual(makeProduct(199));
    expect(await readProduct(db, 10_000)).toEqual(makeProduct(10_000));
    expect(await readProduct(db, 198)).toBeUndefined();
    expect(await readProduct(db, 5_000)).toBeUndefined();
    const some = await readProducts(db, [100, 99, 42, 10_000]);
    expect([...some.keys()].sort((a, b) => a - b)).toEqual([99, 100, 10_000]);
    expect(ids(await readAllProducts(db))).toEqual([...SPREAD].sort((a, b) => a - b));
    expect((await readStoredCatalogue(db)).ids).toEqual([...SPREAD].sort((a, b) => a - b));
  });

  it('replace a product stored under the same id, leaving its neighbours alone', async () => {
    const db = freshDb();
    await storeProducts(db, [makeProduct(10), makeProduct(11), makeProduct(12)]);
    await storeProducts(db, [makeProduct(11, 'Renamed')]);
    expect((await readProduct(db, 11))?.name).toBe('Renamed');
    expect(ids(await readAllProducts(db))).toEqual([10, 11, 12]);
    expect((await readStoredCatalogue(db)).ids.length).toBe(3);
  });

  it('are removed by id, or all but some, or all', async () => {
    const db = freshDb();
    await storeProducts(
      db,
      SPREAD.map((id) => makeProduct(id)),
    );
    await removeProducts(db, [99, 10_000, 4_242]);
    expect(ids(await readAllProducts(db))).toEqual([0, 1, 100, 199, 200, 250]);
    await keepOnlyProducts(db, new Set([1, 200, 777]));
    expect(ids(await readAllProducts(db))).toEqual([1, 200]);
    expect((await readStoredCatalogue(db)).ids).toEqual([1, 200]);
    // Emptied blocks are deleted, not kept as empty records.
    expect(await db.productBlocks.count()).toBe(2);
    await clearProducts(db);
    expect(await readAllProducts(db)).toEqual([]);
    expect((await readStoredCatalogue(db)).ids.length).toBe(0);
  });

  it('move the revision on with every change, and only then', async () => {
    const db = freshDb();
    const revision = async () => (await readStoredCatalogue(db)).revision;
    expect(await revision()).toBe(0);
    await storeProducts(db, [makeProduct(1)]);
    const afterStore = await revision();
    expect(afterStore).toBeGreaterThan(0);
    await removeProducts(db, [2]);
    await keepOnlyProducts(db, new Set([1]));
    expect(await revision()).toBe(afterStore);
    // The same product again (a product page showing what the device had) is no change.
    await storeProducts(db, [makeProduct(1)]);
    expect(await revision()).toBe(afterStore);
    await storeProducts(db, [makeProduct(1, 'Renamed')]);
    expect(await revision()).toBeGreaterThan(afterStore);
    const beforeClear = await revision();
    await clearProducts(db);
    // Never back to an earlier revision: a reader keeping products in memory would be fooled.
    expect(await revision()).toBeGreaterThan(beforeClear);
  });

  it('are kept when a device holding one record per product (version 3) is upgraded', async () => {
    const name = `upgrade-${Math.random()}`;
    const old = earlierVersion(name);
    await old.table('products').bulkPut(SPREAD.map((id) => makeProduct(id)));
    await old
      .table('mirrorState')
      .put({ key: 'catalogue', cursor: null, syncedAt: '', complete: true, viewer: 'visitor' });
    await old.table('outbox').add({ userId: 7, state: 'waiting', kind: 'cart.add' });
    old.close();

    const db = freshDb(name);
    expect(ids(await readAllProducts(db))).toEqual([...SPREAD].sort((a, b) => a - b));
    expect(await readProduct(db, 199)).toEqual(makeProduct(199));
    expect((await readStoredCatalogue(db)).ids).toEqual([...SPREAD].sort((a, b) => a - b));
    expect(await db.mirrorState.get('catalogue')).toMatchObject({ complete: true });
    expect(await db.outbox.count()).toBe(1);
    expect(await db.table('products').count()).toBe(0);
  });

  it('are kept when a device holding blocks of objects (version 5) is upgraded', async () => {
    const name = `blocks-${Math.random()}`;
    const old = new Dexie(name);
    // Version 5: products in blocks of objects.
    old.version(5).stores({
      ...VERSION_3_TABLES,
      productBlocks: 'block',
      storedCatalogue: 'key',
      companies: 'userId',
    });
    await old.table('productBlocks').bulkPut([
      { block: 0, products: [makeProduct(1), makeProduct(99)] },
      { block: 2, products: [makeProduct(250)] },
    ]);
    await old.table('storedCatalogue').put({ key: 'catalogue', revision: 3, ids: [1, 99, 250] });
    old.close();

    const db = freshDb(name);
    expect(await readAllProducts(db)).toEqual([makeProduct(1), makeProduct(99), makeProduct(250)]);
    expect(await readProduct(db, 99)).toEqual(makeProduct(99));
    await storeProducts(db, [makeProduct(2, 'Changed after the upgrade')]);
    expect(ids(await readAllProducts(db))).toEqual([1, 2, 99, 250]);
  });

  it('leave the upgraded database as it is when a tab of the earlier version opens it', async () => {
    const name = `upgraded-${Math.random()}`;
    const db = freshDb(name);
    await storeProducts(
      db,
      SPREAD.map((id) => makeProduct(id)),
    );
    const version = db.verno;
    const old = earlierVersion(name);
    await old.table('outbox').count();
    old.close();
    const native = await new Promise<number>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => {
        resolve(request.result.version);
        request.result.close();
      };
      request.onerror = () => reject(request.error!);
    });
    expect(native).toBe(version * 10);
    expect(ids(await readAllProducts(db))).toEqual([...SPREAD].sort((a, b) => a - b));
  });
});
