/**
 * The back office's orders: the list a page at a time and as CSV, an order's page with its
 * history, and staff moving an order along its path (contracts/admin-orders.ts) and
 * recording its payment. Each change locks the order, checks the rule, writes the order,
 * its history and the audit log in the one transaction it is given. The orders a rep took
 * for a company awaiting verification move on with staff's decision on the company.
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  lt,
  ne,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import {
  MAX_TRACKING_LENGTH,
  ORDER_TRANSITIONS,
  PAYMENT_TRANSITIONS,
  paymentMoves,
  TRACKING_NUMBER_PATTERN,
  type OrderSort,
} from '../../src/contracts/admin-orders.js';
import type {
  AdminOrderDetail,
  AdminOrderExportQuery,
  AdminOrderPage,
  AdminOrderPaymentBody,
  AdminOrderQuery,
  AdminOrderRow,
  AdminOrderStatusBody,
} from '../../src/contracts/admin-orders-schemas.js';
import type { Order, OrderStatus, PaymentStatus } from '../../src/contracts/orders.js';
import { paymentBadge, UNPAID_STATUSES } from '../../src/contracts/order-lines.js';
import type { ValidationCode } from '../../src/contracts/validation.js';
import en from '../../src/locales/en.json' with { type: 'json' };
import type { Db } from '../db/database.js';
import { companies, orderItems, orders, users } from '../db/schema.js';
import { changedFields, recordAudit, type AuditActor, type StaffActor } from './audit.js';
import { startOfDay } from './dashboard.js';
import { HttpError, notFound } from './errors.js';
import type { MailMessage } from './mail/kinds.js';
import { mailOrderFollowers } from './mail/queue.js';
import { orderHistory, recordOrderEvent } from './order-events.js';
import {
  lockOrderProducts,
  lockOrdersProducts,
  putBackStock,
  withItems,
  type OrderRow,
} from './orders.js';
import { containing, pageOf, paginationOf } from './pages.js';

/**
 * A 400 for one field, as `invalidFields` answers one (errors.ts), also for a value of the
 * wrong shape (`invalidValue`, a code the client translates like the shared rules' codes).
 */
function refusedField(field: string, code: ValidationCode | 'invalidValue'): HttpError {
  return new HttpError(400, en.validation.reviewFields, [
    { field, code, message: en.validation[code] },
  ]);
}

const DAY_MS = 86_400_000;

/** Midnight in Bucharest starting a calendar day `YYYY-MM-DD`; 400 for a day that is none. */
function dayStart(day: string, field: 'from' | 'to', offsetDays = 0): Date {
  // Noon UTC of that day is the same day in Bucharest (UTC+2 or +3).
  const noon = Date.parse(`${day}T12:00:00Z`);
  if (Number.isNaN(noon) || new Date(noon).toISOString().slice(0, 10) !== day) {
    throw refusedField(field, 'invalidValue');
  }
  return startOfDay(new Date(noon + offsetDays * DAY_MS));
}

/** The conditions of the list's filters, shared by its pages and its CSV export. */
function orderFilters(query: AdminOrderExportQuery): SQL | undefined {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(orders.status, query.status));
  if (query.paymentStatus) {
    filters.push(eq(orders.paymentStatus, query.paymentStatus));
    // A cancelled order owes nothing: it is not among those whose payment is awaited.
    if (UNPAID_STATUSES.includes(query.paymentStatus)) {
      filters.push(ne(orders.status, 'CANCELLED'));
    }
  }
  if (query.companyId) filters.push(eq(orders.companyId, query.companyId));
  if (query.salesRepId) filters.push(eq(orders.placedByRepId, query.salesRepId));
  if (query.from) filters.push(gte(orders.createdAt, dayStart(query.from, 'from')));
  // Up to the end of that day: before the next one starts.
  if (query.to) filters.push(lt(orders.createdAt, dayStart(query.to, 'to', 1)));
  const search = query.search?.trim();
  if (search) {
    // The number in lower case, as its trigram index is built (migration 0011).
    filters.push(containing(sql`lower(${orders.orderNumber})`, 'lower', search));
  }
  return and(...filters);
}

