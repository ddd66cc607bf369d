/** The back office's calls for orders (docs/api.md#back-office), for staff only. */
import type {
  AdminOrderDetail,
  AdminOrderPage,
  AdminOrderQuery,
} from '../../contracts/admin-orders';
import type { Order, OrderStatus, PaymentStatus } from '../../contracts/orders';
import { api } from './client';
import { staffChange, staffRead, staffSearchParams } from './staff-calls';

export const fetchAdminOrders = (query: AdminOrderQuery, signal?: AbortSignal) =>
  staffRead<AdminOrderPage>('admin/orders', { ...query }, signal);

export const fetchAdminOrder = (id: number, signal?: AbortSignal) =>
  staffRead<AdminOrderDetail>(`admin/orders/${id}`, {}, signal);

/** Moves an order one step; SHIPPED takes a tracking number, CANCELLED a reason. */
export const moveAdminOrder = (
  id: number,
  change: { status: OrderStatus; trackingNumber?: string; reason?: string },
  key: string,
) => staffChange<{ order: Order }>('post', `admin/orders/${id}/status`, key, change);

export const setAdminOrderPayment = (id: number, paymentStatus: PaymentStatus, key: string) =>
  staffChange<{ order: Order }>('post', `admin/orders/${id}/payment`, key, { paymentStatus });

/**
 * Every order the filters match, as the CSV file the server makes (not one page). Taken
 * as a blob with the staff's token, then handed to the browser as a download.
 */
export async function downloadOrdersCsv(query: AdminOrderQuery): Promise<void> {
  const { page: _page, limit: _limit, ...filters } = query;
  const response = await api.get('admin/orders/export.csv', {
    searchParams: staffSearchParams({ ...filters }),
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
