/**
 * The staff list of products' filters as kept in the address (search, category, status,
 * low stock, page), so that a link such as the dashboard's, a reload and the back button
 * keep them. Anything the server would refuse is left out.
 */
import { PRODUCT_STATES, type ProductState } from '../../contracts/admin-catalogue';
import type { AdminProductQuery } from '../../contracts/admin-catalogue';
import { ADMIN_PAGE_SIZE } from '../../contracts/admin';
import { MAX_TEXT_LENGTH } from '../../contracts/validation';
import { positiveInt } from './staff-urls';

export interface ProductsView {
  search: string;
  categoryId: number | undefined;
  status: ProductState | undefined;
  lowStock: boolean;
  page: number;
}

export function readProductsUrl(params: URLSearchParams): ProductsView {
  return {
    search: (params.get('search') ?? '').slice(0, MAX_TEXT_LENGTH),
    categoryId: positiveInt(params.get('categoryId')),
    status: PRODUCT_STATES.find((state) => state === params.get('status')),
    lowStock: params.get('stock') === 'low',
    page: positiveInt(params.get('page')) ?? 1,
  };
}

export function writeProductsUrl(view: ProductsView): string {
  const params = new URLSearchParams();
  if (view.search) params.set('search', view.search);
  if (view.categoryId !== undefined) params.set('categoryId', String(view.categoryId));
  if (view.status) params.set('status', view.status);
  if (view.lowStock) params.set('stock', 'low');
  if (view.page > 1) params.set('page', String(view.page));
  const text = params.toString();
  return text ? `/admin/products?${text}` : '/admin/products';
}

export function productsQuery(view: ProductsView): AdminProductQuery {
  return {
    ...(view.search.trim() && { search: view.search.trim() }),
    ...(view.categoryId !== undefined && { categoryId: view.categoryId }),
    ...(view.status && { status: view.status }),
    ...(view.lowStock && { stock: 'low' as const }),
    page: view.page,
    limit: ADMIN_PAGE_SIZE,
  };
}
