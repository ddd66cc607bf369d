/**
 * The back office's catalogue calls (docs/api.md#back-office), for staff only: products,
 * their pictures and categories. Like the other staff calls, nothing is kept on the device
 * and every change is sent at once under an Idempotency-Key the caller keeps for a retry.
 */
import type {
  AdminCategory,
  AdminCategoryNames,
  AdminProduct,
  AdminProductEdit,
  AdminProductInput,
  AdminProductPage,
  AdminProductQuery,
} from '../../contracts/admin-catalogue';
import { api } from './client';

type Query = Record<string, string | number | undefined>;

function searchParams(query: Query): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params[key] = value;
  }
  return params;
}

const read = <T>(path: string, query: Query = {}, signal?: AbortSignal) =>
  api
    .get(path, { searchParams: searchParams(query), cache: 'no-store', ...(signal && { signal }) })
    .json<T>();

const change = <T>(
  method: 'post' | 'patch' | 'put' | 'delete',
  path: string,
  key: string,
  body?: object,
) =>
  api[method](path, { ...(body && { json: body }), headers: { 'idempotency-key': key } }).json<T>();

type ProductAnswer = { product: AdminProduct };

export const fetchAdminProducts = (query: AdminProductQuery, signal?: AbortSignal) =>
  read<AdminProductPage>('admin/products', { ...query }, signal);

export const fetchAdminProduct = (id: number, signal?: AbortSignal) =>
  read<ProductAnswer>(`admin/products/${id}`, {}, signal);

export const createProduct = (input: AdminProductInput, key: string) =>
  change<ProductAnswer>('post', 'admin/products', key, input);

export const editProduct = (id: number, edit: AdminProductEdit, key: string) =>
  change<ProductAnswer>('patch', `admin/products/${id}`, key, edit);

export const setProductActive = (id: number, active: boolean, key: string) =>
  change<ProductAnswer>(
    'post',
    `admin/products/${id}/${active ? 'activate' : 'deactivate'}`,
    key,
    {},
  );

export const deleteProduct = (id: number, key: string) =>
  change<{ deleted: number }>('delete', `admin/products/${id}`, key);

/** Sends one picture; pictures can be large, so this waits longer than other calls. */
export const uploadPicture = (id: number, file: File, key: string) => {
  const form = new FormData();
  form.append('file', file);
  return api
    .post(`admin/products/${id}/pictures`, {
      body: form,
      headers: { 'idempotency-key': key },
      timeout: 120_000,
    })
    .json<ProductAnswer>();
};

export const orderPictures = (id: number, images: string[], key: string) =>
  change<ProductAnswer>('put', `admin/products/${id}/pictures`, key, { images });

export const removePicture = (id: number, image: string, key: string) =>
  change<ProductAnswer>(
    'delete',
    `admin/products/${id}/pictures/${image.split('/').pop() ?? ''}`,
    key,
  );

export const fetchAdminCategories = (signal?: AbortSignal) =>
  read<{ categories: AdminCategory[] }>('admin/categories', {}, signal);

export const createCategory = (names: AdminCategoryNames, key: string) =>
  change<{ category: AdminCategory }>('post', 'admin/categories', key, { names });

export const renameCategory = (id: number, names: AdminCategoryNames, key: string) =>
  change<{ category: AdminCategory }>('patch', `admin/categories/${id}`, key, { names });

export const orderCategories = (ids: number[], key: string) =>
  change<{ categories: AdminCategory[] }>('put', 'admin/categories/order', key, { ids });