/** What each sort orders by; the id breaks ties, in the same direction. */
const ORDER_COLUMNS: Record<OrderSort, SQLWrapper> = {
  createdAt: orders.createdAt,
  total: orders.total,
  orderNumber: orders.orderNumber,
};

/** Units over an order's lines, read for the rows of one page or batch only. */
const itemCount = sql<number>`(SELECT coalesce(sum(${orderItems.quantity}), 0)::int FROM ${orderItems} WHERE ${orderItems.orderId} = ${orders.id})`;

const ROW_COLUMNS = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  companyId: orders.companyId,
  companyName: companies.name,
  createdAt: orders.createdAt,
  status: orders.status,
  paymentStatus: orders.paymentStatus,
  total: orders.total,
  itemCount,
  placedByRepId: orders.placedByRepId,
};

type ListRow = {
  id: number;
  orderNumber: string;
  companyId: number;
  companyName: string;
  createdAt: Date;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  total: string;
  itemCount: number;
  placedByRepId: number | null;
};

type Placer = AdminOrderRow['placedBy'];

const toRow = (row: ListRow, placedBy: Placer): AdminOrderRow => ({
  id: row.id,
  orderNumber: row.orderNumber,
  company: { id: row.companyId, name: row.companyName },
  createdAt: row.createdAt.toISOString(),
  status: row.status,
  paymentStatus: row.paymentStatus,
  total: Number(row.total),
  currency: 'EUR',
  itemCount: Number(row.itemCount),
  placedBy,
});

/** The reps who placed orders of a page, by id. */
async function placersOf(db: Db, rows: ListRow[]): Promise<Map<number, NonNullable<Placer>>> {
  const ids = [...new Set(rows.flatMap((row) => row.placedByRepId ?? []))];
  if (ids.length === 0) return new Map();
  const reps = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(reps.map((rep) => [rep.id, rep]));
}

function sortOf(query: AdminOrderExportQuery) {
  const column = ORDER_COLUMNS[query.sortBy ?? 'createdAt'];
  const descending = (query.sortOrder ?? 'desc') === 'desc';
  const direction = descending ? desc : asc;
  return { column, descending, order: [direction(column), direction(orders.id)] };
}

/** `GET /api/admin/orders`: a page of orders, newest first unless asked otherwise. */
export async function listOrderPage(db: Db, query: AdminOrderQuery): Promise<AdminOrderPage> {
  const where = orderFilters(query);
  const page = pageOf(query);
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  const rows = await db
    .select(ROW_COLUMNS)
    .from(orders)
    .innerJoin(companies, eq(companies.id, orders.companyId))
    .where(where)
    .orderBy(...sortOf(query).order)
    .limit(page.limit)
    .offset(page.offset);
  const placers = await placersOf(db, rows);
  return {
    orders: rows.map((row) => toRow(row, placers.get(row.placedByRepId ?? 0) ?? null)),
    pagination: paginationOf(page, total?.n ?? 0),
  };
}

/**
 * Rows the CSV export reads at a time: each batch continues after the last row of the one
 * before (by the sort's value and the id), so memory holds one batch, and a late batch
 * costs no more than an early one.
 */
export const EXPORT_BATCH = 1000;

/** A cell as a spreadsheet reads it literally: quoted, and never taken for a formula. */
export function csvCell(value: string | number): string {
  let text = String(value);
  // = + - @ tab and CR start a formula in Excel, LibreOffice and Google Sheets.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() || text.startsWith("'")
    ? `"${text.replace(/"/g, '""')}"`
    : text;
}

const csvLine = (cells: (string | number)[]) => `${cells.map(csvCell).join(',')}\r\n`;

export const CSV_HEADER = [
  'Order number',
  'Company ID',
  'Company',
  'Placed at (UTC)',
  'Status',
  'Payment status',
  'Items',
  'Total',
  'Currency',
  // The sales rep who placed the order; empty when the salon did.
  'Placed by',
];

const nameOf = (placer: Placer | undefined) =>
  placer ? `${placer.firstName} ${placer.lastName}`.trim() : '';

