import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../src/contracts/orders';
import { db, type StoredOrder } from '../../src/lib/db/db';
import { readRepOrdersSince } from '../../src/lib/sync/rep-cart';
import {
  startOfLocalDay,
  summarizeDay,
  type CustomerDay,
} from '../../src/features/field-sales/day-summary';
import { mergeOrders, type ListedOrder } from '../../src/features/field-sales/listed-orders';
import { ADDRESS } from '../fixtures/shipping-address';

// A sales rep's day: its orders on the device and on the server, each once, grouped per
// customer with the totals of each and of the day.

const REP = 7;

/** An order as the server sends it. */
function serverOrder(id: number, createdAt: string, fields: Partial<Order> = {}): Order {
  return {
    id,
    orderNumber: `ORD-${id}`,
    status: 'PENDING',
    paymentStatus: 'PENDING',
    paymentMethod: 'BANK_TRANSFER',
    subtotal: 10,
    total: 10,
    currency: 'EUR',
    notes: '',
    clientReference: '',
    shippingAddress: ADDRESS,
    orderItems: [],
    itemCount: 0,
    cancellationReason: '',
    trackingNumber: '',
    placedBy: { id: REP, firstName: 'Victor', lastName: 'Rep' },
    createdAt,
    updatedAt: createdAt,
    ...fields,
  };
}

/** An order taken on the device for `customerId`, still waiting to be sent. */
function waiting(localRef: string, customerId: number, createdAt: string, total = 10): StoredOrder {
  return {
    ref: `local:${localRef}`,
    userId: REP,
    state: 'waiting',
    createdAt,
    order: serverOrder(0, createdAt, { orderNumber: '', clientReference: localRef, total }),
    localRef,
    customerId,
    signature: 'iVBORw0K',
  };
}

/** An order taken on the device and sent: the server's, bound to its customer. */
function sent(order: Order, customerId: number, localRef: string): StoredOrder {
  return {
    ref: `order:${order.id}`,
    userId: REP,
    state: 'synced',
    createdAt: order.createdAt,
    order,
    localRef,
    customerId,
  };
}

describe('mergeOrders', () => {
  it('lists an order the device sent once, as the server has it, with what the device adds', () => {
    const fromServer = serverOrder(41, '2026-11-27T09:00:00.000Z', { status: 'CONFIRMED' });
    const onDevice = sent(serverOrder(41, '2026-11-27T09:00:00.000Z'), 3, 'L-SENT0001');
    const [listed, ...rest] = mergeOrders([onDevice], [fromServer]);
    expect(rest).toEqual([]);
    expect(listed).toMatchObject({
      key: 'order:41',
      state: 'synced',
      localRef: 'L-SENT0001',
      customerId: 3,
      onDevice: true,
    });
    expect(listed?.order.status).toBe('CONFIRMED');
  });

  it('finds by its reference an order the server took while the device still waits for the answer', () => {
    const onDevice = waiting('L-WAIT0001', 3, '2026-11-27T09:00:00.000Z');
    const fromServer = serverOrder(42, '2026-11-27T09:00:02.000Z', {
      clientReference: 'L-WAIT0001',
    });
    const listed = mergeOrders([onDevice], [fromServer]);
    expect(listed.map((order) => [order.key, order.state, order.signature])).toEqual([
      ['order:42', 'synced', 'iVBORw0K'],
    ]);
  });

  it('keeps the orders only one side holds, newest first', () => {
    const listed = mergeOrders(
      [waiting('L-WAIT0002', 3, '2026-11-27T11:00:00.000Z')],
      [serverOrder(43, '2026-11-27T12:00:00.000Z'), serverOrder(44, '2026-11-27T10:00:00.000Z')],
    );
    expect(listed.map((order) => [order.key, order.onDevice])).toEqual([
      ['order:43', false],
      ['local:L-WAIT0002', true],
      ['order:44', false],
    ]);
  });
});

describe('summarizeDay', () => {
  const listed = (key: string, customerId: number, total: number, status: Order['status']) =>
    ({
      key,
      order: serverOrder(1, '2026-11-27T09:00:00.000Z', { total, status }),
      state: 'synced',
      onDevice: true,
      customerId,
    }) satisfies ListedOrder;

  const keys = (day: CustomerDay) => day.orders.map((order) => order.key);

  it('groups the orders per customer, the customer ordered for last first, with each one’s total and the day’s', () => {
    const summary = summarizeDay(
      [
        listed('c', 5, 0.2, 'PENDING'),
        listed('b', 3, 0.1, 'PENDING'),
        listed('a', 5, 0.1, 'AWAITING_VERIFICATION'),
      ],
      (order) => order.customerId ?? 0,
    );
    expect(
      summary.customers.map((day) => [day.customerId, keys(day), day.count, day.total]),
    ).toEqual([
      [5, ['c', 'a'], 2, 0.3],
      [3, ['b'], 1, 0.1],
    ]);
    expect([summary.count, summary.total]).toEqual([3, 0.4]);
  });

  it('lists an order staff cancelled without counting it', () => {
    const summary = summarizeDay(
      [listed('b', 3, 25, 'CANCELLED'), listed('a', 3, 40, 'PENDING')],
      () => 3,
    );
    expect(summary.customers.map((day) => [keys(day), day.count, day.total])).toEqual([
      [['b', 'a'], 1, 40],
    ]);
    expect([summary.count, summary.total]).toEqual([1, 40]);
  });

  it('says nothing of a day without orders', () => {
    expect(summarizeDay([], () => 0)).toEqual({ customers: [], count: 0, total: 0 });
  });
});

describe('startOfLocalDay', () => {
  it('is midnight of the same day in the device’s time zone', () => {
    const start = startOfLocalDay(new Date(2026, 10, 27, 23, 59, 30));
    expect(start).toEqual(new Date(2026, 10, 27, 0, 0, 0, 0));
    expect(startOfLocalDay(start)).toEqual(start);
  });
});

describe('readRepOrdersSince', () => {
  afterEach(async () => {
    await db.orders.clear();
  });

  it('reads the rep’s orders of every customer taken since the moment, newest first, and nothing else', async () => {
    const since = new Date('2026-11-27T00:00:00.000Z');
    await db.orders.bulkPut([
      waiting('L-AT000001', 3, since.toISOString()),
      sent(serverOrder(51, '2026-11-27T10:00:00.000Z'), 5, 'L-SENT0051'),
      waiting('L-LATER001', 3, '2026-11-27T12:00:00.000Z'),
      // Yesterday's, another user's, and an order of the salon's own kind (no customer).
      waiting('L-BEFORE01', 3, '2026-11-26T23:59:59.999Z'),
      { ...waiting('L-OTHER001', 3, '2026-11-27T11:00:00.000Z'), userId: REP + 1 },
      { ...sent(serverOrder(52, '2026-11-27T11:30:00.000Z'), 5, ''), customerId: undefined },
    ]);
    const read = await readRepOrdersSince(REP, since);
    expect(read.map((stored) => stored.ref)).toEqual([
      'local:L-LATER001',
      'order:51',
      'local:L-AT000001',
    ]);
    expect(await readRepOrdersSince(null, since)).toEqual([]);
  });
});
