/**
 * A sales rep's day (docs/product.md#field-sales): the orders it took since midnight,
 * grouped per customer, with the number of orders and the money of each customer and of
 * the whole day.
 */
import { roundMoney } from '../../contracts/orders';
import type { ListedOrder } from './listed-orders';

/** One customer's orders of the day, newest first. */
export interface CustomerDay {
  customerId: number;
  orders: ListedOrder[];
  /** Its orders that stand: a cancelled one is listed, not counted. */
  count: number;
  total: number;
}

export interface DaySummary {
  /** The customer ordered for last comes first. */
  customers: CustomerDay[];
  count: number;
  total: number;
}

/** The moment the day of `now` began, in the device's time zone: the rep's day. */
export function startOfLocalDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** The moment the day after that of `now` begins, in the device's time zone. */
export function startOfNextLocalDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
}

/** Whether an order counts in the totals: one staff cancelled is no longer business. */
const stands = (listed: ListedOrder) => listed.order.status !== 'CANCELLED';

/**
 * Groups `orders` (newest first) by the customer `customerOf` names, and adds up each
 * customer's orders and the day's.
 */
export function summarizeDay(
  orders: readonly ListedOrder[],
  customerOf: (listed: ListedOrder) => number,
): DaySummary {
  const byCustomer = new Map<number, CustomerDay>();
  for (const listed of orders) {
    const customerId = customerOf(listed);
    let day = byCustomer.get(customerId);
    if (!day) {
      day = { customerId, orders: [], count: 0, total: 0 };
      byCustomer.set(customerId, day);
    }
    day.orders.push(listed);
    if (stands(listed)) {
      day.count += 1;
      day.total = roundMoney(day.total + listed.order.total);
    }
  }
  const customers = [...byCustomer.values()];
  return {
    customers,
    count: customers.reduce((sum, day) => sum + day.count, 0),
    total: roundMoney(customers.reduce((sum, day) => sum + day.total, 0)),
  };
}