/**
 * `GET /api/admin/orders/export.csv`: every order the filters match, in the list's order,
 * as CSV lines: a UTF-8 byte-order mark and the header first (so that Excel reads
 * diacritics), then one batch of EXPORT_BATCH rows at a time.
 */
export async function* exportOrders(db: Db, query: AdminOrderExportQuery): AsyncGenerator<string> {
  const where = orderFilters(query);
  const { column, descending, order } = sortOf(query);
  yield `\uFEFF${csvLine(CSV_HEADER)}`;
  let after: { value: unknown; id: number } | null = null;
  for (;;) {
    const next: SQL | undefined = after
      ? descending
        ? sql`(${column}, ${orders.id}) < (${after.value}, ${after.id})`
        : sql`(${column}, ${orders.id}) > (${after.value}, ${after.id})`
      : undefined;
    const rows: ListRow[] = await db
      .select(ROW_COLUMNS)
      .from(orders)
      .innerJoin(companies, eq(companies.id, orders.companyId))
      .where(and(where, next))
      .orderBy(...order)
      .limit(EXPORT_BATCH);
    if (rows.length === 0) return;
    const placers = await placersOf(db, rows);
    yield rows
      .map((row) =>
        csvLine([
          row.orderNumber,
          row.companyId,
          row.companyName,
          row.createdAt.toISOString(),
          row.status,
          // As every screen says it: nothing is due on a cancelled order never paid.
          paymentBadge(row),
          Number(row.itemCount),
          Number(row.total).toFixed(2),
          'EUR',
          nameOf(placers.get(row.placedByRepId ?? 0)),
        ]),
      )
      .join('');
    const last = rows[rows.length - 1] as ListRow;
    const value =
      column === orders.createdAt
        ? sql`${last.createdAt.toISOString()}::timestamptz`
        : column === orders.total
          ? sql`${last.total}::numeric`
          : last.orderNumber;
    after = { value, id: last.id };
    if (rows.length < EXPORT_BATCH) return;
  }
}

/** The name of the export's file: the day it was made, in UTC. */
export const exportFileName = (now = new Date()) => `orders-${now.toISOString().slice(0, 10)}.csv`;

const allowedOf = (row: OrderRow) => ({
  status: [...ORDER_TRANSITIONS[row.status]],
  paymentStatus: [...paymentMoves(row.status, row.paymentStatus)],
});

/** `GET /api/admin/orders/{id}`. */
export async function orderDetail(db: Db, id: number): Promise<AdminOrderDetail> {
  const [found] = await db
    .select({
      order: orders,
      companyName: companies.name,
      user: {
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      },
    })
    .from(orders)
    .innerJoin(companies, eq(companies.id, orders.companyId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, id));
  if (!found) throw notFound('Order not found');
  const [order] = await withItems(db, [found.order]);
  return {
    order: order as Order,
    company: { id: found.order.companyId, name: found.companyName },
    placedBy: found.user,
    events: await orderHistory(db, id),
    allowed: allowedOf(found.order),
  };
}

/**
 * A move the rules do not allow: 409 with the moves that are allowed from where it is;
 * `because` says why, when the reason is not the move's own path.
 */
function notAllowed(
  what: 'status' | 'payment',
  orderNumber: string,
  from: string,
  to: string,
  allowed: readonly string[],
  because = '',
): HttpError {
  const subject = what === 'status' ? 'Order' : 'The payment of order';
  return new HttpError(
    409,
    `${subject} ${orderNumber} is ${from} and cannot be set to ${to}${because}. ` +
      (allowed.length > 0 ? `Allowed: ${allowed.join(', ')}.` : 'No change is allowed.'),
    undefined,
    {
      code: what === 'status' ? 'ORDER_STATUS_CONFLICT' : 'ORDER_PAYMENT_CONFLICT',
      params: { orderNumber, from, to },
      details: { allowed: [...allowed] },
    },
  );
}

