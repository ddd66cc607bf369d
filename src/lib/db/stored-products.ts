/**
 * The products on the device. They are kept in blocks of consecutive ids, one record per
 * block, not one record per product: IndexedDB pays mostly per record written, so 10,000
 * products written one by one take most of a second in Chromium, and as 100 blocks a few
 * tens of milliseconds. Every read and write of products goes through this module.
 *
 * Each write also moves the catalogue's revision on, in the same transaction: a reader
 * that keeps the products in memory (the catalogue query) knows from that one small record
 * whether the products changed, in this tab or another.
 */
import type { Product } from '../../contracts/catalogue';
import type { PortalDb } from './db';

/** Products per block: block n holds ids n×100 … n×100+99. */
export const BLOCK_SIZE = 100;

/** One block of products, in id order. */
export interface ProductBlock {
  block: number;
  products: Product[];
}

/** What the device holds, under the key 'catalogue'. */
export interface StoredCatalogue {
  key: 'catalogue';
  /** Moves on with every write of products: two reads with the same revision saw the same. */
  revision: number;
  /** Products kept. */
  count: number;
}

const blockOf = (id: number): number => Math.floor(id / BLOCK_SIZE);

/** Products grouped by block, each block in id order. */
export function inBlocks(products: readonly Product[]): ProductBlock[] {
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
  const block = await db.productBlocks.get(blockOf(id));
  return block?.products.find((product) => product.id === id);
}

/** The products of these ids the device has, by id. */
export async function readProducts(
  db: PortalDb,
  ids: readonly number[],
): Promise<Map<number, Product>> {
  const wanted = new Set(ids);
  const blocks = await db.productBlocks.bulkGet([...new Set(ids.map(blockOf))]);
  return new Map(
    blocks.flatMap((block) =>
      (block?.products ?? []).flatMap((p) => (wanted.has(p.id) ? [[p.id, p] as const] : [])),
    ),
  );
}

/** Every product on the device, in id order. */
export async function readAllProducts(db: PortalDb): Promise<Product[]> {
  return (await db.productBlocks.toArray()).flatMap((block) => block.products);
}

/** The revision and count of the products on the device (both 0 before the first write). */
export async function readStoredCatalogue(db: PortalDb): Promise<StoredCatalogue> {
  return (await db.storedCatalogue.get('catalogue')) ?? { key: 'catalogue', revision: 0, count: 0 };
}

/**
 * Changes the blocks holding `ids` (all blocks when `ids` is 'all'): `change` gets each
 * block's products (in id order; none for a block not stored yet) and returns what it
 * keeps. Blocks left empty are deleted. In one transaction with the revision and count,
 * joining the caller's transaction if it has one over these tables.
 */
async function changeBlocks(
  db: PortalDb,
  ids: readonly number[] | 'all',
  change: (block: number, products: Product[]) => Product[],
): Promise<void> {
  await db.transaction('rw', db.productBlocks, db.storedCatalogue, async () => {
    const blocks =
      ids === 'all'
        ? await db.productBlocks.toArray()
        : await (async () => {
            const keys = [...new Set(ids.map(blockOf))];
            const stored = await db.productBlocks.bulkGet(keys);
            return keys.map((block, i) => stored[i] ?? { block, products: [] });
          })();
    const kept: ProductBlock[] = [];
    const emptied: number[] = [];
    let difference = 0;
    for (const { block, products } of blocks) {
      const next = change(block, products);
      if (next === products) continue;
      difference += next.length - products.length;
      if (next.length > 0) kept.push({ block, products: next });
      else if (products.length > 0) emptied.push(block);
    }
    if (kept.length === 0 && emptied.length === 0) return;
    await db.productBlocks.bulkPut(kept);
    await db.productBlocks.bulkDelete(emptied);
    const current = await readStoredCatalogue(db);
    await db.storedCatalogue.put({
      key: 'catalogue',
      revision: current.revision + 1,
      count: current.count + difference,
    });
  });
}

/** Stores products, replacing those with the same id. */
export async function storeProducts(db: PortalDb, products: readonly Product[]): Promise<void> {
  if (products.length === 0) return;
  const byBlock = new Map(inBlocks(products).map((b) => [b.block, b.products]));
  await changeBlocks(
    db,
    products.map((product) => product.id),
    (block, stored) => {
      const merged = new Map(stored.map((product) => [product.id, product]));
      for (const product of byBlock.get(block) ?? []) merged.set(product.id, product);
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

/** Removes every product whose id is not in `ids`. */
export async function keepOnlyProducts(db: PortalDb, ids: ReadonlySet<number>): Promise<void> {
  await changeBlocks(db, 'all', (_, stored) =>
    stored.every((product) => ids.has(product.id))
      ? stored
      : stored.filter((product) => ids.has(product.id)),
  );
}

/** Removes every product. */
export async function clearProducts(db: PortalDb): Promise<void> {
  await keepOnlyProducts(db, new Set());
}
