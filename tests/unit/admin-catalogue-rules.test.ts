import { describe, expect, it } from 'vitest';
import {
  priceOf,
  productEdit,
  tagsOf,
  type AdminProduct,
  type AdminProductInput,
  type ProductValues,
} from '../../src/contracts/admin-catalogue';
import { validateCategoryNames, validateProduct } from '../../src/contracts/form-schemas';
import { pictureFiles, pictureSources } from '../../src/contracts/product-pictures';
import { readProductsUrl, writeProductsUrl } from '../../src/features/admin/product-urls';

const blank = { name: '', shortDescription: '', description: '' };
const values = (fields: Partial<ProductValues> = {}): ProductValues => ({
  sku: 'FP-SH-001',
  ean: '',
  price: '12.50',
  stock: '4',
  categoryId: '2',
  tags: [],
  texts: { ro: { ...blank, name: 'Șampon' }, en: blank, it: blank },
  ...fields,
});

describe('the product rules the staff form and the server share', () => {
  it('accept a product with a Romanian name and nothing else translated', () => {
    expect(validateProduct(values())).toEqual([]);
  });

  it('name each broken field once, with the first rule it broke', () => {
    const errors = validateProduct(
      values({
        sku: 'fp sh',
        price: '12.505',
        stock: '-1',
        categoryId: '',
        texts: { ro: blank, en: { ...blank, name: 'x'.repeat(201) }, it: blank },
      }),
    );
    expect(errors).toEqual([
      { field: 'sku', code: 'skuFormat' },
      { field: 'price', code: 'priceInvalid' },
      { field: 'stock', code: 'stockInvalid' },
      { field: 'categoryId', code: 'categoryRequired' },
      { field: 'name.ro', code: 'required' },
      { field: 'name.en', code: 'tooLong' },
    ]);
  });

  it('count the tags before measuring each, and take a description up to its length', () => {
    const many = Array.from({ length: 21 }, (_, i) => `tag${i}`);
    expect(validateProduct(values({ tags: many }))).toEqual([
      { field: 'tags', code: 'tooManyTags' },
    ]);
    expect(validateProduct(values({ tags: [...many.slice(1), 'x'.repeat(41)] }))).toEqual([
      { field: 'tags', code: 'tooManyTags' },
    ]);
    expect(validateProduct(values({ tags: ['argan', 'x'.repeat(41)] }))).toEqual([
      { field: 'tags', code: 'tagTooLong' },
    ]);
    expect(validateProduct(values({ tags: many.slice(1) }))).toEqual([]);
    const texts = (description: string) => ({
      ro: { name: 'Șampon', shortDescription: '', description },
      en: blank,
      it: blank,
    });
    expect(validateProduct(values({ texts: texts(` ${'x'.repeat(5000)} `) }))).toEqual([]);
    expect(validateProduct(values({ texts: texts('x'.repeat(5001)) }))).toEqual([
      { field: 'description.ro', code: 'tooLong' },
    ]);
  });

  it('take no EAN, or a valid EAN-13 typed with or without spaces between its groups', () => {
    expect(validateProduct(values({ ean: '  ' }))).toEqual([]);
    expect(validateProduct(values({ ean: '5901234123457' }))).toEqual([]);
    expect(validateProduct(values({ ean: ' 5 901234 123457 ' }))).toEqual([]);
    for (const ean of ['5901234123458', '590123412345', '59012341234570', 'ABCDEFGHIJKLM']) {
      expect(validateProduct(values({ ean }))).toEqual([{ field: 'ean', code: 'eanInvalid' }]);
    }
  });

  it('read a price typed with a comma or a point, and tags separated by commas', () => {
    expect([priceOf('12,5'), priceOf('12.50'), priceOf('1e3'), priceOf('')]).toEqual([
      12.5,
      12.5,
      null,
      null,
    ]);
    expect(tagsOf(' vegan, , argan,vegan ')).toEqual(['vegan', 'argan']);
  });

  it('want a Romanian name for a category', () => {
    expect(validateCategoryNames({ ro: ' ', en: 'Oils', it: '' })).toEqual([
      { field: 'name.ro', code: 'required' },
    ]);
  });
});

describe('uploaded pictures', () => {
  const path = `/uploads/products/pic-${'a'.repeat(32)}-800.webp`;

  it('are offered at every width kept, the one nearest the shown size as src', () => {
    expect(pictureSources(path, 400)).toEqual({
      src: path.replace('-800', '-400'),
      srcSet: ['160', '400', '800'].map((w) => `${path.replace('-800', `-${w}`)} ${w}w`).join(', '),
    });
    expect(pictureFiles(path)).toHaveLength(3);
  });

  it('leave a demo picture as it is', () => {
    expect(pictureSources('/uploads/products/x-front.svg', 400)).toEqual({
      src: '/uploads/products/x-front.svg',
    });
    expect(pictureFiles('/uploads/products/x-front.svg')).toEqual([
      '/uploads/products/x-front.svg',
    ]);
  });
});

describe('the staff list of products in the address', () => {
  it('keeps its filters through the address, and drops what the server would refuse', () => {
    const address = writeProductsUrl({
      search: 'argan',
      categoryId: 3,
      status: 'inactive',
      lowStock: true,
      page: 2,
    });
    expect(address).toBe(
      '/admin/products?search=argan&categoryId=3&status=inactive&stock=low&page=2',
    );
    expect(readProductsUrl(new URLSearchParams(address.split('?')[1]))).toEqual({
      search: 'argan',
      categoryId: 3,
      status: 'inactive',
      lowStock: true,
      page: 2,
    });
    expect(readProductsUrl(new URLSearchParams('status=gone&categoryId=-1&page=0'))).toEqual({
      search: '',
      categoryId: undefined,
      status: undefined,
      lowStock: false,
      page: 1,
    });
  });
});

describe('a save of the staff’s product form', () => {
  const texts = { ro: { ...blank, name: 'Șampon' }, en: blank, it: blank };
  const asTyped = (fields: Partial<AdminProductInput> = {}): AdminProductInput => ({
    sku: 'FP-SH-001',
    ean: null,
    price: 12.5,
    stock: 50,
    categoryId: 2,
    tags: ['curly'],
    texts,
    ...fields,
  });
  /** The product as the form loaded it: what the clerk sees before typing anything. */
  const loaded = { id: 7, ...asTyped() } as unknown as AdminProduct;

  it('sends only what the clerk changed, never the stock it was loaded with', () => {
    const italian = { ...texts, it: { ...blank, name: 'Shampoo' } };
    // Of the texts, only the one typed: another clerk may be editing another.
    expect(productEdit(asTyped({ texts: italian }), loaded)).toEqual({
      texts: { it: { name: 'Shampoo' } },
    });
    expect(productEdit(asTyped({ price: 13 }), loaded)).toEqual({ price: 13 });
    // The stock is sent when the clerk typed another.
    expect(productEdit(asTyped({ stock: 60 }), loaded)).toEqual({ stock: 60 });
    expect(productEdit(asTyped({ ean: '5941234567890', tags: [] }), loaded)).toEqual({
      ean: '5941234567890',
      tags: [],
    });
  });

  it('sends nothing when nothing changed', () => {
    expect(productEdit(asTyped(), loaded)).toEqual({});
  });
});
