/**
 * How a catalogue query finds and orders products (docs/product.md#catalogue), the same on
 * the server and on the device: the server's SQL and the device's copy must give the same
 * products in the same order. Kept apart from catalogue.ts, which the first screens load:
 * only the server and the device's copy need these.
 */
import type { Pagination, Product, ProductTranslations } from './catalogue-schemas';
import type { SortBy } from './catalogue';

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
  /** The barcode: a scanned or typed EAN finds the product. */
  ean?: string | null | undefined;
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
    // The EAN last: a product without one keeps the search text it had.
    searchText: foldText(
      [
        product.name,
        product.sku,
        product.shortDescription,
        product.description,
        ...translated,
        product.ean,
      ]
        .filter(Boolean)
        .join(' '),
    ),
    nameKey: foldText(product.name),
  };
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
 * JavaScript's `<` compares UTF-16 code units, which disagrees only where a surrogate
 * (half of a character beyond the Basic Multilingual Plane) meets a character from
 * U+E000 to U+FFFF: the first code unit that differs decides, with surrogates moved above
 * that range. Sorting 10,000 product names calls this about 130,000 times.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const l = a.charCodeAt(i);
    const r = b.charCodeAt(i);
    if (l !== r) return inCodePointOrder(l) - inCodePointOrder(r);
  }
  return a.length - b.length;
}

/** A UTF-16 code unit placed so that comparing units compares the code points they start. */
function inCodePointOrder(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
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
