/**
 * The staff's list of orders as kept in the address, so that a link, a reload and the
 * back button keep its filters. Anything the address holds that the server would refuse
 * is left out.
 */
import { ADMIN_PAGE_SIZE, SORT_ORDERS, type SortOrder } from '../../contracts/admin';
import { ORDER_SORTS, type AdminOrderQuery, type OrderSort } from '../../contracts/admin-orders';
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderStatus,
  type PaymentStatus,
} from '../../contracts/orders';
import { MAX_TEXT_LENGTH } from '../../contracts/validation';
import { listChange, oneOf, positiveInt } from './staff-urls';

/** A real calendar day `YYYY-MM-DD`, as a date field gives it ('2026-02-30' is none). */
function day(value: string | null): string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return '';
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value) ? value : '';
}

export interface OrdersView {
  search: string;
  status: OrderStatus | undefined;
  paymentStatus: PaymentStatus | undefined;
  companyId: number | undefined;
  /** The orders this sales rep placed for its customers. */
  salesRepId: number | undefined;
  from: string;
  to: string;
  sortBy: OrderSort;
  sortOrder: SortOrder;
  page: number;
}

/** The order a column sorts in when it is first chosen: dates and totals highest first. */
export const FIRST_ORDER: Record<OrderSort, SortOrder> = {
  createdAt: 'desc',
  total: 'desc',
  orderNumber: 'asc',
};

export function readOrdersUrl(params: URLSearchParams): OrdersView {
  const sortBy = oneOf(ORDER_SORTS, params.get('sortBy')) ?? 'createdAt';
  return {
    search: (params.get('search') ?? '').slice(0, MAX_TEXT_LENGTH),
    status: oneOf(ORDER_STATUSES, params.get('status')),
    paymentStatus: oneOf(PAYMENT_STATUSES, params.get('paymentStatus')),
    companyId: positiveInt(params.get('companyId')),
    salesRepId: positiveInt(params.get('salesRepId')),
    from: day(params.get('from')),
    to: day(params.get('to')),
    sortBy,
    sortOrder: oneOf(SORT_ORDERS, params.get('sortOrder')) ?? FIRST_ORDER[sortBy],
    page: positiveInt(params.get('page')) ?? 1,
  };
}

export function writeOrdersUrl(view: OrdersView): string {
  const params = new URLSearchParams();
  if (view.search.trim()) params.set('search', view.search.trim());
  if (view.status) params.set('status', view.status);
  if (view.paymentStatus) params.set('paymentStatus', view.paymentStatus);
  if (view.companyId !== undefined) params.set('companyId', String(view.companyId));
  if (view.salesRepId !== undefined) params.set('salesRepId', String(view.salesRepId));
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.sortBy !== 'createdAt' || view.sortOrder !== 'desc') {
    params.set('sortBy', view.sortBy);
    params.set('sortOrder', view.sortOrder);
  }
  if (view.page > 1) params.set('page', String(view.page));
  const text = params.toString();
  return text ? `/admin/orders?${text}` : '/admin/orders';
}

/** The address after a change: any change but the page itself goes back to page 1. */
export const applyOrdersChange = listChange(readOrdersUrl, writeOrdersUrl);

/** What the server is asked for a view of the list. */
export function ordersQuery(view: OrdersView): AdminOrderQuery {
  const search = view.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(view.status ? { status: view.status } : {}),
    ...(view.paymentStatus ? { paymentStatus: view.paymentStatus } : {}),
    ...(view.companyId !== undefined ? { companyId: view.companyId } : {}),
    ...(view.salesRepId !== undefined ? { salesRepId: view.salesRepId } : {}),
    ...(view.from ? { from: view.from } : {}),
    ...(view.to ? { to: view.to } : {}),
    sortBy: view.sortBy,
    sortOrder: view.sortOrder,
    page: view.page,
    limit: ADMIN_PAGE_SIZE,
  };
}
