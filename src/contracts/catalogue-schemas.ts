/**
 * The catalogue's shapes as JSON schemas (docs/api.md#catalogue), stated once: the server
 * answers with them, the device checks the mirror's lines against them, and the types of
 * ./catalogue.ts are derived from them. Only code that checks loads this module; screens
 * import the types alone.
 */
import { Type, type Static } from 'typebox';

/** A name or text in English and Italian; the plain field is the Romanian one, the fallback. */
const Translated = <T extends ReturnType<typeof Type.Object> | ReturnType<typeof Type.String>>(
  schema: T,
) => Type.Object({ en: Type.Optional(schema), it: Type.Optional(schema) });

export const CategorySchema = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  /**
   * The names staff gave it, by language (Romanian the fallback of the others); without
   * them the screens show the name of the demo category in their own texts, else `name`.
   */
  names: Type.Optional(
    Type.Object({
      ro: Type.Optional(Type.String()),
      en: Type.Optional(Type.String()),
      it: Type.Optional(Type.String()),
    }),
  ),
});

export const ProductTranslationSchema = Type.Object({
  name: Type.String(),
  shortDescription: Type.String(),
  description: Type.String(),
});

export const ProductSchema = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  /**
   * The EAN-13 barcode on its pack (src/contracts/barcodes.ts); null when staff have not
   * entered one. A copy stored on a device before products had it lacks the field.
   */
  ean: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  shortDescription: Type.String(),
  description: Type.String(),
  /** Present only for callers whose company is verified and approved. */
  price: Type.Optional(Type.Number()),
  currency: Type.Literal('EUR'),
  stock: Type.Integer(),
  stockQuantity: Type.Integer(),
  inStock: Type.Boolean(),
  images: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  categoryId: Type.Integer(),
  category: CategorySchema,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  /** Folded name, SKU, descriptions and EAN: what a search matches against. */
  searchText: Type.String(),
  /** Folded name: what the name sort orders by. */
  nameKey: Type.String(),
  /** The texts in other languages, when staff gave them; an empty one falls back. */
  translations: Type.Optional(Translated(ProductTranslationSchema)),
});

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  totalPages: Type.Integer(),
  totalProducts: Type.Integer(),
});

export const ProductPageSchema = Type.Object({
  products: Type.Array(ProductSchema),
  pagination: PaginationSchema,
});

/**
 * One line of `GET /api/products/mirror` (NDJSON, `application/x-ndjson`): everything a
 * device needs to mirror the catalogue in one streamed answer. The categories come first,
 * then the products in batches (by id), and last the `end` line; an answer without it was
 * cut short and must not count as a complete copy.
 */
export const MirrorLineSchema = Type.Union([
  Type.Object({ type: Type.Literal('categories'), categories: Type.Array(CategorySchema) }),
  Type.Object({ type: Type.Literal('products'), products: Type.Array(ProductSchema) }),
  Type.Object({
    type: Type.Literal('end'),
    /**
     * The newest updatedAt of the catalogue when the answer began (null when empty):
     * the next refresh asks for products changed since then.
     */
    cursor: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** Every product id the catalogue has: the device drops the ones not listed. */
    ids: Type.Array(Type.Integer()),
  }),
]);

export type Category = Static<typeof CategorySchema>;
export type CategoryNames = NonNullable<Category['names']>;
export type ProductTranslations = NonNullable<Static<typeof ProductSchema>['translations']>;
export type Product = Static<typeof ProductSchema>;
export type Pagination = Static<typeof PaginationSchema>;
export type ProductPage = Static<typeof ProductPageSchema>;
export type MirrorLine = Static<typeof MirrorLineSchema>;