/** The tracking number as stored, or the field errors that refuse it. */
function checkedTrackingNumber(value: string | undefined): string {
  const tracking = value?.trim() ?? '';
  const error: 'required' | 'tooLong' | 'invalidValue' | null = !tracking
    ? 'required'
    : tracking.length > MAX_TRACKING_LENGTH
      ? 'tooLong'
      : TRACKING_NUMBER_PATTERN.test(tracking)
        ? null
        : 'invalidValue';
  if (error) throw refusedField('trackingNumber', error);
  return tracking;
}

const lockOrder = async (db: Db, id: number): Promise<OrderRow> => {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update');
  if (!row) throw notFound('Order not found');
  return row;
};

/**
 * What the company's people who follow orders are told of a move: a confirmation, a
 * shipment (with the tracking number) or a cancellation (with the reason); nothing of
 * processing and delivery.
 */
function statusMessage(order: OrderRow, to: OrderStatus): MailMessage | null {
  const { orderNumber } = order;
  switch (to) {
    case 'CONFIRMED':
      return { kind: 'order-confirmed', data: { orderNumber } };
    case 'SHIPPED':
      return { kind: 'order-shipped', data: { orderNumber, trackingNumber: order.trackingNumber } };
    case 'CANCELLED':
      return { kind: 'order-cancelled', data: { orderNumber, reason: order.cancellationReason } };
    default:
      return null;
  }
}

/**
 * `POST /api/admin/orders/{id}/status`: moves an order one step (ORDER_TRANSITIONS).
 *
 * 1. A cancellation locks the lines' products first, by id (the lock order of
 *    transactions.ts), since it gives their stock back.
 * 2. Lock the order; a move its status does not allow is a 409 naming the allowed ones.
 * 3. Check what the body must carry: a tracking number to ship, a reason to cancel (400).
 * 4. Write the order, its history and the audit log; a cancellation puts the stock back.
 *    The company's people who follow orders are e-mailed (statusMessage).
 */
export async function moveOrder(
  db: Db,
  id: number,
  body: AdminOrderStatusBody,
  actor: StaffActor,
): Promise<Order> {
  const to = body.status;
  const cancelling = to === 'CANCELLED';
  const [exists] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, id));
  if (!exists) throw notFound('Order not found');
  const items = cancelling ? await lockOrderProducts(db, id) : [];
  const row = await lockOrder(db, id);
  const allowed = ORDER_TRANSITIONS[row.status];
  if (!allowed.includes(to)) throw notAllowed('status', row.orderNumber, row.status, to, allowed);
  const trackingNumber = to === 'SHIPPED' ? checkedTrackingNumber(body.trackingNumber) : null;
  const reason = body.reason?.trim() ?? '';
  if (cancelling && !reason) throw refusedField('reason', 'required');

  const now = new Date();
  const [updated = row] = await db
    .update(orders)
    .set({
      status: to,
      updatedAt: now,
      ...(trackingNumber !== null ? { trackingNumber } : {}),
      ...(cancelling ? { cancellationReason: reason, cancelledAt: now } : {}),
    })
    .where(eq(orders.id, id))
    .returning();
  if (cancelling) await putBackStock(db, items);
  await recordOrderEvent(db, {
    orderId: id,
    kind: 'status',
    from: row.status,
    to,
    by: { staff: actor },
    note: cancelling ? reason : (trackingNumber ?? ''),
  });
  const message = statusMessage(updated, to);
  if (message) await mailOrderFollowers(db, row.companyId, message);
  await recordAudit(db, {
    actor,
    action: cancelling ? 'order.cancel' : 'order.status',
    entityType: 'order',
    entityId: id,
    companyId: row.companyId,
    ...changedFields(row, updated, ['status', 'trackingNumber', 'cancellationReason']),
    note: cancelling ? reason : '',
  });
  const [order] = await withItems(db, [updated]);
  return order as Order;
}

/**
 * `POST /api/admin/orders/{id}/payment`: records a payment's new status (paymentMoves: the
 * PAYMENT_TRANSITIONS; on a cancelled order only a transfer that arrives anyway, and its
 * refund).
 */
