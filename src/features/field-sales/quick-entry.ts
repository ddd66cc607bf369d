/**
 * Quick entry on a rep's cart (docs/product.md#field-sales): finding a product in the
 * device's catalogue by what the rep types or scans — an exact barcode or SKU, or words of
 * its name — and how many of it may go into the cart (lib/sync/catalogue-lookup).
 */
import { eanOf, isValidEan13 } from '../../contracts/barcodes';
import type { Product } from '../../contracts/catalogue';
import { db, type PortalDb } from '../../lib/db/db';
import {
  findExact,
  sameSku,
  suggestProducts as suggest,
  SUGGESTION_LIMIT,
  type ExactMatch,
} from '../../lib/sync/catalogue-lookup';

export { quantityToAdd, SUGGESTION_LIMIT } from '../../lib/sync/catalogue-lookup';
export type { AddCheck, AddProblem } from '../../lib/sync/catalogue-lookup';

/**
 * The product whose code is exactly `typed`: its EAN-13 (spaces ignored, as printed under
 * the barcode), else its SKU (case and accents ignored).
 */
const sameCode: ExactMatch = (products, typed) => {
  const ean = eanOf(typed);
  const byEan = isValidEan13(ean) ? products.find((product) => product.ean === ean) : undefined;
  return byEan ?? sameSku(products, typed);
};

/** The product of the device's catalogue with this exact barcode or SKU, if any. */
export const findByCode = (typed: string, from: PortalDb = db): Promise<Product | undefined> =>
  findExact(typed, sameCode, from);

/**
 * What the field suggests for `typed`: the product of that exact barcode or SKU first, then
 * those whose name, SKU, descriptions or barcode hold every word typed, by name.
 */
export const suggestProducts = (
  typed: string,
  limit = SUGGESTION_LIMIT,
  from: PortalDb = db,
): Promise<Product[]> => suggest(typed, limit, from, sameCode);
