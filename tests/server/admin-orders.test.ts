/**
 * The back office's orders through /api/admin/orders: the list (filters, search, sorts,
 * pages), its CSV export, an order's page with its history, and the rules of staff moves
 * and payments, each change written with its history and audit entry.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { auditLog, orderEvents, orderItems, orders, products } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { csvCell, EXPORT_BATCH } from '../../server/services/admin-orders';
import { OrderConflictSchema } from '../../src/contracts/admin-orders-schemas';
import type {
  AdminOrderDetail,
  AdminOrderPage,
  OrderConflictBody,
} from '../../src/contracts/admin-orders';
import type { Order, OrderStatus, PaymentStatus } from '../../src/contracts/orders';
import { order, salon, staffMember, type Salon, type Staff } from './factories';
import { bearer, like, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Staff;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  staff = await staffMember(app, testDb.database.db, 'orders.staff@example.com');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

const get = (url: string, tokens: Tokens = staff.tokens) =>
  app.inject({ url, headers: bearer(tokens) });

const post = (url: string, payload: object, key = randomUUID()) =>
  app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...bearer(staff.tokens), 'idempotency-key': key },
  });

const eventsOf = (orderId: number) =>
  db()
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.id));

const auditOf = (orderId: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'order'), eq(auditLog.entityId, orderId)));

const rowOf = async (orderId: number) =>
  (await db().select().from(orders).where(eq(orders.id, orderId)))[0];

/** Where staff may take an order from each status: the product's rules, written out. */
const NEXT_STATUS: Record<OrderStatus, OrderStatus[]> = {
  // A rep's order for a company not verified yet: its decision moves it on, staff may cancel.
  AWAITING_VERIFICATION: ['CANCELLED'],
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['PROCESSING', 'CANCELLED'],
  PROCESSING: ['SHIPPED'],
  SHIPPED: ['DELIVERED'],
  DELIVERED: [],
  CANCELLED: [],
};
const NEXT_PAYMENT: Record<PaymentStatus, PaymentStatus[]> = {
  PENDING: ['PAID', 'FAILED'],
  FAILED: ['PAID', 'PENDING'],
  PAID: ['REFUNDED'],
  REFUNDED: [],
};

const STATUSES = Object.keys(NEXT_STATUS) as OrderStatus[];
const PAYMENTS = Object.keys(NEXT_PAYMENT) as PaymentStatus[];

let buyer: Salon;
beforeAll(async () => {
  buyer = await salon(db(), { status: 'APPROVED', isVerified: true });
});

