/**
 * The catalogue query answered on the device, from the mirror. It must give exactly what
 * the server gives for the same query: the folding, matching and ordering all come from
 * src/contracts/catalogue.ts, and one table of queries holds both sides to it.
 */
import {
  compareProducts,
  matchesSearch,
  paginate,
  searchTerms,
  type ProductPage,
  type ProductQuery,
} from '../../contracts/catalogue';
import type { PortalDb } from '../db/db';

export async function queryLocalCatalogue(db: PortalDb, query: ProductQuery): Promise<ProductPage> {
  const terms = searchTerms(query.search);
  let collection =
    query.categoryId === undefined
      ? db.products.toCollection()
      : db.products.where('categoryId').equals(query.categoryId);
  if (terms.length > 0) collection = collection.filter((p) => matchesSearch(p.searchText, terms));
  const matches = await collection.toArray();
  matches.sort(compareProducts(query.sortBy));
  const start = (query.page - 1) * query.limit;
  return {
    products: matches.slice(start, start + query.limit),
    pagination: paginate(matches.length, query.page, query.limit),
  };
}
