/**
 * Field sales (docs/product.md#field-sales): a sales rep takes orders for the companies
 * assigned to it. The plain values, for screens that do not load the schemas.
 */
import { foldText } from './catalogue-query';
import type { RepCustomer } from './field-sales-schemas';
import type { RepCustomerForm } from './form-schemas';
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

/** A salon's details as a rep types them at the booth, but the tax number it is found by. */
export const BOOTH_DETAIL_FIELDS = [
  'companyName',
  'registrationNumber',
  'companyEmail',
  'companyPhone',
  'address',
  'city',
  'postalCode',
  'country',
  'website',
] as const satisfies readonly (keyof RepCustomerForm)[];
export type BoothDetailField = (typeof BOOTH_DETAIL_FIELDS)[number];
export type BoothDetails = Partial<Record<BoothDetailField, string>>;

/** Where the maker's record of a customer keeps each detail; none for those it does not show. */
const RECORDED_AS: Record<BoothDetailField, keyof RepCustomer | null> = {
  companyName: 'name',
  registrationNumber: null,
  companyEmail: 'email',
  companyPhone: 'phone',
  address: 'address',
  city: 'city',
  postalCode: 'postalCode',
  country: 'country',
  website: null,
};

/** Two spellings of one detail: the same letters and digits, whatever the case and accents. */
const sameDetail = (a: string, b: string) =>
  foldText(a).replace(/[^\p{L}\p{N}@.]/gu, '') === foldText(b).replace(/[^\p{L}\p{N}@.]/gu, '');

/**
 * What a rep typed at the booth for a salon the server found among its customers already
 * (POST /api/rep/customers answered 200): the details the maker's record does not hold,
 * because it says otherwise or does not show them. The server keeps its record as it is,
 * so these are kept on the rep's device, for the rep to pass on (docs/product.md#field-sales).
 */
export function boothDetailsNotApplied(
  fields: RepCustomerForm,
  customer: RepCustomer,
): BoothDetails {
  const details: BoothDetails = {};
  for (const field of BOOTH_DETAIL_FIELDS) {
    const typed = fields[field]?.trim() ?? '';
    if (typed === '') continue;
    const recorded = RECORDED_AS[field];
    const value = recorded === null ? undefined : customer[recorded];
    if (typeof value === 'string' && sameDetail(typed, value)) continue;
    details[field] = typed;
  }
  return details;
}
