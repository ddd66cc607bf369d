/**
 * The products on the device. They are kept in blocks of consecutive ids, one record per
 * block, not one record per product: IndexedDB pays mostly per record written, so 10,000
 * products written one by one take most of a second in Chromium, and as 100 blocks a few
 * tens of milliseconds. A block holds its products as JSON text: the browser copies one
 * string into and out of the database about three times faster than a thousand objects,
 * and this is most of the time a full mirror spends writing. Every read and write of
 * products goes through this module.
 *
 * One small record, written in the same transaction as the blocks, tells which ids are
 * stored and a revision that moves on with every write: a reader that keeps the products
 * in memory (the catalogue query) knows from it whether they changed, in this tab or
 * another, and a refresh finds the products to drop without reading them all.
 */
import type { Product } from '../../contracts/catalogue';
import type { PortalDb } from './db';

/** Products per block: block n holds ids n×100 … n×100+99. */
const BLOCK_SIZE = 100;

/** One block of products: its record in the database. */
export interface ProductBlock {
  block: number;
  /** Its products in id order, as JSON text. */
  json: string;
}

/** The record of a block of products (in id order). */
export const blockRecord = (block: number, products: readonly Product[]): ProductBlock => ({
  block,
  json: JSON.stringify(products),
});

/** The products of a block's record, none when there is no record. */
const productsOf = (record: ProductBlock | undefined): Product[] =>
  record ? (JSON.parse(record.json) as Product[]) : [];

/** What the device holds, under the key 'catalogue'. */
export interface StoredCatalogue {
  key: 'catalogue';
  /** Moves on with every write of products: two reads with the same revision saw the same. */
  revision: number;
  /** Ids of the products kept, in ascending order. */
  ids: number[];
}

const blockOf = (id: number): number => Math.floor(id / BLOCK_SIZE);

/** Products grouped by block, each block in id order. */
export function inBlocks(products: readonly Product[]): { block: number; products: Product[] }[] {
  const blocks = new Map<number, Product[]>();
  for (const product of [...products].sort((a, b) => a.id - b.id)) {
    const block = blocks.get(blockOf(product.id));
    if (block) block.push(product);
    else blocks.set(blockOf(product.id), [product]);
  }
  return [...blocks].map(([block, products]) => ({ block, products }));
}

/** One product, or undefined when the device does not have it. */
export async function readProduct(db: PortalDb, id: number): Promise<Product | undefined> {
  const record = await db.productBlocks.get(blockOf(id));
  return productsOf(record).find((product) => product.id === id);
}

/** The products of these ids the device has, by id. */
export async function readProducts(
  db: PortalDb,
  ids: readonly number[],
): Promise<Map<number, Product>> {
  const wanted = new Set(ids);
  const records = await db.productBlocks.bulkGet([...new Set(ids.map(blockOf))]);
  return new Map(
    records.flatMap((record) =>
      productsOf(record).flatMap((p) => (wanted.has(p.id) ? [[p.id, p] as const] : [])),
    ),
  );
}

/** Every product on the device, in id order. */
export async function readAllProducts(db: PortalDb): Promise<Product[]> {
  return (await db.productBlocks.toArray()).flatMap(productsOf);
}

/** The revision and ids of the products on the device (0 and none before the first write). */
export async function readStoredCatalogue(db: PortalDb): Promise<StoredCatalogue> {
  return (await db.storedCatalogue.get('catalogue')) ?? { key: 'catalogue', revision: 0, ids: [] };
}

/**
 * Changes the blocks holding `ids`: `change` gets each block's products (in id order; none
 * for a block not stored yet) and returns what it keeps, or the same array for no change.
 * Blocks left empty are deleted. In one transaction with the record of ids and revision,
 * joining the caller's transaction if it has one over these tables.
 */
async function changeBlocks(
  db: PortalDb,
  ids: readonly number[],
  change: (block: number, products: Product[]) => Product[],
): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction('rw', db.productBlocks, db.storedCatalogue, async () => {
    const keys = [...new Set(ids.map(blockOf))];
    const stored = await db.productBlocks.bulkGet(keys);
    const kept: ProductBlock[] = [];
    const emptied: number[] = [];
    const added: number[] = [];
    const removed = new Set<number>();
    keys.forEach((block, i) => {
      const before = productsOf(stored[i]);
      const after = change(block, before);
      if (after === before) return;
      if (after.length > 0) kept.push(blockRecord(block, after));
      else if (before.length > 0) emptied.push(block);
      for (const product of before) removed.add(product.id);
      for (const product of after) {
        if (!removed.delete(product.id)) added.push(product.id);
      }
    });
    if (kept.length === 0 && emptied.length === 0) return;
    await db.productBlocks.bulkPut(kept);
    await db.productBlocks.bulkDelete(emptied);
    const current = await readStoredCatalogue(db);
    await db.storedCatalogue.put({
      key: 'catalogue',
      revision: current.revision + 1,
      ids: [...current.ids.filter((id) => !removed.has(id)), ...added].sort((a, b) => a - b),
    });
  });
}

/** Products are plain data as the server sent them: the same text is the same product. */
const sameProduct = (a: Product | undefined, b: Product): boolean =>
  a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** Stores products, replacing those with the same id. */
export async function storeProducts(db: PortalDb, products: readonly Product[]): Promise<void> {
  const byBlock = new Map(inBlocks(products).map((b) => [b.block, b.products]));
  await changeBlocks(
    db,
    products.map((product) => product.id),
    (block, stored) => {
      const merged = new Map(stored.map((product) => [product.id, product]));
      const changed = (byBlock.get(block) ?? []).filter(
        (product) => !sameProduct(merged.get(product.id), product),
      );
      // Nothing new (a product page showing what the device had): no write, no new revision.
      if (changed.length === 0) return stored;
      for (const product of changed) merged.set(product.id, product);
      return [...merged.values()].sort((a, b) => a.id - b.id);
    },
  );
}

/** Removes the products of these ids. */
export async function removeProducts(db: PortalDb, ids: readonly number[]): Promise<void> {
  const gone = new Set(ids);
  await changeBlocks(db, ids, (_, stored) =>
    stored.some((product) => gone.has(product.id))
      ? stored.filter((product) => !gone.has(product.id))
      : stored,
  );
}

/** Removes every product whose id is not in `ids`, reading only the blocks that change. */
export async function keepOnlyProducts(db: PortalDb, ids: ReadonlySet<number>): Promise<void> {
  await db.transaction('rw', db.productBlocks, db.storedCatalogue, async () => {
    const stale = (await readStoredCatalogue(db)).ids.filter((id) => !ids.has(id));
    await removeProducts(db, stale);
  });
}

/** Removes every product, without reading them. */
export async function clearProducts(db: PortalDb): Promise<void> {
  await db.transaction('rw', db.productBlocks, db.storedCatalogue, async () => {
    const { revision } = await readStoredCatalogue(db);
    await db.productBlocks.clear();
    await db.storedCatalogue.put({ key: 'catalogue', revision: revision + 1, ids: [] });
  });
}
