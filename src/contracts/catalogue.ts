/**
 * The catalogue contract shared by the browser, the service worker and the server.
 *
 * One query, two engines: the server answers it in SQL, the device answers it from the
 * IndexedDB mirror. Both fold text, match search terms and order products through the
 * functions of catalogue-query.ts, so that the same query gives the same products in the
 * same order.
 */

import type { Category, Product } from './catalogue-schemas';

/** The shapes are stated once, as JSON schemas; these are their types. */
export type {
  Category,
  CategoryNames,
  MirrorLine,
  Pagination,
  Product,
  ProductPage,
  ProductTranslations,
} from './catalogue-schemas';

/** Products per page of the catalogue (docs/product.md#catalogue). */
export const PRODUCTS_PAGE_SIZE = 12;
/** Largest page a client may ask for (the mirror has its own streamed answer). */
export const MAX_PRODUCTS_LIMIT = 100;
/** Longest search text accepted: longer input is a mistake or an attack, never a real query. */
export const MAX_SEARCH_LENGTH = 200;

export const SORT_OPTIONS = ['name', 'price', 'newest'] as const;
export type SortBy = (typeof SORT_OPTIONS)[number];
export const DEFAULT_SORT: SortBy = 'name';

export interface ProductQuery {
  page: number;
  limit: number;
  search: string;
  categoryId?: number | undefined;
  sortBy: SortBy;
}

/** The media type of the mirror's answer: one JSON value per line. */
export const MIRROR_CONTENT_TYPE = 'application/x-ndjson';

type Texts = Pick<Product, 'name' | 'shortDescription' | 'description' | 'translations'>;

/**
 * A product's texts in `language`: each the translation staff gave, else the Romanian one
 * (the columns themselves). Every screen that shows a product's name goes through here.
 */
export function productTexts(
  product: Texts,
  language: string,
): { name: string; shortDescription: string; description: string } {
  const translated =
    language === 'en' || language === 'it' ? product.translations?.[language] : undefined;
  return {
    name: translated?.name || product.name,
    shortDescription: translated?.shortDescription || product.shortDescription,
    description: translated?.description || product.description,
  };
}

/**
 * A category's name in `language` when staff named it (else its Romanian name they gave);
 * undefined for a category staff never named, which the screens name from their texts.
 */
export function categoryNameIn(category: Category, language: string): string | undefined {
  const names = category.names;
  if (!names) return undefined;
  const own = language === 'ro' || language === 'en' || language === 'it' ? names[language] : '';
  return own || names.ro || undefined;
}