export async function setPaymentStatus(
  db: Db,
  id: number,
  body: AdminOrderPaymentBody,
  actor: StaffActor,
): Promise<Order> {
  const row = await lockOrder(db, id);
  const to = body.paymentStatus;
  const allowed = paymentMoves(row.status, row.paymentStatus);
  if (!allowed.includes(to)) {
    const cancelled =
      row.status === 'CANCELLED' && PAYMENT_TRANSITIONS[row.paymentStatus].includes(to);
    const because = cancelled
      ? ': the order is CANCELLED and nothing is due on it (a transfer that arrives anyway is recorded as PAID, then REFUNDED)'
      : '';
    throw notAllowed('payment', row.orderNumber, row.paymentStatus, to, allowed, because);
  }
  const note = body.note?.trim() ?? '';
  const [updated = row] = await db
    .update(orders)
    .set({ paymentStatus: to, updatedAt: new Date() })
    .where(eq(orders.id, id))
    .returning();
  await recordOrderEvent(db, {
    orderId: id,
    kind: 'payment',
    from: row.paymentStatus,
    to,
    by: { staff: actor },
    note,
  });
  await recordAudit(db, {
    actor,
    action: 'order.payment',
    entityType: 'order',
    entityId: id,
    companyId: row.companyId,
    ...changedFields(row, updated, ['paymentStatus']),
    note,
  });
  const [order] = await withItems(db, [updated]);
  return order as Order;
}

/** What an order awaiting verification notes when staff approve its company. */
export const COMPANY_APPROVED_NOTE = 'Company approved';
/** The cancellation reason of such an order when staff reject its company without a reason. */
export const COMPANY_REJECTED_NOTE = 'Company rejected';

/**
 * Staff's decision on a company, for the orders its rep took while it awaited verification
 * (AWAITING_VERIFICATION), in the decision's transaction. The caller holds the company's
 * row lock, which a rep's order takes too (shared): no such order is added meanwhile.
 *
 * - approved: they become PENDING, each with an event naming who decided;
 * - rejected: they become CANCELLED with the rejection's reason, each with an event, and
 *   their stock goes back: the products of all their lines locked first, by id (the lock
 *   order of transactions.ts), then the orders.
 *
 * An order staff cancelled meanwhile is left as it is. Answers how many orders moved.
 */
export async function settleAwaitingOrders(
  db: Db,
  companyId: number,
  decision: { approved: true } | { approved: false; reason: string },
  actor: AuditActor,
): Promise<number> {
  const awaiting = and(eq(orders.companyId, companyId), eq(orders.status, 'AWAITING_VERIFICATION'));
  const waiting = await db.select({ id: orders.id }).from(orders).where(awaiting);
  if (waiting.length === 0) return 0;
  const items = decision.approved
    ? []
    : await lockOrdersProducts(
        db,
        waiting.map((order) => order.id),
      );
  const now = new Date();
  const reason = decision.approved ? '' : decision.reason.trim() || COMPANY_REJECTED_NOTE;
  const moved = await db
    .update(orders)
    .set(
      decision.approved
        ? { status: 'PENDING', updatedAt: now }
        : { status: 'CANCELLED', cancellationReason: reason, cancelledAt: now, updatedAt: now },
    )
    .where(awaiting)
    .returning({ id: orders.id, status: orders.status, orderNumber: orders.orderNumber });
  const movedIds = new Set(moved.map((order) => order.id));
  if (!decision.approved) {
    await putBackStock(
      db,
      items.filter((item) => movedIds.has(item.orderId)),
    );
  }
  for (const order of moved.sort((a, b) => a.id - b.id)) {
    await recordOrderEvent(db, {
      orderId: order.id,
      kind: 'status',
      from: 'AWAITING_VERIFICATION',
      to: order.status,
      by: { staff: actor },
      note: decision.approved ? COMPANY_APPROVED_NOTE : reason,
    });
    // Its order-received message said it waits for the verification: an approval is told
    // by the company's own message, a cancellation by the order's.
    if (!decision.approved) {
      await mailOrderFollowers(db, companyId, {
        kind: 'order-cancelled',
        data: { orderNumber: order.orderNumber, reason },
      });
    }
  }
  return moved.length;
}
