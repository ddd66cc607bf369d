import type { Category, Product, ProductPage, ProductQuery } from '../../contracts/catalogue';
import { api } from './client';

export interface FetchProductsParams extends Partial<ProductQuery> {
  updatedSince?: string;
}

export async function fetchProducts(params: FetchProductsParams): Promise<ProductPage> {
  const searchParams: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') searchParams[key] = value as string | number;
  }
  return api.get('products', { searchParams }).json<ProductPage>();
}

export async function fetchProduct(id: number): Promise<Product> {
  const body = await api.get(`products/${id}`).json<{ product: Product }>();
  return body.product;
}

export async function fetchProductIds(): Promise<number[]> {
  return (await api.get('products/ids').json<{ ids: number[] }>()).ids;
}

export async function fetchCategories(): Promise<Category[]> {
  const body = await api.get('products/categories').json<{ categories: Category[] }>();
  return body.categories;
}

export async function subscribeToNewsletter(email: string, locale: string): Promise<void> {
  await api.post('newsletter', { json: { email, locale } });
}
