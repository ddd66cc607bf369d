import { describe, expect, it } from 'vitest';
import type { Product } from '../../src/contracts/catalogue';
import { deriveSearchFields } from '../../src/contracts/catalogue-query';
import {
  checkLines,
  readCsv,
  readPastedLines,
  skuKey,
  type EnteredLine,
  type QuickOrderCatalogue,
} from '../../src/features/orders/quick-order-lines';
import { generatedProduct } from '../fixtures/generated-products';

/** A product of the salon's catalogue: priced and in stock unless told. */
function product(
  id: number,
  sku: string,
  fields: { stock?: number; price?: number | undefined } = {},
): Product {
  const base = generatedProduct(id, { name: `Product ${id}` });
  const stock = fields.stock ?? 20;
  const priced = 'price' in fields ? fields.price : 10;
  const { price: _price, ...rest } = base;
  return {
    ...rest,
    sku,
    ...(priced === undefined ? {} : { price: priced }),
    stock,
    stockQuantity: stock,
    inStock: stock > 0,
    ...deriveSearchFields({ ...base, sku }),
  };
}

const SHAMPOO = product(1, 'SH-HYD-1000', { stock: 12 });
const MASK = product(2, 'MA-HYD-500', { stock: 5 });
const EMPTY = product(3, 'OIL-ARG-100', { stock: 0 });
const UNPRICED = product(4, 'SP-FIX-300', { price: undefined });

const catalogue = (
  products: Product[] = [SHAMPOO, MASK, EMPTY, UNPRICED],
  noLongerSold: string[] = [],
): QuickOrderCatalogue => ({
  bySku: new Map(products.map((p) => [skuKey(p.sku), p])),
  noLongerSold: new Set(noLongerSold.map(skuKey)),
});

const line = (sku: string, quantity: string): EnteredLine => ({ sku, quantity });

describe('readPastedLines', () => {
  it('reads "SKU qty", "SKU;qty", "SKU,qty" and "SKU<tab>qty", one a line', () => {
    const read = readPastedLines(
      'SH-HYD-1000 6\nMA-HYD-500;2\r\nOIL-ARG-100,3\nSP-FIX-300\t10\n   \nHYD   4  ',
    );
    expect(read).toEqual({
      ok: true,
      lines: [
        { sku: 'SH-HYD-1000', quantity: '6', source: 1 },
        { sku: 'MA-HYD-500', quantity: '2', source: 2 },
        { sku: 'OIL-ARG-100', quantity: '3', source: 3 },
        { sku: 'SP-FIX-300', quantity: '10', source: 4 },
        { sku: 'HYD', quantity: '4', source: 6 },
      ],
    });
  });

  it('skips a header line and reads its columns, in any order', () => {
    const read = readPastedLines('Name\tQty\tSKU\nShampoo\t6\tSH-HYD-1000\nMask\t\tMA-HYD-500');
    expect(read).toEqual({
      ok: true,
      lines: [
        { sku: 'SH-HYD-1000', quantity: '6', source: 2 },
        { sku: 'MA-HYD-500', quantity: '', source: 3 },
      ],
    });
  });

  it('keeps a line it cannot read as a SKU and a quantity, marked, and one without a quantity', () => {
    const read = readPastedLines('SH-HYD-1000 6 boxes\nMA-HYD-500');
    expect(read).toEqual({
      ok: true,
      lines: [
        { sku: 'SH-HYD-1000 6 boxes', quantity: '', source: 1, unreadable: true },
        { sku: 'MA-HYD-500', quantity: '', source: 2 },
      ],
    });
  });

  it('says when there is nothing to read', () => {
    expect(readPastedLines(' \n\t\n')).toEqual({ ok: false, problem: 'empty' });
    expect(readPastedLines('sku;quantity\n')).toEqual({ ok: false, problem: 'empty' });
  });
});

describe('readCsv', () => {
  it('reads a file without a header: the SKU first, the quantity second', () => {
    expect(readCsv('\uFEFFSH-HYD-1000,6\r\nMA-HYD-500,2\r\n')).toEqual({
      ok: true,
      lines: [
        { sku: 'SH-HYD-1000', quantity: '6', source: 1 },
        { sku: 'MA-HYD-500', quantity: '2', source: 2 },
      ],
    });
  });

  it('reads the columns a header names (sku and qty), with semicolons and quoted fields', () => {
    const file = 'Product;SKU;Qty\n"Shampoo; 1 l";SH-HYD-1000;6\n"Mask ""Hydra""";"MA-HYD-500";2\n';
    expect(readCsv(file)).toEqual({
      ok: true,
      lines: [
        { sku: 'SH-HYD-1000', quantity: '6', source: 2 },
        { sku: 'MA-HYD-500', quantity: '2', source: 3 },
      ],
    });
  });

  it('takes a quantity column named quantity, and the separator of the first line', () => {
    expect(readCsv('quantity,sku\n3,SH-HYD-1000\n')).toEqual({
      ok: true,
      lines: [{ sku: 'SH-HYD-1000', quantity: '3', source: 2 }],
    });
    // A comma in a file separated by semicolons is part of its field.
    expect(readCsv('sku;qty\nSH-HYD-1000;2,5\n')).toEqual({
      ok: true,
      lines: [{ sku: 'SH-HYD-1000', quantity: '2,5', source: 2 }],
    });
  });

  it('refuses a header without a SKU or a quantity column, and a file with no lines', () => {
    expect(readCsv('sku,name\nSH-HYD-1000,Shampoo\n')).toEqual({ ok: false, problem: 'columns' });
    expect(readCsv('code;amount\n')).toEqual({ ok: false, problem: 'columns' });
    expect(readCsv('')).toEqual({ ok: false, problem: 'empty' });
    expect(readCsv('sku,qty\r\n\r\n')).toEqual({ ok: false, problem: 'empty' });
  });
});