describe('POST /api/admin/orders/:id/status', () => {
  const cases = STATUSES.flatMap((from) =>
    STATUSES.map((to) => ({ from, to, allowed: NEXT_STATUS[from].includes(to) })),
  );

  it.each(cases)('$from → $to is allowed: $allowed', async ({ from, to, allowed }) => {
    const orderId = await order(db(), buyer, { status: from });
    const before = await rowOf(orderId);
    const response = await post(`/api/admin/orders/${orderId}/status`, {
      status: to,
      trackingNumber: 'RO123',
      reason: 'Closed for good',
    });
    if (allowed) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ order: Order }>().order.status).toBe(to);
      expect(await eventsOf(orderId)).toEqual([
        expect.objectContaining({
          kind: 'status',
          fromValue: from,
          toValue: to,
          actor: 'staff',
          actorId: staff.id,
          actorName: 'Staff Admin',
        }),
      ]);
      const [entry] = await auditOf(orderId);
      expect(entry).toMatchObject({
        action: to === 'CANCELLED' ? 'order.cancel' : 'order.status',
        actorId: staff.id,
        companyId: buyer.companyId,
        before: like.objectContaining({ status: from }),
        after: like.objectContaining({ status: to }),
      });
      return;
    }
    expect(response.statusCode).toBe(409);
    const body = response.json<OrderConflictBody>();
    expect(body).toMatchObject({
      code: 'ORDER_STATUS_CONFLICT',
      details: { allowed: NEXT_STATUS[from] },
    });
    expect(body.message).toContain(from);
    // Nothing changed, and nothing was recorded.
    expect(await rowOf(orderId)).toEqual(before);
    expect(await eventsOf(orderId)).toEqual([]);
    expect(await auditOf(orderId)).toEqual([]);
  });

  it('ships only with a tracking number, trimmed, at most 100 characters', async () => {
    const orderId = await order(db(), buyer, { status: 'PROCESSING' });
    const url = `/api/admin/orders/${orderId}/status`;
    for (const [trackingNumber, code] of [
      [undefined, 'required'],
      ['   ', 'required'],
      ['A'.repeat(101), 'tooLong'],
      ['=HYPERLINK("x")', 'invalidValue'],
    ] as const) {
      const refused = await post(url, { status: 'SHIPPED', trackingNumber });
      expect(refused.statusCode, String(trackingNumber)).toBe(400);
      expect(refused.json()).toMatchObject({ details: [{ field: 'trackingNumber', code }] });
    }
    expect((await rowOf(orderId))?.status).toBe('PROCESSING');
    expect(await eventsOf(orderId)).toEqual([]);

    const longest = `  ${'7'.repeat(100)}  `;
    const shipped = await post(url, { status: 'SHIPPED', trackingNumber: longest });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json<{ order: Order }>().order).toMatchObject({
      status: 'SHIPPED',
      trackingNumber: '7'.repeat(100),
    });
    expect((await eventsOf(orderId))[0]?.note).toBe('7'.repeat(100));
    const [entry] = await auditOf(orderId);
    expect(entry?.after).toEqual({ status: 'SHIPPED', trackingNumber: '7'.repeat(100) });
  });

  it('cancels only with a reason, and puts the stock back', async () => {
    const [product] = await db()
      .update(products)
      .set({ stock: 10 })
      .where(eq(products.id, 3))
      .returning();
    const orderId = await order(db(), buyer, { status: 'CONFIRMED' });
    await db()
      .insert(orderItems)
      .values({
        orderId,
        productId: 3,
        productName: product?.name ?? '',
        productSku: product?.sku ?? '',
        quantity: 4,
        unitPrice: '10.00',
        totalPrice: '40.00',
      });
    const url = `/api/admin/orders/${orderId}/status`;
    const noReason = await post(url, { status: 'CANCELLED', reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ details: [{ field: 'reason', code: 'required' }] });

    const cancelled = await post(url, { status: 'CANCELLED', reason: ' Duplicate order ' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<{ order: Order }>().order).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'Duplicate order',
    });
    const [stock] = await db()
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, 3));
    expect(stock?.stock).toBe(14);
    expect((await auditOf(orderId))[0]).toMatchObject({
      action: 'order.cancel',
      note: 'Duplicate order',
      after: { status: 'CANCELLED', cancellationReason: 'Duplicate order' },
    });
    expect((await eventsOf(orderId))[0]).toMatchObject({ note: 'Duplicate order' });
  });

  it('answers a replay of the same key once, with one history entry', async () => {
    const orderId = await order(db(), buyer);
    const key = randomUUID();
    const url = `/api/admin/orders/${orderId}/status`;
    expect((await post(url, { status: 'CONFIRMED' }, key)).statusCode).toBe(200);
    const again = await post(url, { status: 'CONFIRMED' }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await eventsOf(orderId)).toHaveLength(1);
    expect(await auditOf(orderId)).toHaveLength(1);
  });

  it('can answer every 409 of its key, a request still running included', () => {
    // The route's 409 shape also carries what `once` answers while the key is held.
    expect(
      Value.Check(OrderConflictSchema, {
        message: 'This request is still being processed. Please try again in a moment.',
        code: 'REQUEST_IN_PROGRESS',
      }),
    ).toBe(true);
  });

  it('answers 404 for an order that does not exist', async () => {
    expect(
      (await post('/api/admin/orders/2000000000/status', { status: 'CONFIRMED' })).statusCode,
    ).toBe(404);
  });
});

