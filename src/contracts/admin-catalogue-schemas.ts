/**
 * The back office's catalogue shapes (docs/api.md#back-office): products, categories and
 * pictures as staff see and change them, stated once from the rules of ./admin-catalogue.
 * Only code that checks loads this module; the screens import its types alone.
 */
import { Type, type Static } from 'typebox';
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_PRICE,
  MAX_PRODUCT_NAME_LENGTH,
  MAX_SHORT_DESCRIPTION_LENGTH,
  MAX_SKU_LENGTH,
  MAX_STOCK,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  MAX_PICTURES,
  PRODUCT_STATES,
  SKU_PATTERN,
} from './admin-catalogue';
import { ADMIN_MAX_PAGE_SIZE } from './admin';
import { AdminPaginationSchema } from './admin-schemas';
import { literals } from './literals';
import { MAX_TEXT_LENGTH } from './validation';

const id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** A product's texts in one language; an empty text falls back to the Romanian one. */
export const ProductTextsSchema = Type.Object(
  {
    name: Type.String({ maxLength: MAX_PRODUCT_NAME_LENGTH }),
    shortDescription: Type.String({ maxLength: MAX_SHORT_DESCRIPTION_LENGTH }),
    description: Type.String({ maxLength: MAX_DESCRIPTION_LENGTH }),
  },
  { additionalProperties: false },
);

const TextsSchema = Type.Object(
  { ro: ProductTextsSchema, en: ProductTextsSchema, it: ProductTextsSchema },
  { additionalProperties: false },
);

/** The texts an edit changes: only those sent, so that two staff editing others keep both. */
const TextsEditSchema = Type.Object(
  {
    ro: Type.Optional(Type.Partial(ProductTextsSchema, { additionalProperties: false })),
    en: Type.Optional(Type.Partial(ProductTextsSchema, { additionalProperties: false })),
    it: Type.Optional(Type.Partial(ProductTextsSchema, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

/** A product as staff see it: every language, the price always, and whether it is sold. */
export const AdminProductSchema = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  /** The EAN-13 barcode on its pack; null until staff enter it. */
  ean: Type.Union([Type.String(), Type.Null()]),
  price: Type.Number(),
  stock: Type.Integer(),
  active: Type.Boolean(),
  categoryId: Type.Integer(),
  tags: Type.Array(Type.String()),
  /** Each picture by its largest file, the first shown first (src/contracts/product-pictures). */
  images: Type.Array(Type.String()),
  texts: TextsSchema,
  /** Ordered at least once: it can then be deactivated, never deleted. */
  ordered: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** `GET /api/admin/products`: every filter optional, 20 a page, by name then id. */
export const AdminProductQuerySchema = Type.Object(
  {
    /** Words of the name (any language), SKU, EAN or descriptions, as the catalogue's search. */
    search: Type.Optional(Type.String({ maxLength: MAX_TEXT_LENGTH })),
    categoryId: Type.Optional(id),
    status: Type.Optional(literals(PRODUCT_STATES)),
    /** `low`: fewer than LOW_STOCK_BELOW units, as the dashboard counts them. */
    stock: Type.Optional(literals(['low'] as const)),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_MAX_PAGE_SIZE })),
  },
  { additionalProperties: false },
);

export const AdminProductPageSchema = Type.Object({
  products: Type.Array(AdminProductSchema),
  pagination: AdminPaginationSchema,
});

const productFields = {
  sku: Type.String({ minLength: 1, maxLength: MAX_SKU_LENGTH, pattern: SKU_PATTERN }),
  /**
   * An EAN-13 (spaces between its digits allowed), checked by the shared rules so that a
   * wrong one is named `eanInvalid`; an empty text or null: the product has none.
   */
  ean: Type.Union([Type.String({ maxLength: MAX_TEXT_LENGTH }), Type.Null()]),
  price: Type.Number({ minimum: 0, maximum: MAX_PRICE }),
  stock: Type.Integer({ minimum: 0, maximum: MAX_STOCK }),
  categoryId: id,
  tags: Type.Array(Type.String({ maxLength: MAX_TAG_LENGTH }), { maxItems: MAX_TAGS }),
  texts: TextsSchema,
};

/** `POST /api/admin/products`: a new product, active unless said otherwise, `ean` optional. */
export const AdminProductInputSchema = Type.Object(
  {
    ...productFields,
    ean: Type.Optional(productFields.ean),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/**
 * `PATCH /api/admin/products/{id}`: only the fields sent change, each text of each
 * language on its own. Activation has routes of its own.
 */
export const AdminProductEditSchema = Type.Object(
  {
    sku: Type.Optional(productFields.sku),
    ean: Type.Optional(productFields.ean),
    price: Type.Optional(productFields.price),
    stock: Type.Optional(productFields.stock),
    categoryId: Type.Optional(productFields.categoryId),
    tags: Type.Optional(productFields.tags),
    texts: Type.Optional(TextsEditSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** `PUT /api/admin/products/{id}/pictures`: the product's pictures in their new order. */
export const PictureOrderSchema = Type.Object(
  { images: Type.Array(Type.String({ maxLength: 200 }), { maxItems: MAX_PICTURES }) },
  { additionalProperties: false },
);

export const AdminCategoryNamesSchema = Type.Object(
  {
    ro: Type.String({ maxLength: MAX_PRODUCT_NAME_LENGTH }),
    en: Type.String({ maxLength: MAX_PRODUCT_NAME_LENGTH }),
    it: Type.String({ maxLength: MAX_PRODUCT_NAME_LENGTH }),
  },
  { additionalProperties: false },
);

export const AdminCategorySchema = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  names: AdminCategoryNamesSchema,
  /** Its place in the storefront's list, from 0. */
  position: Type.Integer(),
  /** Products of the category, active or not. */
  products: Type.Integer(),
});

/** `POST /api/admin/categories` and `PATCH /api/admin/categories/{id}`. */
export const AdminCategoryBodySchema = Type.Object(
  { names: AdminCategoryNamesSchema },
  { additionalProperties: false },
);

/** `PUT /api/admin/categories/order`: every category's id, in the new order. */
export const CategoryOrderSchema = Type.Object(
  { ids: Type.Array(id, { maxItems: 1000, uniqueItems: true }) },
  { additionalProperties: false },
);

export type AdminProduct = Static<typeof AdminProductSchema>;
export type AdminProductQuery = Static<typeof AdminProductQuerySchema>;
export type AdminProductPage = Static<typeof AdminProductPageSchema>;
export type AdminProductInput = Static<typeof AdminProductInputSchema>;
export type AdminProductEdit = Static<typeof AdminProductEditSchema>;
export type AdminCategory = Static<typeof AdminCategorySchema>;
export type AdminCategoryNames = Static<typeof AdminCategoryNamesSchema>;
