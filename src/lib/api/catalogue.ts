/**
 * Catalogue reads. A visitor's are made with the browser's fetch, so that a first visit
 * shows its page without waiting for the full client; with a session they go through the
 * full client (./client), which renews a refused token.
 */
import type { Product, ProductPage, ProductQuery } from '../../contracts/catalogue';
import { getSession } from '../auth/session-store';
import { REQUEST_TIMEOUT_MS, ResponseError } from './errors';

export interface FetchProductsParams extends Partial<ProductQuery> {
  updatedSince?: string;
}

type SearchParams = Record<string, string | number>;

async function getJson<T>(path: string, searchParams: SearchParams = {}): Promise<T> {
  if (getSession()) {
    const { api } = await import('./client');
    return api.get(path, { searchParams }).json<T>();
  }
  const query = new URLSearchParams(
    Object.entries(searchParams).map(([key, value]) => [key, String(value)]),
  ).toString();
  const response = await fetch(`/api/${path}${query ? `?${query}` : ''}`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) throw new ResponseError(response);
  return (await response.json()) as T;
}

export async function fetchProducts(params: FetchProductsParams): Promise<ProductPage> {
  const searchParams: SearchParams = {};
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') searchParams[key] = value as string | number;
  }
  return getJson<ProductPage>('products', searchParams);
}

export async function fetchProduct(id: number): Promise<Product> {
  return (await getJson<{ product: Product }>(`products/${id}`)).product;
}

export async function subscribeToNewsletter(email: string, locale: string): Promise<void> {
  const { api } = await import('./client');
  await api.post('newsletter', { json: { email, locale } });
}