describe('POST /api/admin/orders/:id/payment', () => {
  const cases = PAYMENTS.flatMap((from) =>
    PAYMENTS.map((to) => ({ from, to, allowed: NEXT_PAYMENT[from].includes(to) })),
  );

  it.each(cases)('$from → $to is allowed: $allowed', async ({ from, to, allowed }) => {
    const orderId = await order(db(), buyer, { paymentStatus: from });
    const response = await post(`/api/admin/orders/${orderId}/payment`, {
      paymentStatus: to,
      note: 'Bank statement',
    });
    if (allowed) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ order: Order }>().order.paymentStatus).toBe(to);
      expect(await eventsOf(orderId)).toEqual([
        expect.objectContaining({ kind: 'payment', fromValue: from, toValue: to, actor: 'staff' }),
      ]);
      expect(await auditOf(orderId)).toEqual([
        expect.objectContaining({
          action: 'order.payment',
          before: { paymentStatus: from },
          after: { paymentStatus: to },
          note: 'Bank statement',
        }),
      ]);
      return;
    }
    expect(response.statusCode).toBe(409);
    expect(response.json<OrderConflictBody>()).toMatchObject({
      code: 'ORDER_PAYMENT_CONFLICT',
      details: { allowed: NEXT_PAYMENT[from] },
    });
    expect((await rowOf(orderId))?.paymentStatus).toBe(from);
    expect(await eventsOf(orderId)).toEqual([]);
    expect(await auditOf(orderId)).toEqual([]);
  });

  // Nothing is due on a cancelled order: no payment is awaited or fails; a transfer that
  // arrives anyway is recorded as paid, and a payment made may be refunded.
  const cancelledAllowed: Record<string, string[]> = {
    PENDING: ['PAID'],
    FAILED: ['PAID'],
    PAID: ['REFUNDED'],
    REFUNDED: [],
  };
  const cancelledCases = PAYMENTS.flatMap((from) =>
    PAYMENTS.map((to) => ({ from, to, allowed: cancelledAllowed[from]?.includes(to) ?? false })),
  );

  it.each(cancelledCases)(
    'on a cancelled order, $from → $to is allowed: $allowed',
    async ({ from, to, allowed }) => {
      const orderId = await order(db(), buyer, { status: 'CANCELLED', paymentStatus: from });
      const before = await rowOf(orderId);
      const response = await post(`/api/admin/orders/${orderId}/payment`, { paymentStatus: to });
      if (allowed) {
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json<{ order: Order }>().order).toMatchObject({
          status: 'CANCELLED',
          paymentStatus: to,
        });
        return;
      }
      expect(response.statusCode).toBe(409);
      const body = response.json<OrderConflictBody>();
      expect(Value.Check(OrderConflictSchema, body)).toBe(true);
      expect(body).toMatchObject({
        code: 'ORDER_PAYMENT_CONFLICT',
        params: { from, to },
        details: { allowed: cancelledAllowed[from] },
      });
      if (NEXT_PAYMENT[from].includes(to)) expect(body.message).toContain('CANCELLED');
      expect(await rowOf(orderId)).toEqual(before);
      expect(await eventsOf(orderId)).toEqual([]);
      expect(await auditOf(orderId)).toEqual([]);
    },
  );

  it('offers only a late transfer on a cancelled order that was never paid', async () => {
    for (const paymentStatus of ['PENDING', 'FAILED'] as const) {
      const orderId = await order(db(), buyer, { status: 'CANCELLED', paymentStatus });
      const detail = (await get(`/api/admin/orders/${orderId}`)).json<AdminOrderDetail>();
      expect(detail.allowed).toEqual({ status: [], paymentStatus: ['PAID'] });
    }
  });
});

