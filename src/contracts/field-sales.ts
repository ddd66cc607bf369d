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

/**
 * A salon's details as a rep types them at the booth (but the tax number it is found by),
 * each with where the maker's record of a customer keeps it.
 */
const RECORDED_AS = {
  companyName: 'name',
  registrationNumber: 'registrationNumber',
  companyEmail: 'email',
  companyPhone: 'phone',
  address: 'address',
  city: 'city',
  postalCode: 'postalCode',
  country: 'country',
  website: 'website',
} as const satisfies Record<Exclude<keyof RepCustomerForm, 'taxNumber'>, keyof RepCustomer>;
export type BoothDetailField = keyof typeof RECORDED_AS;
/** The field of the maker's record of a company that keeps a detail typed at the booth. */
export type RecordedField = (typeof RECORDED_AS)[BoothDetailField];
export const recordedAs = (field: BoothDetailField): RecordedField => RECORDED_AS[field];
export type BoothDetails = Partial<Record<BoothDetailField, string>>;
/** The details, in the form's order. */
export const BOOTH_DETAIL_FIELDS = Object.keys(RECORDED_AS) as BoothDetailField[];

/** Letters and digits only, whatever the case and accents: "Str. Lungă 1" is "strlunga1". */
const lettersAndDigits = (text: string) => foldText(text).replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Whether two spellings of a detail say the same: an e-mail whatever its case; a phone
 * whatever its spaces and signs, with or without its country's prefix ("+40 721 000 999"
 * is "0721 000 999"); a website with or without "https://" and "www."; the rest by their
 * letters and digits.
 */
function sameDetail(field: BoothDetailField, a: string, b: string): boolean {
  if (field === 'companyEmail') return a.trim().toLowerCase() === b.trim().toLowerCase();
  if (field === 'companyPhone') {
    const digits = (phone: string) => phone.replace(/\D/g, '').replace(/^0+/, '');
    const [x, y] = [digits(a), digits(b)];
    return x === y || (Math.min(x.length, y.length) >= 8 && (x.endsWith(y) || y.endsWith(x)));
  }
  if (field === 'website') {
    const bare = (site: string) =>
      site
        .trim()
        .replace(/^https?:\/\//i, '')
        .replace(/^www\./i, '');
    return lettersAndDigits(bare(a)) === lettersAndDigits(bare(b));
  }
  return lettersAndDigits(a) === lettersAndDigits(b);
}

/**
 * What a rep typed at the booth for a salon the server found among its customers already
 * (POST /api/rep/customers answered 200), or kept from such a registration, that the
 * maker's record of the customer does not say: the server keeps its record as it is and
 * these for its staff to apply or dismiss, and the rep's device keeps them on the
 * customer's card; each is dropped as soon as the record says the same
 * (docs/product.md#field-sales). "Other" as a country says nothing. Undefined when the
 * record says everything that was typed.
 */
export function boothDetailsNotApplied(
  typed: Partial<Record<BoothDetailField, string | undefined>>,
  customer: Partial<Record<RecordedField, string | null>>,
): BoothDetails | undefined {
  const details: BoothDetails = {};
  for (const field of BOOTH_DETAIL_FIELDS) {
    const value = typed[field]?.trim() ?? '';
    if (value === '' || (field === 'country' && value === 'Other')) continue;
    const recorded = customer[RECORDED_AS[field]] ?? '';
    if (!sameDetail(field, value, recorded)) details[field] = value;
  }
  return Object.keys(details).length > 0 ? details : undefined;
}
