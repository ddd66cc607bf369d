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

export type { RepCustomer, RepCustomerList, RepOrderBody } from './field-sales-schemas';
