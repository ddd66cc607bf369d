/**
 * The back office's order shapes (docs/api.md#back-office), stated once: the server
 * validates and answers with them, the staff screens derive their types from them.
 */
import { Type, type Static } from 'typebox';
import { ADMIN_MAX_PAGE_SIZE, MAX_REASON_LENGTH, SORT_ORDERS } from './admin';
import { AdminPaginationSchema } from './admin-schemas';
import {
  MAX_TRACKING_LENGTH,
  ORDER_EVENT_ACTORS,
  ORDER_EVENT_KINDS,
  ORDER_SORTS,
} from './admin-orders';
import { literals } from './literals';
import { OrderSchema } from './orders-schemas';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './states';
import { MAX_TEXT_LENGTH } from './validation';

/** A calendar day, read as a day in Bucharest (the maker's business day). */
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** What picks the orders of the list and of its CSV export: every filter optional. */
const orderFilters = {
  status: Type.Optional(literals(ORDER_STATUSES)),
  paymentStatus: Type.Optional(literals(PAYMENT_STATUSES)),
  companyId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  /** Placed by this sales rep for one of its customers. */
  salesRepId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  /** Placed on or after this day. */
  from: Type.Optional(Day),
  /** Placed on or before this day. */
  to: Type.Optional(Day),
  /** Part of the order number, in any case. */
  search: Type.Optional(Type.String({ maxLength: MAX_TEXT_LENGTH })),
  /** Default createdAt, newest first. */
  sortBy: Type.Optional(literals(ORDER_SORTS)),
  sortOrder: Type.Optional(literals(SORT_ORDERS)),
};

/** `GET /api/admin/orders`. */
export const AdminOrderQuerySchema = Type.Object(
  {
    ...orderFilters,
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_MAX_PAGE_SIZE })),
  },
  { additionalProperties: false },
);

/** `GET /api/admin/orders/export.csv`: every matching order, no pages. */
export const AdminOrderExportQuerySchema = Type.Object(orderFilters, {
  additionalProperties: false,
});

/** One row of the staff's list: what it shows, no lines. */
export const AdminOrderRowSchema = Type.Object({
  id: Type.Integer(),
  orderNumber: Type.String(),
  company: Type.Object({ id: Type.Integer(), name: Type.String() }),
  createdAt: Type.String({ format: 'date-time' }),
  status: literals(ORDER_STATUSES),
  paymentStatus: literals(PAYMENT_STATUSES),
  total: Type.Number(),
  currency: Type.Literal('EUR'),
  /** Units over all lines. */
  itemCount: Type.Integer(),
  /** The sales rep who placed it for the company; null when the salon did. */
  placedBy: Type.Union([
    Type.Object({ id: Type.Integer(), firstName: Type.String(), lastName: Type.String() }),
    Type.Null(),
  ]),
});

export const AdminOrderPageSchema = Type.Object({
  orders: Type.Array(AdminOrderRowSchema),
  pagination: AdminPaginationSchema,
});

/** One change of an order's status or payment; `from` is null at its creation. */
export const AdminOrderEventSchema = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  kind: literals(ORDER_EVENT_KINDS),
  from: Type.Union([Type.String(), Type.Null()]),
  to: Type.String(),
  /** The salon (its user) or a staff member, named as then. */
  actor: Type.Object({
    kind: literals(ORDER_EVENT_ACTORS),
    id: Type.Union([Type.Integer(), Type.Null()]),
    name: Type.String(),
  }),
  /** A cancellation's reason, a shipment's tracking number. */
  note: Type.String(),
});

/** `GET /api/admin/orders/{id}`: the order, whose it is, its history and its next steps. */
export const AdminOrderDetailSchema = Type.Object({
  order: OrderSchema,
  company: Type.Object({ id: Type.Integer(), name: Type.String() }),
  placedBy: Type.Object({
    id: Type.Integer(),
    email: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
  }),
  /** Oldest first. */
  events: Type.Array(AdminOrderEventSchema),
  /** What staff may do next, by the server's rules. */
  allowed: Type.Object({
    status: Type.Array(literals(ORDER_STATUSES)),
    paymentStatus: Type.Array(literals(PAYMENT_STATUSES)),
  }),
});

/** `POST /api/admin/orders/{id}/status`. */
export const AdminOrderStatusBodySchema = Type.Object(
  {
    status: literals(ORDER_STATUSES),
    /** Required for SHIPPED; trimmed, at most MAX_TRACKING_LENGTH characters. */
    trackingNumber: Type.Optional(Type.String({ maxLength: MAX_TRACKING_LENGTH * 2 })),
    /** Required for CANCELLED: the salon sees it. */
    reason: Type.Optional(Type.String({ maxLength: MAX_REASON_LENGTH })),
  },
  { additionalProperties: false },
);

/** `POST /api/admin/orders/{id}/payment`. */
export const AdminOrderPaymentBodySchema = Type.Object(
  {
    paymentStatus: literals(PAYMENT_STATUSES),
    note: Type.Optional(Type.String({ maxLength: MAX_REASON_LENGTH })),
  },
  { additionalProperties: false },
);

/**
 * A 409 of these routes: for a move the rules do not allow, the steps that are allowed
 * from where it is (`details.allowed`); a request still running under its key has none.
 */
export const OrderConflictSchema = Type.Object({
  message: Type.String(),
  code: Type.Optional(Type.String()),
  params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  details: Type.Optional(Type.Object({ allowed: Type.Array(Type.String()) })),
  retryAfter: Type.Optional(Type.Integer()),
});

export type AdminOrderQuery = Static<typeof AdminOrderQuerySchema>;
export type AdminOrderExportQuery = Static<typeof AdminOrderExportQuerySchema>;
export type AdminOrderRow = Static<typeof AdminOrderRowSchema>;
export type AdminOrderPage = Static<typeof AdminOrderPageSchema>;
export type AdminOrderEvent = Static<typeof AdminOrderEventSchema>;
export type AdminOrderDetail = Static<typeof AdminOrderDetailSchema>;
export type AdminOrderStatusBody = Static<typeof AdminOrderStatusBodySchema>;
export type AdminOrderPaymentBody = Static<typeof AdminOrderPaymentBodySchema>;
export type OrderConflictBody = Static<typeof OrderConflictSchema>;
