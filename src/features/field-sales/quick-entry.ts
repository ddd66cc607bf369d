/**
 * Quick entry on a rep's cart (docs/product.md#field-sales): finding a product in the
 * device's catalogue by what the rep types or scans — an exact barcode or SKU, or words of
 * its name — and how many of it may go into the cart.
 */
import { eanOf, isValidEan13 } from '../../contracts/barcodes';
import type { Product } from '../../contracts/catalogue';
import { foldText, searchTerms } from '../../contracts/catalogue-query';
import { MAX_LINE_QUANTITY } from '../../contracts/orders';
import { db, type PortalDb } from '../../lib/db/db';
import { loadSyncEngine } from '../../lib/sync/engine-loader';

/** Suggestions listed under the field: a short list the rep can read at a glance. */
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

/**
 * The product whose code is exactly `typed`: its EAN-13 (spaces ignored, as printed under
 * the barcode), else its SKU (case and accents ignored).
 */
function exactIn(products: readonly Product[], typed: string): Product | undefined {
  const ean = eanOf(typed);
  const byEan = isValidEan13(ean) ? products.find((product) => product.ean === ean) : undefined;
  const sku = foldText(typed);
  return byEan ?? products.find((product) => foldText(product.sku) === sku);
}

/** The product of the device's catalogue with this exact barcode or SKU, if any. */
export async function findByCode(typed: string, from: PortalDb = db): Promise<Product | undefined> {
  if (searchTerms(typed).length === 0) return undefined;
  return exactIn(await matching(typed, from), typed);
}

/**
 * What the field suggests for `typed`: the product of that exact code first, then those
 * whose name, SKU, descriptions or barcode hold every word typed, by name.
 */
export async function suggestProducts(
  typed: string,
  limit = SUGGESTION_LIMIT,
  from: PortalDb = db,
): Promise<Product[]> {
  if (searchTerms(typed).length === 0) return [];
  const products = await matching(typed, from);
  const exact = exactIn(products, typed);
  const rest = exact ? products.filter((product) => product.id !== exact.id) : products;
  return [...(exact ? [exact] : []), ...rest].slice(0, limit);
}

/** Why a product cannot go into the cart now. */
export type AddProblem = 'noPrice' | 'outOfStock' | 'allInCart';

export type AddCheck =
  | {
      ok: true;
      /** What goes into the cart. */
      quantity: number;
      /** Fewer than asked: the rest of the stock. */
      limited: boolean;
    }
  | { ok: false; problem: AddProblem };

/**
 * How many of `product` may be added when the cart holds `inCart` and the rep asks for
 * `wanted`: never beyond the stock the device knows of (the server refuses a line above
 * its stock), nor without a price to show the customer.
 */
export function quantityToAdd(product: Product, inCart: number, wanted: number): AddCheck {
  if (product.price === undefined) return { ok: false, problem: 'noPrice' };
  if (product.stock <= 0) return { ok: false, problem: 'outOfStock' };
  const asked = Number.isFinite(wanted) ? Math.max(Math.floor(wanted), 1) : 1;
  const left = Math.min(product.stock, MAX_LINE_QUANTITY) - inCart;
  if (left <= 0) return { ok: false, problem: 'allInCart' };
  return { ok: true, quantity: Math.min(asked, left), limited: asked > left };
}
