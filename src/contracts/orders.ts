/**
 * Carts and orders as the /api sends them (docs/api.md#cart, docs/api.md#orders) and their
 * states (docs/product.md#orders). Every first screen loads this module (the header's cart):
 * what only the cart's, orders' and product screens use is in ./order-lines.
 */

import type { Cart, CartItem } from './orders-schemas';
import type { ORDER_STATUSES, PAYMENT_STATUSES } from './states';

/** The shapes are stated once, as JSON schemas; these are their types. */
export { ORDER_STATUSES, PAYMENT_STATUSES } from './states';

export type {
  Cart,
  CartItem,
  CartProduct,
  Order,
  OrderItem,
  ShippingAddress,
} from './orders-schemas';

export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A customer may cancel an order only while it is in one of these states. */
export const CANCELLABLE_STATUSES: readonly OrderStatus[] = ['PENDING', 'CONFIRMED'];
export const canCancel = (status: OrderStatus): boolean => CANCELLABLE_STATUSES.includes(status);

/** The staff's path for an order; each step moves it to the next state. */
export const ORDER_FLOW: readonly OrderStatus[] = [
  'PENDING',
  'CONFIRMED',
  'PROCESSING',
  'SHIPPED',
  'DELIVERED',
];

/** Longest order note accepted. */
export const MAX_NOTES_LENGTH = 1000;
/** Largest quantity of one line: a guard against typos like 10000 for 100. */
export const MAX_LINE_QUANTITY = 9999;

/** Money rounded to cents, as every total is. */
export const roundMoney = (amount: number): number => Math.round(amount * 100) / 100;

/** A cart line of a product at a price (the server's, or the mirror's while offline). */
export function cartLine(
  product: { id: number; name: string; sku: string; images: string[]; stock: number },
  quantity: number,
  price: number,
): CartItem {
  return {
    id: product.id,
    productId: product.id,
    quantity,
    price,
    lineTotal: roundMoney(price * quantity),
    product: {
      id: product.id,
      name: product.name,
      sku: product.sku,
      images: product.images,
      stock: product.stock,
      stockQuantity: product.stock,
      inStock: product.stock > 0,
    },
  };
}

/** A cart of these lines, with its totals. */
export function cartOf(items: CartItem[]): Cart {
  const subtotal = roundMoney(items.reduce((sum, item) => sum + item.lineTotal, 0));
  return {
    items,
    subtotal,
    total: subtotal,
    itemCount: items.reduce((sum, item) => sum + item.quantity, 0),
    currency: 'EUR',
  };
}

export const EMPTY_CART: Cart = cartOf([]);
