/**
 * Field sales (docs/product.md#field-sales): a sales rep takes orders for the companies
 * assigned to it. The plain values, for screens that do not load the schemas.
 */
import type { ORDER_STATUSES } from './states';

/** The orders of a customer still under way: what a rep asks about at the booth. */
export const OPEN_ORDER_STATUSES = [
  'AWAITING_VERIFICATION',
  'PENDING',
  'CONFIRMED',
  'PROCESSING',
  'SHIPPED',
] as const satisfies readonly (typeof ORDER_STATUSES)[number][];

/** Lines of one order a rep takes: more than any salon's order, far fewer than the catalogue. */
export const MAX_ORDER_LINES = 200;
/** A signature drawn on a tablet, as a PNG: a few kilobytes; more is not a signature. */
export const MAX_SIGNATURE_BYTES = 64 * 1024;

/**
 * Orders a rep's day summary reads at once (GET /api/rep/orders): many times what a rep
 * takes in a day at the busiest fair, and few enough for one quick answer.
 */
export const MAX_REP_ORDERS = 500;
/**
 * How far back GET /api/rep/orders reaches, in days: a day summary asks from midnight, and
 * a month covers any fair; older orders are the back office's to list.
 */
export const REP_ORDERS_MAX_DAYS = 31;

export type {
  RepCustomer,
  RepCustomerList,
  RepOrder,
  RepOrderBody,
  RepOrderList,
} from './field-sales-schemas';
