/**
 * Whether anything is due on an order (docs/product.md#orders): a cancelled order that was
 * never paid owes nothing, whatever its payment status still says. One rule for the
 * payment badge of every screen and for the back office's filters of unpaid orders. Not
 * in ./orders: every first screen loads that one, and none of them shows a payment.
 */
import type { Order, PaymentStatus } from './orders';

/** The payment statuses under which an order's total is still owed, unless it is cancelled. */
export const UNPAID_STATUSES: readonly PaymentStatus[] = ['PENDING', 'FAILED'];

/** What an order's payment badge says: its payment status, or that no payment is due. */
export type PaymentBadge = PaymentStatus | 'NONE_DUE';

export function paymentBadge(order: Pick<Order, 'status' | 'paymentStatus'>): PaymentBadge {
  return order.status === 'CANCELLED' && UNPAID_STATUSES.includes(order.paymentStatus)
    ? 'NONE_DUE'
    : order.paymentStatus;
}
