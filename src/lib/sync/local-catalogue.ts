/**
 * The catalogue query answered on the device, from the mirror. It must give exactly what
 * the server gives for the same query: the folding, matching and ordering all come from
 * src/contracts/catalogue.ts, and one table of queries holds both sides to it.
 *
 * With a whole catalogue on a tablet (10,000 products), reading and sorting every product
 * for each keystroke is too slow: the products are kept in memory until the mirror
 * changes, sorted in an order the first time a query asks for it. A query then only filters.
 */
import {
  type Product,
  type ProductPage,
  type ProductQuery,
  type SortBy,
} from '../../contracts/catalogue';
import {
  compareProducts,
  matchesSearch,
  paginate,
  searchTerms,
} from '../../contracts/catalogue-query';
import type { PortalDb } from '../db/db';
import { readAllProducts, readStoredCatalogue } from '../db/stored-products';

interface SortedCatalogue {
  revision: string;
  all: readonly Product[];
  /** The products in each order asked for so far. */
  bySort: Partial<Record<SortBy, Product[]>>;
}

const memory = new WeakMap<PortalDb, SortedCatalogue>();

/**
 * What identifies the mirror's content: the products' revision, which moves on with every
 * write, and the refresh (time and viewer). Reading these also makes a live query re-run
 * when the mirror changes, in this tab or another.
 */
async function revisionOf(db: PortalDb): Promise<string> {
  const [stored, state] = await Promise.all([
    readStoredCatalogue(db),
    db.mirrorState.get('catalogue'),
  ]);
  return `${stored.revision}|${state?.syncedAt ?? ''}|${state?.viewer ?? ''}`;
}

async function sortedCatalogue(db: PortalDb): Promise<SortedCatalogue> {
  const revision = await revisionOf(db);
  const cached = memory.get(db);
  if (cached?.revision === revision) return cached;
  const fresh = { revision, all: await readAllProducts(db), bySort: {} };
  memory.set(db, fresh);
  return fresh;
}

function inOrder(catalogue: SortedCatalogue, sortBy: SortBy): Product[] {
  return (catalogue.bySort[sortBy] ??= [...catalogue.all].sort(compareProducts(sortBy)));
}

/**
 * The mirror has just received the whole catalogue: keep it in memory now, so that the
 * first query after a full refresh does not read every product back from the device.
 * Called inside the transaction that completes the refresh (products and mirror state), so
 * that the revision is that of what the transaction writes; when the device holds other
 * products than these, nothing is kept and the next query reads the device as usual.
 */
export async function adoptMirroredCatalogue(
  db: PortalDb,
  products: readonly Product[],
): Promise<void> {
  const [stored, revision] = await Promise.all([readStoredCatalogue(db), revisionOf(db)]);
  if (stored.ids.length !== products.length) return;
  memory.set(db, { revision, all: products, bySort: {} });
}

export async function queryLocalCatalogue(db: PortalDb, query: ProductQuery): Promise<ProductPage> {
  const terms = searchTerms(query.search);
  const matches = inOrder(await sortedCatalogue(db), query.sortBy).filter(
    (p) =>
      (query.categoryId === undefined || p.categoryId === query.categoryId) &&
      (terms.length === 0 || matchesSearch(p.searchText, terms)),
  );
  const start = (query.page - 1) * query.limit;
  return {
    products: matches.slice(start, start + query.limit),
    pagination: paginate(matches.length, query.page, query.limit),
  };
}
