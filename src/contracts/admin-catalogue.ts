/**
 * The back office's catalogue (docs/product.md#back-office): the limits and rules of a
 * product, a category and a picture, stated once. The server's schemas
 * (./admin-catalogue-schemas) are built from these values, and so are the rules the staff
 * form and the server both check (`validateProduct` in ./form-schemas). Plain values only:
 * screens import this module without the schema builder.
 */
import type { AdminProduct, AdminProductEdit, AdminProductInput } from './admin-catalogue-schemas';
import type { Language } from './languages';

/** Longest product or category name, in characters. */
export const MAX_PRODUCT_NAME_LENGTH = 200;
/** Longest short description (the line under the name on a product card). */
export const MAX_SHORT_DESCRIPTION_LENGTH = 500;
/** Longest description (the product page's text). */
export const MAX_DESCRIPTION_LENGTH = 5000;
/** A SKU: capital letters, digits and dashes, as printed on the maker's labels. */
export const SKU_PATTERN = '^[A-Z0-9][A-Z0-9-]{1,39}$';
export const SKU_SHAPE = new RegExp(SKU_PATTERN);
/** A category chosen: the id of one, as the form's select gives it. */
export const CATEGORY_ID_SHAPE = /^[1-9]\d{0,9}$/;
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
  /** The EAN-13 barcode as typed; empty when the product has none (./barcodes). */
  ean: string;
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
  'eanInvalid',
  'eanTaken',
  'priceInvalid',
  'stockInvalid',
  'categoryRequired',
  'tooManyTags',
  'tagTooLong',
] as const;
export type ProductErrorCode = (typeof PRODUCT_ERROR_CODES)[number];

export interface ProductFieldError {
  /**
   * `sku`, `ean`, `price`, `stock`, `categoryId`, `tags`, or `<text>.<language>`
   * (`name.en`).
   */
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

/**
 * What a save of the staff's product form sends (`PATCH`, docs/api.md#back-office): the
 * fields that differ from the product as it was loaded or last saved, and no other, so
 * that a save never puts back a value that changed meanwhile elsewhere. The stock above
 * all: every order and every cancellation moves it.
 */
export function productEdit(input: AdminProductInput, product: AdminProduct): AdminProductEdit {
  const before: AdminProductInput = {
    sku: product.sku,
    ean: product.ean ?? null,
    price: product.price,
    stock: product.stock,
    categoryId: product.categoryId,
    tags: product.tags,
    texts: product.texts,
  };
  const fields = Object.keys(input) as (keyof AdminProductInput)[];
  const edit: AdminProductEdit = Object.fromEntries(
    fields
      .filter((field) => field !== 'active' && field !== 'texts')
      .filter((field) => JSON.stringify(input[field]) !== JSON.stringify(before[field]))
      .map((field) => [field, input[field]]),
  );
  // Each text on its own: another staff member's edit of another text is kept.
  const texts: NonNullable<AdminProductEdit['texts']> = {};
  for (const language of Object.keys(input.texts) as Language[]) {
    for (const field of PRODUCT_TEXT_FIELDS) {
      const text = input.texts[language][field];
      if (text !== before.texts[language][field]) (texts[language] ??= {})[field] = text;
    }
  }
  if (Object.keys(texts).length > 0) edit.texts = texts;
  return edit;
}

/** A product's texts with an edit's texts put in (see productEdit). */
export function withEditedTexts(
  texts: Record<Language, ProductTexts>,
  edit: NonNullable<AdminProductEdit['texts']>,
): Record<Language, ProductTexts> {
  return {
    ro: { ...texts.ro, ...edit.ro },
    en: { ...texts.en, ...edit.en },
    it: { ...texts.it, ...edit.it },
  };
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

/** The longest text of each kind, in characters. */
export const PRODUCT_TEXT_LIMITS: Record<keyof ProductTexts, number> = {
  name: MAX_PRODUCT_NAME_LENGTH,
  shortDescription: MAX_SHORT_DESCRIPTION_LENGTH,
  description: MAX_DESCRIPTION_LENGTH,
};

export type {
  AdminCategory,
  AdminCategoryNames,
  AdminProduct,
  AdminProductInput,
  AdminProductEdit,
  AdminProductPage,
  AdminProductQuery,
} from './admin-catalogue-schemas';
