/**
 * The back office's catalogue (docs/product.md#back-office): the limits and rules of a
 * product, a category and a picture, stated once. The server's schemas
 * (./admin-catalogue-schemas) are built from these values and the server checks
 * `validateProduct` again; the staff form checks the same as the person types. Plain values
 * only: screens import this module without the schema builder.
 */
import { LANGUAGES, type Language } from './languages';

/** Longest product or category name, in characters. */
export const MAX_PRODUCT_NAME_LENGTH = 200;
/** Longest short description (the line under the name on a product card). */
export const MAX_SHORT_DESCRIPTION_LENGTH = 500;
/** Longest description (the product page's text). */
export const MAX_DESCRIPTION_LENGTH = 5000;
/** A SKU: capital letters, digits and dashes, as printed on the maker's labels. */
export const SKU_PATTERN = '^[A-Z0-9][A-Z0-9-]{1,39}$';
export const MAX_SKU_LENGTH = 40;
/** Highest price the database keeps (numeric(10, 2)). */
export const MAX_PRICE = 99_999_999.99;
/** Most units a product may have in stock: more is a typing mistake. */
export const MAX_STOCK = 10_000_000;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 40;

/** Pictures a product may have; the first is the one the catalogue shows. */
export const MAX_PICTURES = 5;
/** Largest picture accepted, in bytes (a larger one is a 413). */
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
/** What a picture may be, recognised by its content, never by its name. */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** The status filter of the staff list of products. */
export const PRODUCT_STATES = ['active', 'inactive'] as const;
export type ProductState = (typeof PRODUCT_STATES)[number];

/** A product's texts in one language. */
export interface ProductTexts {
  name: string;
  shortDescription: string;
  description: string;
}

export const PRODUCT_TEXT_FIELDS = ['name', 'shortDescription', 'description'] as const;

/** What the staff form edits: the product's texts in every language and its facts. */
export interface ProductValues {
  sku: string;
  /** As typed: a number with at most two decimals. */
  price: string;
  stock: string;
  categoryId: string;
  tags: string[];
  texts: Record<Language, ProductTexts>;
}

/** A rule a value broke; the code is a text under `admin.catalogue.errors.`. */
export const PRODUCT_ERROR_CODES = [
  'required',
  'tooLong',
  'skuFormat',
  'skuTaken',
  'priceInvalid',
  'stockInvalid',
  'categoryRequired',
  'tooManyTags',
  'tagTooLong',
] as const;
export type ProductErrorCode = (typeof PRODUCT_ERROR_CODES)[number];

export interface ProductFieldError {
  /** `sku`, `price`, `stock`, `categoryId`, `tags`, or `<text>.<language>` (`name.en`). */
  field: string;
  code: ProductErrorCode;
}

const PRICE_SHAPE = /^\d{1,8}([.,]\d{1,2})?$/;
const STOCK_SHAPE = /^\d{1,8}$/;

/** The price as typed, as a number; null when it is no price (comma or point for decimals). */
export function priceOf(text: string): number | null {
  const trimmed = text.trim();
  if (!PRICE_SHAPE.test(trimmed)) return null;
  const price = Number(trimmed.replace(',', '.'));
  return price <= MAX_PRICE ? price : null;
}

export function stockOf(text: string): number | null {
  const trimmed = text.trim();
  if (!STOCK_SHAPE.test(trimmed)) return null;
  const stock = Number(trimmed);
  return stock <= MAX_STOCK ? stock : null;
}

/** Tags typed as one text, separated by commas: trimmed, empty ones dropped, each once. */
export function tagsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
}

const TEXT_LIMITS: Record<keyof ProductTexts, number> = {
  name: MAX_PRODUCT_NAME_LENGTH,
  shortDescription: MAX_SHORT_DESCRIPTION_LENGTH,
  description: MAX_DESCRIPTION_LENGTH,
};

/**
 * The rules of a product: a SKU in the label's shape, a price and a stock, a category, a
 * name in Romanian (the fallback of every language), every text within its length, at most
 * MAX_TAGS tags. Each field is reported once, with the first rule it broke.
 */
export function validateProduct(values: ProductValues): ProductFieldError[] {
  const errors: ProductFieldError[] = [];
  const sku = values.sku.trim();
  if (!sku) errors.push({ field: 'sku', code: 'required' });
  else if (!new RegExp(SKU_PATTERN).test(sku)) errors.push({ field: 'sku', code: 'skuFormat' });
  if (!values.price.trim()) errors.push({ field: 'price', code: 'required' });
  else if (priceOf(values.price) === null) errors.push({ field: 'price', code: 'priceInvalid' });
  if (!values.stock.trim()) errors.push({ field: 'stock', code: 'required' });
  else if (stockOf(values.stock) === null) errors.push({ field: 'stock', code: 'stockInvalid' });
  if (!/^[1-9]\d{0,9}$/.test(values.categoryId.trim())) {
    errors.push({ field: 'categoryId', code: 'categoryRequired' });
  }
  if (values.tags.length > MAX_TAGS) errors.push({ field: 'tags', code: 'tooManyTags' });
  else if (values.tags.some((tag) => tag.length > MAX_TAG_LENGTH)) {
    errors.push({ field: 'tags', code: 'tagTooLong' });
  }
  for (const language of LANGUAGES) {
    for (const field of PRODUCT_TEXT_FIELDS) {
      const value = values.texts[language][field].trim();
      const name = `${field}.${language}`;
      if (field === 'name' && language === 'ro' && !value) {
        errors.push({ field: name, code: 'required' });
      } else if (value.length > TEXT_LIMITS[field]) {
        errors.push({ field: name, code: 'tooLong' });
      }
    }
  }
  return errors;
}

/** A category's names: Romanian required (the fallback), the others optional. */
export function validateCategoryNames(names: Record<Language, string>): ProductFieldError[] {
  return LANGUAGES.flatMap((language): ProductFieldError[] => {
    const value = names[language].trim();
    if (language === 'ro' && !value) return [{ field: `name.${language}`, code: 'required' }];
    if (value.length > MAX_PRODUCT_NAME_LENGTH) {
      return [{ field: `name.${language}`, code: 'tooLong' }];
    }
    return [];
  });
}

export type {
  AdminCategory,
  AdminCategoryNames,
  AdminProduct,
  AdminProductInput,
  AdminProductEdit,
  AdminProductPage,
  AdminProductQuery,
} from './admin-catalogue-schemas';
