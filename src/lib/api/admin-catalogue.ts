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
import { staffChange, staffRead } from './staff-calls';

type ProductAnswer = { product: AdminProduct };

export const fetchAdminProducts = (query: AdminProductQuery, signal?: AbortSignal) =>
  staffRead<AdminProductPage>('admin/products', { ...query }, signal);

export const fetchAdminProduct = (id: number, signal?: AbortSignal) =>
  staffRead<ProductAnswer>(`admin/products/${id}`, {}, signal);

export const createProduct = (input: AdminProductInput, key: string) =>
  staffChange<ProductAnswer>('post', 'admin/products', key, input);

export const editProduct = (id: number, edit: AdminProductEdit, key: string) =>
  staffChange<ProductAnswer>('patch', `admin/products/${id}`, key, edit);

export const setProductActive = (id: number, active: boolean, key: string) =>
  staffChange<ProductAnswer>(
    'post',
    `admin/products/${id}/${active ? 'activate' : 'deactivate'}`,
    key,
    {},
  );

export const deleteProduct = (id: number, key: string) =>
  staffChange<{ deleted: number }>('delete', `admin/products/${id}`, key);

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
  staffChange<ProductAnswer>('put', `admin/products/${id}/pictures`, key, { images });

export const removePicture = (id: number, image: string, key: string) =>
  staffChange<ProductAnswer>(
    'delete',
    `admin/products/${id}/pictures/${image.split('/').pop() ?? ''}`,
    key,
  );

export const fetchAdminCategories = (signal?: AbortSignal) =>
  staffRead<{ categories: AdminCategory[] }>('admin/categories', {}, signal);

export const createCategory = (names: AdminCategoryNames, key: string) =>
  staffChange<{ category: AdminCategory }>('post', 'admin/categories', key, { names });

export const renameCategory = (id: number, names: AdminCategoryNames, key: string) =>
  staffChange<{ category: AdminCategory }>('patch', `admin/categories/${id}`, key, { names });

export const orderCategories = (ids: number[], key: string) =>
  staffChange<{ categories: AdminCategory[] }>('put', 'admin/categories/order', key, { ids });