describe('checkLines', () => {
  it('adds every line that names a product on sale, in stock, in a whole number', () => {
    const checked = checkLines(
      [line('sh-hyd-1000', ' 6 '), line('', ''), line('MA-HYD-500', '5')],
      catalogue(),
      new Map(),
    );
    expect(checked.wrong).toBe(0);
    expect(checked.filled).toBe(2);
    expect(checked.additions).toEqual([
      { productId: SHAMPOO.id, quantity: 6 },
      { productId: MASK.id, quantity: 5 },
    ]);
    expect(checked.lines[0]?.product?.id).toBe(SHAMPOO.id);
    expect(checked.lines[1]).toEqual({});
  });

  it('gives each wrong line its own problem, with the SKU and the quantity apart', () => {
    const checked = checkLines(
      [
        line('NO-SUCH-1', '2'),
        line('OLD-LINE-9', '1'),
        line('OIL-ARG-100', '1'),
        line('SP-FIX-300', '1'),
        line('', '3'),
        line('SH-HYD-1000', ''),
        line('MA-HYD-500', '1.5'),
        line('MA-HYD-500', '0'),
        line('NO-SUCH-2', 'two'),
        { sku: 'SH-HYD-1000 6 boxes', quantity: '', unreadable: true },
      ],
      catalogue(undefined, ['old-line-9']),
      new Map(),
    );
    expect(checked.lines.map(({ sku, quantity }) => [sku, quantity])).toEqual([
      ['unknownSku', undefined],
      ['notSold', undefined],
      ['outOfStock', undefined],
      ['noPrice', undefined],
      ['skuMissing', undefined],
      [undefined, 'quantityMissing'],
      [undefined, 'quantityInvalid'],
      [undefined, 'quantityInvalid'],
      ['unknownSku', 'quantityInvalid'],
      ['unreadable', undefined],
    ]);
    expect(checked.wrong).toBe(10);
  });

  it('counts what the cart holds against the stock', () => {
    const checked = checkLines(
      [line('SH-HYD-1000', '5'), line('MA-HYD-500', '1')],
      catalogue(),
      new Map([
        [SHAMPOO.id, 9],
        [MASK.id, 5],
      ]),
    );
    expect(checked.lines[0]).toMatchObject({
      quantity: 'overStock',
      stock: 12,
      inCart: 9,
      available: 3,
      asked: 5,
    });
    expect(checked.lines[1]).toMatchObject({ quantity: 'allInCart', stock: 5, available: 0 });
    expect(checked.additions).toEqual([]);
  });

  it('adds up the lines of one product and checks them against its stock together', () => {
    const within = checkLines(
      [line('SH-HYD-1000', '4'), line('MA-HYD-500', '1'), line('sh-hyd-1000', '8')],
      catalogue(),
      new Map(),
    );
    expect(within.wrong).toBe(0);
    expect(within.lines[0]?.sameAs).toEqual([2]);
    expect(within.lines[2]?.sameAs).toEqual([0]);
    expect(within.additions).toEqual([
      { productId: SHAMPOO.id, quantity: 12 },
      { productId: MASK.id, quantity: 1 },
    ]);

    const over = checkLines(
      [line('SH-HYD-1000', '10'), line('SH-HYD-1000', '3')],
      catalogue(),
      new Map(),
    );
    expect(over.lines.map((check) => check.quantity)).toEqual(['overStock', 'overStock']);
    expect(over.lines[0]).toMatchObject({ available: 12, asked: 13 });
    expect(over.additions).toEqual([]);
  });

  it('never lets a line go beyond the largest quantity of a cart line', () => {
    const big = product(9, 'BIG-1', { stock: 50_000 });
    const checked = checkLines([line('BIG-1', '10000')], catalogue([big]), new Map());
    expect(checked.lines[0]).toMatchObject({ quantity: 'overStock', available: 9999 });
  });

  it('says when the new products would not fit in a cart of 200, counting the ones it holds', () => {
    // A cart of 199 products, MASK among them: room for one new product.
    const held = new Map<number, number>([[MASK.id, 1]]);
    for (let id = 1000; held.size < 199; id += 1) held.set(id, 1);
    const lines = [line('SH-HYD-1000', '1'), line('MA-HYD-500', '1')];
    expect(checkLines(lines, catalogue(), held).tooManyProducts).toBeUndefined();
    held.set(999, 1);
    expect(checkLines(lines, catalogue(), held).tooManyProducts).toEqual({
      max: 200,
      adding: 1,
      room: 0,
    });
    // A product already in the cart takes no room of its own.
    expect(
      checkLines([line('MA-HYD-500', '1')], catalogue(), held).tooManyProducts,
    ).toBeUndefined();
  });
});
