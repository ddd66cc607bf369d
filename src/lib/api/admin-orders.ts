/**
 * The back office's calls for orders (docs/api.md#back-office), for staff only: read
 * afresh every time (`no-store`), changes made at once under an Idempotency-Key the caller
 * keeps for a retry of the same change (see `useStaffAction` in the admin screens).
 */
import type {
  AdminOrderDetail,
  AdminOrderPage,
  AdminOrderQuery,
} from '../../contracts/admin-orders';
import type { Order, OrderStatus, PaymentStatus } from '../../contracts/orders';
import { api } from './client';

/** The query's values that are set, as the address carries them. */
function searchParams(query: AdminOrderQuery): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(query) as [string, string | number | undefined][]) {
    if (value !== undefined && value !== '') params[key] = value;
  }
  return params;
}

export const fetchAdminOrders = (query: AdminOrderQuery, signal?: AbortSignal) =>
  api
    .get('admin/orders', {
      searchParams: searchParams(query),
      cache: 'no-store',
      ...(signal && { signal }),
    })
    .json<AdminOrderPage>();

export const fetchAdminOrder = (id: number, signal?: AbortSignal) =>
  api
    .get(`admin/orders/${id}`, { cache: 'no-store', ...(signal && { signal }) })
    .json<AdminOrderDetail>();

/** Moves an order one step; SHIPPED takes a tracking number, CANCELLED a reason. */
export const moveAdminOrder = (
  id: number,
  change: { status: OrderStatus; trackingNumber?: string; reason?: string },
  key: string,
) =>
  api
    .post(`admin/orders/${id}/status`, { json: change, headers: { 'idempotency-key': key } })
    .json<{ order: Order }>();

export const setAdminOrderPayment = (id: number, paymentStatus: PaymentStatus, key: string) =>
  api
    .post(`admin/orders/${id}/payment`, {
      json: { paymentStatus },
      headers: { 'idempotency-key': key },
    })
    .json<{ order: Order }>();

/**
 * Every order the filters match, as the CSV file the server makes (not one page). Taken
 * as a blob with the staff's token, then handed to the browser as a download.
 */
export async function downloadOrdersCsv(query: AdminOrderQuery): Promise<void> {
  const { page: _page, limit: _limit, ...filters } = query;
  const response = await api.get('admin/orders/export.csv', {
    searchParams: searchParams(filters),
    cache: 'no-store',
    // A hundred thousand orders take a while to write out.
    timeout: 300_000,
  });
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    'orders.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
