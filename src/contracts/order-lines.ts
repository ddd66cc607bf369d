/**
 * Cart and order lines as the screens change and show them: the cart's quantity rule and
 * why a typed quantity was changed (docs/product.md#cart), a line's picture, an order's
 * tracking number and whether anything is due on it (docs/product.md#orders). Apart from
 * ./orders, which every first screen loads: only the product, cart and orders screens, the
 * back office's orders (and the outbox) need these.
 */
import type { Product } from './catalogue';
import { MAX_LINE_QUANTITY, type PaymentStatus } from './orders';
import type { Order } from './orders-schemas';

/**
 * The cart's quantity rule (docs/product.md#cart): at least 1, at most the stock; an
 * unknown or non-positive stock allows only 1. Non-numbers become 1.
 */
export function clampQuantity(value: number, stock: number | null | undefined): number {
  const max = stock && stock > 0 ? Math.min(stock, MAX_LINE_QUANTITY) : 1;
  const whole = Number.isFinite(value) ? Math.floor(value) : 1;
  return Math.min(Math.max(whole, 1), max);
}

/** Why a typed quantity was changed: above the stock, above a line's most, or under 1. */
export type QuantityLimit =
  { kind: 'stock'; count: number } | { kind: 'line'; count: number } | { kind: 'least'; count: 1 };

/** The rule a typed quantity broke, or null when it was kept as typed. */
export function quantityLimit(
  typed: number,
  stock: number | null | undefined,
): QuantityLimit | null {
  const kept = clampQuantity(typed, stock);
  if (!Number.isFinite(typed) || kept === Math.floor(typed)) return null;
  if (typed < 1) return { kind: 'least', count: 1 };
  return stock && stock > MAX_LINE_QUANTITY
    ? { kind: 'line', count: kept }
    : { kind: 'stock', count: kept };
}

/**
 * The picture of a cart or order line (docs/product.md#cart): the last picture under
 * /uploads/ when there is one, otherwise the first.
 */
export function lineThumbnail(images: readonly string[]): string | undefined {
  const uploads = images.filter((path) => path.startsWith('/uploads/'));
  return uploads[uploads.length - 1] ?? images[0];
}

/**
 * An order's tracking number, '' when it has none. Orders kept on a device since before
 * the server sent the field lack it until the next sync.
 */
export const trackingNumberOf = (order: Partial<Pick<Order, 'trackingNumber'>>): string =>
  order.trackingNumber ?? '';

/** The payment statuses under which an order's total is still owed, unless it is cancelled. */
export const UNPAID_STATUSES: readonly PaymentStatus[] = ['PENDING', 'FAILED'];

/** What an order's payment badge says: its payment status, or that no payment is due. */
export type PaymentBadge = PaymentStatus | 'NONE_DUE';

/**
 * Whether anything is due on an order (docs/product.md#orders): a cancelled order that was
 * never paid owes nothing, whatever its payment status still says. One rule for the
 * payment badge of every screen and for the back office's filters of unpaid orders.
 */
export function paymentBadge(order: Pick<Order, 'status' | 'paymentStatus'>): PaymentBadge {
  return order.status === 'CANCELLED' && UNPAID_STATUSES.includes(order.paymentStatus)
    ? 'NONE_DUE'
    : order.paymentStatus;
}

/** Why a product cannot go into the cart now. */
export type AddProblem = 'noPrice' | 'outOfStock' | 'allInCart';

export type AddCheck =
  | {
      ok: true;
      /** What goes into the cart. */
      quantity: number;
      /** Fewer than asked: the rest of the stock. */
      limited: boolean;
    }
  | { ok: false; problem: AddProblem };

/**
 * How many of `product` may be added when the cart holds `inCart` and the user asks for
 * `wanted`: never beyond the stock the device knows of (the server refuses a line above
 * its stock), nor without a price to show.
 */
export function quantityToAdd(product: Product, inCart: number, wanted: number): AddCheck {
  if (product.price === undefined) return { ok: false, problem: 'noPrice' };
  if (product.stock <= 0) return { ok: false, problem: 'outOfStock' };
  const asked = Number.isFinite(wanted) ? Math.max(Math.floor(wanted), 1) : 1;
  const left = Math.min(product.stock, MAX_LINE_QUANTITY) - inCart;
  if (left <= 0) return { ok: false, problem: 'allInCart' };
  return { ok: true, quantity: Math.min(asked, left), limited: asked > left };
}
