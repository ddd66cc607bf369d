/**
 * The back office's dashboard (`GET /api/admin/summary`): what waits for staff, and the
 * orders of the day. Counts only, over indexes where a table grows without end (companies,
 * documents, orders; migration 0009), so that it stays quick as the years add up.
 */
import { and, count, eq, gte, isNotNull, lt, ne, sum } from 'drizzle-orm';
import { LOW_STOCK_BELOW, type AdminSummary } from '../../src/contracts/admin.js';
import { roundMoney } from '../../src/contracts/orders.js';
import type { Db } from '../db/database.js';
import { companies, companyDocuments, orders, products } from '../db/schema.js';
import { companiesWithBoothDetails } from './booth-details.js';

/** The maker's day starts at midnight in Bucharest, wherever the server runs. */
export const BUSINESS_TIME_ZONE = 'Europe/Bucharest';

/** The wall-clock time of `timeZone` at `instant`, written as if it were UTC. */
function wallClock(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** How far `timeZone` is ahead of UTC at `instant` (whole minutes, as every zone is). */
const offsetAt = (instant: number, timeZone: string) =>
  Math.round((wallClock(instant, timeZone) - instant) / MINUTE_MS) * MINUTE_MS;

/** The year in `timeZone` at `now`: an order's number carries it (docs/api.md#orders). */
export const yearOf = (now: Date, timeZone = BUSINESS_TIME_ZONE): number =>
  new Date(wallClock(now.getTime(), timeZone)).getUTCFullYear();

/** The instant of the last midnight in `timeZone` at or before `now`. */
export function startOfDay(now: Date, timeZone = BUSINESS_TIME_ZONE): Date {
  const instant = now.getTime();
  const wall = wallClock(instant, timeZone);
  const midnight = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  // The offset of now, then the offset of that guess: they differ when the clocks changed
  // between midnight and now (summer time starts and ends in the small hours).
  const guess = midnight - offsetAt(instant, timeZone);
  return new Date(midnight - offsetAt(guess, timeZone));
}

export async function adminSummary(db: Db, now = new Date()): Promise<AdminSummary> {
  const counted = async (query: PromiseLike<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const [
    companiesPending,
    documentsToReview,
    ordersToConfirm,
    productsLowStock,
    boothDetailsToReview,
    [today],
  ] = await Promise.all([
    counted(db.select({ n: count() }).from(companies).where(eq(companies.status, 'PENDING'))),
    counted(
      db
        .select({ n: count() })
        .from(companyDocuments)
        // A document still being uploaded has no company yet, and nothing to review.
        .where(and(eq(companyDocuments.status, 'PENDING'), isNotNull(companyDocuments.companyId))),
    ),
    counted(db.select({ n: count() }).from(orders).where(eq(orders.status, 'PENDING'))),
    // Products on sale only: one taken off sale needs no stock.
    counted(
      db
        .select({ n: count() })
        .from(products)
        .where(and(lt(products.stock, LOW_STOCK_BELOW), eq(products.active, true))),
    ),
    counted(companiesWithBoothDetails(db)),
    db
      .select({ orders: count(), value: sum(orders.total) })
      .from(orders)
      .where(and(gte(orders.createdAt, startOfDay(now)), ne(orders.status, 'CANCELLED'))),
  ]);
  return {
    companiesPending,
    documentsToReview,
    ordersToConfirm,
    productsLowStock,
    boothDetailsToReview,
    today: {
      orders: today?.orders ?? 0,
      value: roundMoney(Number(today?.value ?? 0)),
      currency: 'EUR',
    },
  };
}
