/**
 * The catalogue contract shared by the browser, the service worker and the server.
 *
 * One query, two engines: the server answers it in SQL, the device answers it from the
 * IndexedDB mirror. Both fold text, match search terms and order products through the
 * functions below so that the same query gives the same products in the same order.
 */

import type { Category, Pagination, Product, ProductTranslations } from './catalogue-schemas';

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

/**
 * Folds text for matching and ordering: decomposed, marks dropped, lower-cased,
 * whitespace collapsed. "Șampon  PURIFIANT" and "sampon purifiant" fold alike.
 */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export interface SearchableFields {
  name: string;
  sku: string;
  shortDescription: string;
  description: string;
  /** The texts in other languages: a search in any of them finds the product. */
  translations?: ProductTranslations | undefined;
}

/**
 * The derived fields the server stores with every product, and the mirror keeps as sent.
 * The name sort orders by the Romanian name, the same for every language (one order for
 * the server and the device whatever the viewer reads).
 */
export function deriveSearchFields(product: SearchableFields): {
  searchText: string;
  nameKey: string;
} {
  const translated = Object.values(product.translations ?? {}).flatMap((texts) =>
    texts ? [texts.name, texts.shortDescription, texts.description] : [],
  );
  return {
    searchText: foldText(
      [product.name, product.sku, product.shortDescription, product.description, ...translated]
        .filter(Boolean)
        .join(' '),
    ),
    nameKey: foldText(product.name),
  };
}

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

/** The folded, non-empty terms of a search; a product must contain every one of them. */
export function searchTerms(search: string): string[] {
  return foldText(search)
    .split(' ')
    .filter((term) => term.length > 0);
}

export function matchesSearch(searchText: string, terms: readonly string[]): boolean {
  return terms.every((term) => searchText.includes(term));
}

/**
 * Orders strings by Unicode code point, as PostgreSQL's "C" collation orders UTF-8 text.
 * JavaScript's `<` compares UTF-16 code units, which disagrees for characters beyond the
 * Basic Multilingual Plane.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const l = left.next();
    const r = right.next();
    if (l.done) return r.done ? 0 : -1;
    if (r.done) return 1;
    if (l.value !== r.value) {
      return (l.value.codePointAt(0) ?? 0) - (r.value.codePointAt(0) ?? 0);
    }
  }
}

type Sortable = Pick<Product, 'id' | 'nameKey' | 'price' | 'createdAt'>;

const byNameThenId = (a: Sortable, b: Sortable): number =>
  compareCodePoints(a.nameKey, b.nameKey) || a.id - b.id;

/**
 * The order of a catalogue query. `price` falls back to the name order for products whose
 * price the caller may not see, exactly as the server does for visitors.
 */
export function compareProducts(sortBy: SortBy): (a: Sortable, b: Sortable) => number {
  switch (sortBy) {
    case 'name':
      return byNameThenId;
    case 'price':
      return (a, b) => {
        if (a.price !== undefined && b.price !== undefined && a.price !== b.price) {
          return a.price - b.price;
        }
        return byNameThenId(a, b);
      };
    case 'newest':
      return (a, b) => {
        const byDate = Date.parse(b.createdAt) - Date.parse(a.createdAt);
        return byDate || b.id - a.id;
      };
  }
}

export function paginate(totalProducts: number, page: number, limit: number): Pagination {
  return { page, limit, totalProducts, totalPages: Math.ceil(totalProducts / limit) };
}
