/**
 * A sales rep's reads of its customers' orders (docs/api.md#field-sales): every order of
 * one customer, whoever placed it and on whichever device; every order the rep placed
 * since a moment, for its day; and the customer's signature of one, for its pro-forma.
 * All need the network: the device keeps only the orders taken on it (lib/sync/rep-cart).
 */
import type { RepOrder, RepOrderList } from '../../contracts/field-sales';
import type { Order } from '../../contracts/orders';
import { api } from './client';
import { isNotFound } from './errors';

/** The orders of one of the rep's customers, newest first. */
export async function fetchCustomerOrders(
  customerId: number,
  signal: AbortSignal | null = null,
): Promise<Order[]> {
  const { orders } = await api
    .get(`rep/customers/${customerId}/orders`, { signal, cache: 'no-store' })
    .json<{ orders: Order[] }>();
  return orders;
}

/**
 * The orders the signed-in rep placed at or after `since`, for any customer and on any
 * device, newest first, each with its customer.
 */
export async function fetchRepOrdersSince(
  since: Date,
  signal: AbortSignal | null = null,
): Promise<RepOrder[]> {
  const { orders } = await api
    .get('rep/orders', {
      searchParams: { since: since.toISOString() },
      signal,
      cache: 'no-store',
    })
    .json<RepOrderList>();
  return orders;
}

/** Bytes as base64, a slice at a time: one call with every byte overflows the stack. */
function toBase64(bytes: Uint8Array): string {
  const SLICE = 0x8000;
  let binary = '';
  for (let start = 0; start < bytes.length; start += SLICE) {
    binary += String.fromCharCode(...bytes.subarray(start, start + SLICE));
  }
  return btoa(binary);
}

/** The customer's signature of an order, a PNG in base64; null when the order has none. */
export async function fetchOrderSignature(orderId: number): Promise<string | null> {
  try {
    const png = await api.get(`orders/${orderId}/signature`, { cache: 'no-store' }).arrayBuffer();
    return toBase64(new Uint8Array(png));
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
