import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { withCheckDigit } from '../../src/contracts/barcodes';
import type { Product } from '../../src/contracts/catalogue';
import { deriveSearchFields } from '../../src/contracts/catalogue-query';
import { MAX_LINE_QUANTITY } from '../../src/contracts/orders';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import { storeProducts } from '../../src/lib/db/stored-products';
import {
  findByCode,
  quantityToAdd,
  suggestProducts,
} from '../../src/features/field-sales/quick-entry';
import { generatedProduct } from '../fixtures/generated-products';

/** A product of the rep's catalogue: priced, in stock, with a barcode unless told. */
function product(
  id: number,
  fields: {
    name?: string;
    sku?: string;
    ean?: string | null;
    stock?: number;
    price?: number | undefined;
  } = {},
): Product {
  const base = generatedProduct(id, { name: fields.name ?? `Product ${id}` });
  const texts = {
    name: base.name,
    sku: fields.sku ?? base.sku,
    ean:
      fields.ean !== undefined
        ? fields.ean
        : withCheckDigit(`59412340${String(id).padStart(4, '0')}`),
    shortDescription: '',
    description: '',
  };
  const stock = fields.stock ?? 20;
  return {
    ...base,
    ...texts,
    ...('price' in fields
      ? fields.price === undefined
        ? {}
        : { price: fields.price }
      : { price: 10 }),
    stock,
    stockQuantity: stock,
    inStock: stock > 0,
    ...deriveSearchFields(texts),
  };
}

const SHAMPOO = product(1, { name: 'Hydra Balance Shampoo 1000 ml', sku: 'SH-HYD-1000' });
const SMALL_SHAMPOO = product(2, { name: 'Hydra Balance Shampoo 250 ml', sku: 'SH-HYD-250' });
const MASK = product(3, { name: 'Hydra Balance Mask 500 ml', sku: 'MA-HYD-500' });
/** Its SKU is part of the others' names and SKUs: an exact match must still win. */
const HYD = product(4, { name: 'Zinc Hydration Drops', sku: 'HYD', ean: null });

const opened: PortalDb[] = [];

async function catalogue(products = [SHAMPOO, SMALL_SHAMPOO, MASK, HYD]): Promise<PortalDb> {
  const db = createPortalDb(`quick-entry-${Math.random()}`);
  opened.push(db);
  await storeProducts(db, products);
  return db;
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

describe('findByCode', () => {
  it('finds a product by its EAN-13, also typed in the groups printed under the barcode', async () => {
    const db = await catalogue();
    const ean = MASK.ean!;
    expect((await findByCode(ean, db))?.id).toBe(MASK.id);
    expect(
      (await findByCode(` ${ean.slice(0, 1)} ${ean.slice(1, 7)} ${ean.slice(7)} `, db))?.id,
    ).toBe(MASK.id);
  });

  it('finds a product by its exact SKU, whatever the case', async () => {
    const db = await catalogue();
    expect((await findByCode('sh-hyd-250', db))?.id).toBe(SMALL_SHAMPOO.id);
    expect((await findByCode('hyd', db))?.id).toBe(HYD.id);
  });

  it('finds nothing for part of a code, a name, an unknown barcode or nothing typed', async () => {
    const db = await catalogue();
    expect(await findByCode('SH-HYD', db)).toBeUndefined();
    expect(await findByCode('Hydra Balance Mask 500 ml', db)).toBeUndefined();
    expect(await findByCode(withCheckDigit('400638133393'), db)).toBeUndefined();
    expect(await findByCode('   ', db)).toBeUndefined();
  });

  it('does not take 13 digits with a wrong check digit for a barcode', async () => {
    const wrong = `${MASK.ean!.slice(0, 12)}${(Number(MASK.ean![12]) + 1) % 10}`;
    const db = await catalogue([MASK, product(5, { sku: wrong, ean: null })]);
    expect((await findByCode(wrong, db))?.id).toBe(5);
  });
});

describe('suggestProducts', () => {
  it('suggests the products holding every word typed, by name', async () => {
    const db = await catalogue();
    expect((await suggestProducts('hydra 1000', undefined, db)).map((p) => p.sku)).toEqual([
      'SH-HYD-1000',
    ]);
    expect((await suggestProducts('balance hydra', undefined, db)).map((p) => p.sku)).toEqual([
      'MA-HYD-500',
      'SH-HYD-1000',
      'SH-HYD-250',
    ]);
  });

  it('lists the product of that exact code first', async () => {
    const db = await catalogue();
    expect((await suggestProducts('HYD', undefined, db)).map((p) => p.sku)).toEqual([
      'HYD',
      'MA-HYD-500',
      'SH-HYD-1000',
      'SH-HYD-250',
    ]);
  });

  it('lists at most as many as asked, and none for nothing typed', async () => {
    const db = await catalogue();
    expect(await suggestProducts('hyd', 2, db)).toHaveLength(2);
    expect(await suggestProducts(' ', undefined, db)).toEqual([]);
  });
});

describe('quantityToAdd', () => {
  it('adds what is asked while the stock allows it', () => {
    expect(quantityToAdd(product(1, { stock: 10 }), 2, 3)).toEqual({
      ok: true,
      quantity: 3,
      limited: false,
    });
  });

  it('adds what is left of the stock, and says it is less than asked', () => {
    expect(quantityToAdd(product(1, { stock: 10 }), 8, 5)).toEqual({
      ok: true,
      quantity: 2,
      limited: true,
    });
  });

  it('refuses a product out of stock, without a price, or all of whose stock is in the cart', () => {
    expect(quantityToAdd(product(1, { stock: 0 }), 0, 1)).toEqual({
      ok: false,
      problem: 'outOfStock',
    });
    expect(quantityToAdd(product(1, { price: undefined }), 0, 1)).toEqual({
      ok: false,
      problem: 'noPrice',
    });
    expect(quantityToAdd(product(1, { stock: 4 }), 4, 1)).toEqual({
      ok: false,
      problem: 'allInCart',
    });
  });

  it('takes a quantity that is no whole number as one, and never more than a line may hold', () => {
    expect(quantityToAdd(product(1), 0, Number.NaN)).toMatchObject({ quantity: 1 });
    expect(quantityToAdd(product(1), 0, 2.7)).toMatchObject({ quantity: 2 });
    expect(quantityToAdd(product(1), 0, -3)).toMatchObject({ quantity: 1 });
    expect(quantityToAdd(product(1, { stock: 50_000 }), 0, 20_000)).toEqual({
      ok: true,
      quantity: MAX_LINE_QUANTITY,
      limited: true,
    });
  });
});
