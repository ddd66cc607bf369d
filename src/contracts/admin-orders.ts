/**
 * The back office's orders (docs/product.md#back-office): the paths an order's status and
 * payment may take, the list's sorts and the tracking number's rule. Plain values the staff
 * screens use as they are; the shapes are stated in ./admin-orders-schemas.
 */
import type { OrderStatus, PaymentStatus } from './orders';

/** The list's sorts; the default is createdAt, newest first. */
export const ORDER_SORTS = ['createdAt', 'total', 'orderNumber'] as const;

/**
 * The statuses staff may move an order to from each status. CANCELLED takes a reason and
 * gives the stock back; SHIPPED takes a tracking number. DELIVERED and CANCELLED are final.
 * An order awaiting its company's verification moves on with the company's decision
 * (approved: PENDING, rejected: CANCELLED); staff may only cancel it before that.
 */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  AWAITING_VERIFICATION: ['CANCELLED'],
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['PROCESSING', 'CANCELLED'],
  PROCESSING: ['SHIPPED'],
  SHIPPED: ['DELIVERED'],
  DELIVERED: [],
  CANCELLED: [],
};

/**
 * The payment statuses staff may record from each. A bank transfer that failed (returned,
 * refused) may still be paid later, or be waited for again; a payment is refunded only once
 * it was paid, and a refund is final.
 */
export const PAYMENT_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  PENDING: ['PAID', 'FAILED'],
  FAILED: ['PAID', 'PENDING'],
  PAID: ['REFUNDED'],
  REFUNDED: [],
};

/**
 * The payment statuses staff may record for an order in `status`: those of
 * PAYMENT_TRANSITIONS, but nothing is due on a cancelled order: no payment is awaited on
 * it or fails, and a transfer that arrives anyway is recorded as paid, to be refunded.
 */
export function paymentMoves(
  status: OrderStatus,
  payment: PaymentStatus,
): readonly PaymentStatus[] {
  const moves = PAYMENT_TRANSITIONS[payment];
  return status === 'CANCELLED' ? moves.filter((to) => to === 'PAID' || to === 'REFUNDED') : moves;
}

/** The longest tracking number accepted, after trimming (carriers' numbers are far shorter). */
export const MAX_TRACKING_LENGTH = 100;

/** A tracking number: letters, digits and the separators carriers print ( - . / _ ). */
export const TRACKING_NUMBER_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ./_-]*$/u;

/** What an order's history records, and who made each change. */
export const ORDER_EVENT_KINDS = ['status', 'payment'] as const;
export const ORDER_EVENT_ACTORS = ['salon', 'staff', 'rep'] as const;

export type OrderSort = (typeof ORDER_SORTS)[number];
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];
export type OrderEventActor = (typeof ORDER_EVENT_ACTORS)[number];

export type {
  AdminOrderDetail,
  AdminOrderEvent,
  AdminOrderPage,
  AdminOrderQuery,
  AdminOrderRow,
  OrderConflictBody,
} from './admin-orders-schemas';
