/**
 * The catalogue query answered on the device, from the mirror. It must give exactly what
 * the server gives for the same query: the folding, matching and ordering all come from
 * src/contracts/catalogue.ts, and one table of queries holds both sides to it.
 *
 * With a whole catalogue on a tablet (10,000 products), reading and sorting every product
 * for each keystroke is too slow: the products are kept in memory, already sorted in each
 * of the three orders, until the mirror changes. A query then only filters.
 */
import {
  compareProducts,
  matchesSearch,
  paginate,
  searchTerms,
  SORT_OPTIONS,
  type Product,
  type ProductPage,
  type ProductQuery,
  type SortBy,
} from '../../contracts/catalogue';
import type { PortalDb } from '../db/db';

interface SortedCatalogue {
  revision: string;
  bySort: Record<SortBy, Product[]>;
}

const memory = new WeakMap<PortalDb, SortedCatalogue>();

/**
 * What identifies the mirror's content: products are added or removed (count), changed
 * (the newest updatedAt), or re-fetched for another viewer (the refresh time). Reading
 * these also makes a live query re-run when the mirror changes, in this tab or another.
 */
async function revisionOf(db: PortalDb): Promise<string> {
  const [count, newest, state] = await Promise.all([
    db.products.count(),
    db.products.orderBy('updatedAt').last(),
    db.mirrorState.get('catalogue'),
  ]);
  return `${count}|${newest?.updatedAt ?? ''}|${newest?.id ?? ''}|${state?.syncedAt ?? ''}|${state?.viewer ?? ''}`;
}

async function sortedCatalogue(db: PortalDb): Promise<SortedCatalogue> {
  const revision = await revisionOf(db);
  const cached = memory.get(db);
  if (cached?.revision === revision) return cached;
  const all = await db.products.toArray();
  const bySort = Object.fromEntries(
    SORT_OPTIONS.map((sortBy) => [sortBy, [...all].sort(compareProducts(sortBy))]),
  ) as Record<SortBy, Product[]>;
  const fresh = { revision, bySort };
  memory.set(db, fresh);
  return fresh;
}

export async function queryLocalCatalogue(db: PortalDb, query: ProductQuery): Promise<ProductPage> {
  const terms = searchTerms(query.search);
  const { bySort } = await sortedCatalogue(db);
  const matches = bySort[query.sortBy].filter(
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
