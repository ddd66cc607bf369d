import {
  DEFAULT_SORT,
  MAX_SEARCH_LENGTH,
  PRODUCTS_PAGE_SIZE,
  SORT_OPTIONS,
  type ProductQuery,
  type SortBy,
} from '../../contracts/catalogue';

export type Layout = 'grid' | 'list';

export interface CatalogueUrlState {
  query: ProductQuery;
  layout: Layout;
}

const positiveInt = (value: string | null): number | undefined => {
  if (value === null || !/^\d{1,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
};

/** The catalogue's state as kept in the address, so that a link or a reload keeps it. */
export function readCatalogueUrl(params: URLSearchParams): CatalogueUrlState {
  const sort = params.get('sort');
  return {
    query: {
      page: positiveInt(params.get('page')) ?? 1,
      limit: PRODUCTS_PAGE_SIZE,
      search: (params.get('search') ?? '').slice(0, MAX_SEARCH_LENGTH),
      categoryId: positiveInt(params.get('category')),
      sortBy: SORT_OPTIONS.includes(sort as SortBy) ? (sort as SortBy) : DEFAULT_SORT,
    },
    layout: params.get('view') === 'list' ? 'list' : 'grid',
  };
}

export function writeCatalogueUrl({ query, layout }: CatalogueUrlState): string {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  if (query.categoryId !== undefined) params.set('category', String(query.categoryId));
  if (query.sortBy !== DEFAULT_SORT) params.set('sort', query.sortBy);
  if (layout !== 'grid') params.set('view', layout);
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `/products?${text}` : '/products';
}

export type CatalogueChange = Partial<ProductQuery> & { layout?: Layout };

/**
 * The address after a change. Any change but the page itself goes back to page 1, and
 * the change applies to the address as it is now, not as it was when the change began
 * (a search typed while a filter changed keeps both).
 */
export function applyCatalogueChange(
  params: URLSearchParams,
  change: CatalogueChange,
): URLSearchParams {
  const { query, layout } = readCatalogueUrl(params);
  const { layout: nextLayout = layout, ...queryChange } = change;
  const resetPage = Object.keys(queryChange).some((key) => key !== 'page');
  const url = writeCatalogueUrl({
    query: { ...query, ...(resetPage ? { page: 1 } : {}), ...queryChange },
    layout: nextLayout,
  });
  return new URLSearchParams(url.split('?')[1] ?? '');
}
