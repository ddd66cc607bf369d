/**
 * Finding products in the device's catalogue by what a user types — an exact code, or
 * words of its name — and how many of one may go into a cart. A rep's quick entry (which
 * adds barcodes to the codes it knows), a salon's quick order and "Order again" all read
 * the catalogue through here.
 */
import type { Product } from '../../contracts/catalogue';
import { foldText, searchTerms } from '../../contracts/catalogue-query';
import { db, type PortalDb } from '../db/db';
import { loadSyncEngine } from './engine-loader';

// How many may go into a cart: the cart's rule, which the sync engine applies too.
export { quantityToAdd, type AddCheck, type AddProblem } from '../../contracts/order-lines';

/** Suggestions listed under a field: a short list a user can read at a glance. */
export const SUGGESTION_LIMIT = 8;

/** Every product of the device's catalogue matching each word typed, by name. */
async function matching(typed: string, from: PortalDb): Promise<Product[]> {
  // The device's catalogue search comes with the sync engine, loaded once signed in.
  const { queryLocalCatalogue } = await loadSyncEngine();
  const { products } = await queryLocalCatalogue(from, {
    search: typed,
    sortBy: 'name',
    page: 1,
    limit: Number.MAX_SAFE_INTEGER,
  });
  return products;
}

/** A SKU as the lookups compare it: case and accents ignored. */
const skuKey = (sku: string): string => foldText(sku);

/** Finds, among the products matching what was typed, the one whose code it is exactly. */
export type ExactMatch = (products: readonly Product[], typed: string) => Product | undefined;

/** The product whose SKU is exactly `typed` (case and accents ignored). */
export const sameSku: ExactMatch = (products, typed) => {
  const sku = skuKey(typed);
  return products.find((product) => skuKey(product.sku) === sku);
};

/** The product of the device's catalogue whose code is exactly `typed`, if any. */
export async function findExact(
  typed: string,
  exact: ExactMatch = sameSku,
  from: PortalDb = db,
): Promise<Product | undefined> {
  if (searchTerms(typed).length === 0) return undefined;
  return exact(await matching(typed, from), typed);
}

/** Every product of the device's catalogue, by its SKU folded as foldText folds it. */
export async function productsBySku(from: PortalDb = db): Promise<Map<string, Product>> {
  const products = await matching('', from);
  return new Map(products.map((product) => [skuKey(product.sku), product]));
}

/**
 * What a field suggests for `typed`: the product of that exact code first, then those
 * whose name, SKU, descriptions or barcode hold every word typed, by name.
 */
export async function suggestProducts(
  typed: string,
  limit = SUGGESTION_LIMIT,
  from: PortalDb = db,
  exact: ExactMatch = sameSku,
): Promise<Product[]> {
  if (searchTerms(typed).length === 0) return [];
  const products = await matching(typed, from);
  const first = exact(products, typed);
  const rest = first ? products.filter((product) => product.id !== first.id) : products;
  return [...(first ? [first] : []), ...rest].slice(0, limit);
}