describe('GET /api/admin/orders/:id', () => {
  it('shows the order, its company, who placed it, its history and what may come next', async () => {
    const shop = await salon(db(), { status: 'APPROVED', isVerified: true, name: 'Salon Iris' });
    await db().update(products).set({ stock: 20 }).where(eq(products.id, 2));
    const cartAdd = await app.inject({
      method: 'POST',
      url: '/api/cart/add',
      payload: { productId: 2, quantity: 3 },
      headers: { ...bearer(shop.tokens), 'idempotency-key': randomUUID() },
    });
    expect(cartAdd.statusCode, cartAdd.body).toBe(200);
    const checkout = await app.inject({
      method: 'POST',
      url: '/api/cart/checkout',
      payload: {
        shippingAddress: {
          firstName: 'Ioana',
          lastName: 'Pop',
          street: 'Str. Lungă 1',
          city: 'Cluj-Napoca',
          zipCode: '400001',
          country: 'Romania',
          phone: '+40 264 555 000',
        },
        notes: 'Ring twice',
        clientReference: 'L-AB12',
      },
      headers: { ...bearer(shop.tokens), 'idempotency-key': randomUUID() },
    });
    expect(checkout.statusCode, checkout.body).toBe(201);
    const placed = checkout.json<{ order: Order }>().order;
    await post(`/api/admin/orders/${placed.id}/status`, { status: 'CONFIRMED' });
    await post(`/api/admin/orders/${placed.id}/payment`, { paymentStatus: 'PAID' });
    // The salon cancels it: its change is in the history too, as the salon's.
    const cancel = await app.inject({
      method: 'DELETE',
      url: `/api/orders/${placed.id}`,
      payload: { cancellationReason: 'Ordered twice' },
      headers: { ...bearer(shop.tokens), 'idempotency-key': randomUUID() },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);

    const response = await get(`/api/admin/orders/${placed.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json<AdminOrderDetail>();
    expect(detail.order).toMatchObject({
      orderNumber: placed.orderNumber,
      status: 'CANCELLED',
      paymentStatus: 'PAID',
      notes: 'Ring twice',
      clientReference: 'L-AB12',
      cancellationReason: 'Ordered twice',
      trackingNumber: '',
      shippingAddress: { city: 'Cluj-Napoca' },
      orderItems: [expect.objectContaining({ productId: 2, quantity: 3 })],
    });
    expect(detail.company).toEqual({ id: shop.companyId, name: 'Salon Iris' });
    expect(detail.placedBy).toMatchObject({ id: shop.userId, firstName: 'Ana' });
    expect(detail.events.map((e) => [e.kind, e.from, e.to, e.actor.kind, e.actor.name])).toEqual([
      ['status', null, 'PENDING', 'salon', ''],
      ['status', 'PENDING', 'CONFIRMED', 'staff', 'Staff Admin'],
      ['payment', 'PENDING', 'PAID', 'staff', 'Staff Admin'],
      ['status', 'CONFIRMED', 'CANCELLED', 'salon', ''],
    ]);
    expect(detail.events[3]?.note).toBe('Ordered twice');
    expect(detail.allowed).toEqual({ status: [], paymentStatus: ['REFUNDED'] });
  });

  it('answers 404 for an order that does not exist', async () => {
    expect((await get('/api/admin/orders/2000000000')).statusCode).toBe(404);
  });
});

describe('GET /api/admin/orders', () => {
  let shop: Salon;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    shop = await salon(db(), { status: 'APPROVED', isVerified: true, name: 'Salon Lista' });
    const make = async (name: string, fields: Parameters<typeof order>[2]) => {
      ids[name] = await order(db(), shop, fields);
    };
    // Bucharest is UTC+2 in winter: 22:30 UTC on 1 March is 2 March there.
    await make('a', {
      orderNumber: `FP-A%_1-${randomUUID().slice(0, 6)}`,
      createdAt: new Date('2026-03-01T22:30:00Z'),
      total: '50.00',
    });
    await make('b', {
      orderNumber: `FP-B-${randomUUID().slice(0, 6)}`,
      createdAt: new Date('2026-03-01T21:30:00Z'),
      total: '300.00',
      status: 'SHIPPED',
      paymentStatus: 'PAID',
    });
    await make('c', {
      orderNumber: `fp-c-${randomUUID().slice(0, 6)}`,
      createdAt: new Date('2026-03-05T10:00:00Z'),
      total: '120.00',
      status: 'SHIPPED',
    });
    await db()
      .insert(orderItems)
      .values([
        {
          orderId: ids.a ?? 0,
          productName: 'X',
          productSku: 'X',
          quantity: 2,
          unitPrice: '1',
          totalPrice: '2',
        },
        {
          orderId: ids.a ?? 0,
          productName: 'Y',
          productSku: 'Y',
          quantity: 5,
          unitPrice: '1',
          totalPrice: '5',
        },
      ]);
  });

  const list = async (query: string) => {
    const response = await get(`/api/admin/orders?companyId=${shop.companyId}&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AdminOrderPage>();
  };
  const namesOf = async (query: string) =>
    (await list(query)).orders.map((row) => Object.keys(ids).find((k) => ids[k] === row.id));

  it('shows what the list needs of each order, newest first', async () => {
    const page = await list('');
    expect(page.orders.map((row) => row.id)).toEqual([ids.c, ids.a, ids.b]);
    expect(page.orders[1]).toEqual({
      id: ids.a,
      orderNumber: like.stringMatching(/^FP-A%_1-/),
      company: { id: shop.companyId, name: 'Salon Lista' },
      createdAt: '2026-03-01T22:30:00.000Z',
      status: 'PENDING',
      paymentStatus: 'PENDING',
      total: 50,
      currency: 'EUR',
      itemCount: 7,
      placedBy: null,
    });
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
  });

  it.each([
    ['status=SHIPPED', ['c', 'b']],
    ['paymentStatus=PAID', ['b']],
    ['status=SHIPPED&paymentStatus=PENDING', ['c']],
    // Days in Bucharest: a is on 2 March there, b on 1 March.
    ['from=2026-03-02', ['c', 'a']],
    ['to=2026-03-01', ['b']],
    ['from=2026-03-02&to=2026-03-02', ['a']],
    ['search=fp-b', ['b']],
    ['search=FP-C', ['c']],
    // % and _ are matched as themselves, not as wildcards.
    ['search=%25_', ['a']],
    ['search=A_1', []],
    ['sortBy=total&sortOrder=desc', ['b', 'c', 'a']],
    ['sortBy=total&sortOrder=asc', ['a', 'c', 'b']],
    ['sortBy=orderNumber&sortOrder=asc', ['a', 'b', 'c']],
    ['sortBy=createdAt&sortOrder=asc', ['b', 'a', 'c']],
  ])('with %s lists %j', async (query, expected) => {
    expect(await namesOf(query)).toEqual(expected);
  });

  it('pages the list, with the same totals on every page', async () => {
    const first = await list('limit=2');
    const second = await list('limit=2&page=2');
    expect(first.orders.map((r) => r.id)).toEqual([ids.c, ids.a]);
    expect(second.orders.map((r) => r.id)).toEqual([ids.b]);
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
  });

  it.each([
    ['status=LOST', 'status'],
    ['from=2026-02-30', 'from'],
    ['to=01.03.2026', 'to'],
    ['sortBy=company', 'sortBy'],
    ['limit=101', 'limit'],
  ])('refuses %s with a 400 naming the field', async (query, field) => {
    const response = await get(`/api/admin/orders?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ details: [expect.objectContaining({ field })] });
  });
});

/** The rows of a CSV answer: its BOM checked and dropped, quoted cells read back. */
function parseCsv(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.slice(1);
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i];
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += ch;
  }
  return rows;
}

describe('GET /api/admin/orders/export.csv', () => {
  it('quotes cells, keeps formulas out and names the file', async () => {
    const shop = await salon(db(), {
      status: 'APPROVED',
      isVerified: true,
      name: '=HYPERLINK("http://x", "Salon, Ștefan")',
    });
    const orderId = await order(db(), shop, {
      orderNumber: `+FP-${randomUUID().slice(0, 6)}`,
      total: '1234.50',
      createdAt: new Date('2026-04-01T08:00:00Z'),
    });
    const response = await get(`/api/admin/orders/export.csv?companyId=${shop.companyId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(response.body);
    expect(rows[0]).toEqual([
      'Order number',
      'Company ID',
      'Company',
      'Placed at (UTC)',
      'Status',
      'Payment status',
      'Items',
      'Total',
      'Currency',
      'Placed by',
    ]);
    const number = (await rowOf(orderId))?.orderNumber ?? '';
    expect(rows.slice(1)).toEqual([
      [
        `'${number}`,
        String(shop.companyId),
        `'=HYPERLINK("http://x", "Salon, Ștefan")`,
        '2026-04-01T08:00:00.000Z',
        'PENDING',
        'PENDING',
        '0',
        '1234.50',
        'EUR',
        '',
      ],
    ]);
  });

  it.each([
    ['=1+1', `"'=1+1"`],
    ['+40 722', `"'+40 722"`],
    ['-3', `"'-3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tTab', `"'\tTab"`],
    ['\rCR', `"'\rCR"`],
    ['Salon "Iris"', '"Salon ""Iris"""'],
    ['a,b', '"a,b"'],
    ['two\nlines', '"two\nlines"'],
    ['Brașov', 'Brașov'],
  ])('writes the cell %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('holds every matching order, past one batch, in the order asked for, with the filters', async () => {
    const shop = await salon(db(), { status: 'APPROVED', isVerified: true });
    const count = EXPORT_BATCH + 5;
    await db().execute(sql`
      INSERT INTO orders (order_number, company_id, user_id, status, subtotal, total,
        ship_first_name, ship_last_name, ship_street, ship_city, ship_zip_code, ship_country,
        ship_phone, created_at)
      SELECT 'EXP-' || ${shop.companyId} || '-' || lpad(n::text, 5, '0'), ${shop.companyId},
        ${shop.userId}, CASE WHEN n % 2 = 0 THEN 'CONFIRMED' ELSE 'PENDING' END,
        (n % 7)::numeric, (n % 7)::numeric, 'A', 'B', 'C', 'D', 'E', 'Romania', '1',
        timestamptz '2026-01-01' + n * interval '1 minute'
      FROM generate_series(1, ${count}) AS n`);
    const all = parseCsv(
      (await get(`/api/admin/orders/export.csv?companyId=${shop.companyId}`)).body,
    ).slice(1);
    expect(all).toHaveLength(count);
    // Newest first, as the list.
    expect(all[0]?.[0]).toBe(`EXP-${shop.companyId}-${String(count).padStart(5, '0')}`);
    expect(all.at(-1)?.[0]).toBe(`EXP-${shop.companyId}-00001`);
    expect(new Set(all.map((r) => r[0])).size).toBe(count);

    const confirmed = parseCsv(
      (await get(`/api/admin/orders/export.csv?companyId=${shop.companyId}&status=CONFIRMED`)).body,
    ).slice(1);
    expect(confirmed).toHaveLength(Math.floor(count / 2));
    expect(confirmed.every((r) => r[4] === 'CONFIRMED')).toBe(true);

    // By total, ties by id: every row once, totals never going down.
    const byTotal = parseCsv(
      (
        await get(
          `/api/admin/orders/export.csv?companyId=${shop.companyId}&sortBy=total&sortOrder=asc`,
        )
      ).body,
    ).slice(1);
    expect(new Set(byTotal.map((r) => r[0])).size).toBe(count);
    const totals = byTotal.map((r) => Number(r[7]));
    expect(totals).toEqual([...totals].sort((x, y) => x - y));
  });

  it('refuses a filter it does not know with a 400 JSON', async () => {
    const response = await get('/api/admin/orders/export.csv?from=yesterday');
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('is for staff only', async () => {
    const salonUser = await salon(db(), { status: 'APPROVED', isVerified: true });
    expect((await get('/api/admin/orders/export.csv', salonUser.tokens)).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/admin/orders/export.csv' })).statusCode).toBe(401);
  });
});

describe('the payment filters of the list and of its CSV export', () => {
  let shop: Salon;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    shop = await salon(db(), { status: 'APPROVED', isVerified: true });
    const rows: [string, OrderStatus, PaymentStatus][] = [
      ['awaited', 'PENDING', 'PENDING'],
      ['returned', 'CONFIRMED', 'FAILED'],
      ['paid', 'SHIPPED', 'PAID'],
      ['cancelledAwaited', 'CANCELLED', 'PENDING'],
      ['cancelledReturned', 'CANCELLED', 'FAILED'],
      ['cancelledPaid', 'CANCELLED', 'PAID'],
    ];
    for (const [name, status, paymentStatus] of rows) {
      ids[name] = await order(db(), shop, { status, paymentStatus });
    }
  });

  const nameOf = (id: number) => Object.keys(ids).find((key) => ids[key] === id);
  const listed = async (query: string) => {
    const response = await get(`/api/admin/orders?companyId=${shop.companyId}&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<AdminOrderPage>()
      .orders.map((row) => nameOf(row.id))
      .sort();
  };
  const exported = async (query: string) => {
    const response = await get(`/api/admin/orders/export.csv?companyId=${shop.companyId}&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const byNumber = new Map(
      await Promise.all(
        Object.entries(ids).map(
          async ([name, id]) => [(await rowOf(id))?.orderNumber, name] as const,
        ),
      ),
    );
    return parseCsv(response.body)
      .slice(1)
      .map((row) => byNumber.get(row[0]))
      .sort();
  };

  it.each([
    // Nothing is due on a cancelled order: it is awaited by no one.
    ['paymentStatus=PENDING', ['awaited']],
    ['paymentStatus=FAILED', ['returned']],
    ['status=CANCELLED&paymentStatus=PENDING', []],
    // Money that did move stays listed, cancelled or not: it may be refunded.
    ['paymentStatus=PAID', ['cancelledPaid', 'paid']],
    ['status=CANCELLED', ['cancelledAwaited', 'cancelledPaid', 'cancelledReturned']],
  ])('with %s lists and exports %j', async (query, expected) => {
    expect(await listed(query)).toEqual(expected);
    expect(await exported(query)).toEqual(expected);
  });

  it('says in the export that nothing is due on a cancelled order never paid, as the screens do', async () => {
    const response = await get(`/api/admin/orders/export.csv?companyId=${shop.companyId}`);
    const numbers = new Map(
      await Promise.all(
        Object.entries(ids).map(
          async ([name, id]) => [(await rowOf(id))?.orderNumber, name] as const,
        ),
      ),
    );
    const payments: Record<string, string | undefined> = {};
    for (const row of parseCsv(response.body).slice(1)) {
      payments[numbers.get(row[0]) ?? row[0] ?? ''] = row[5];
    }
    expect(payments).toEqual({
      awaited: 'PENDING',
      returned: 'FAILED',
      paid: 'PAID',
      cancelledAwaited: 'NONE_DUE',
      cancelledReturned: 'NONE_DUE',
      cancelledPaid: 'PAID',
    });
  });
});
