/**
 * Details a sales rep typed at the booth for a salon that was its customer already, which
 * the company's record does not say (docs/product.md#field-sales). The registration keeps
 * the verified record as it is and leaves these here for staff: the company's page shows
 * them, staff apply them by correcting the record (`editCompany` then settles each entry
 * the record now says) or dismiss them.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { BoothDetailsEntry } from '../../src/contracts/admin.js';
import {
  BOOTH_DETAIL_FIELDS,
  boothDetailsNotApplied,
  recordedAs,
  type BoothDetails,
  type RecordedField,
} from '../../src/contracts/field-sales.js';
import type { Db } from '../db/database.js';
import { boothDetails, users } from '../db/schema.js';
import type { CompanyRow } from './accounts.js';
import { recordAudit, type StaffActor } from './audit.js';
import { notFound } from './errors.js';

/** Details under the fields of the company's record that keep them: what staff read. */
function asRecorded(details: BoothDetails): Partial<Record<RecordedField, string>> {
  const recorded: Partial<Record<RecordedField, string>> = {};
  for (const field of BOOTH_DETAIL_FIELDS) {
    const value = details[field];
    if (value !== undefined) recorded[recordedAs(field)] = value;
  }
  return recorded;
}

/** Whether two sets of details say the same, field by field as typed. */
const sameDetails = (a: BoothDetails, b: BoothDetails) =>
  BOOTH_DETAIL_FIELDS.every((field) => (a[field] ?? '') === (b[field] ?? ''));

/**
 * Keeps what `repId` typed for its customer `company` that the record does not say, in the
 * transaction of the registration; nothing when the record says it all, or when the same
 * details from the same rep are open already (the salon registered again at the booth).
 * Returns whether anything is open for staff from this registration.
 */
export async function keepBoothDetails(
  tx: Db,
  repId: number,
  company: CompanyRow,
  typed: Partial<Record<(typeof BOOTH_DETAIL_FIELDS)[number], string | undefined>>,
): Promise<boolean> {
  const details = boothDetailsNotApplied(typed, company);
  if (!details) return false;
  const open = await tx
    .select({ details: boothDetails.details })
    .from(boothDetails)
    .where(
      and(
        eq(boothDetails.companyId, company.id),
        eq(boothDetails.repId, repId),
        isNull(boothDetails.settledAt),
      ),
    );
  if (!open.some((entry) => sameDetails(entry.details, details))) {
    await tx.insert(boothDetails).values({ companyId: company.id, repId, details });
  }
  return true;
}

/**
 * The company's open entries, oldest first, each with only what the record still does not
 * say, under the record's field names.
 */
export async function openBoothDetails(db: Db, company: CompanyRow): Promise<BoothDetailsEntry[]> {
  const rows = await db
    .select({
      id: boothDetails.id,
      details: boothDetails.details,
      createdAt: boothDetails.createdAt,
      repId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(boothDetails)
    .innerJoin(users, eq(users.id, boothDetails.repId))
    .where(and(eq(boothDetails.companyId, company.id), isNull(boothDetails.settledAt)))
    .orderBy(asc(boothDetails.id));
  return rows.flatMap((row) => {
    const details = boothDetailsNotApplied(row.details, company);
    return details
      ? [
          {
            id: row.id,
            rep: { id: row.repId, firstName: row.firstName, lastName: row.lastName },
            createdAt: row.createdAt.toISOString(),
            details: asRecorded(details),
          },
        ]
      : [];
  });
}

/**
 * After staff corrected the company's record (`updated`), in the same transaction: each
 * open entry the record now says in full is settled as applied by them.
 */
export async function settleAppliedBoothDetails(
  tx: Db,
  updated: CompanyRow,
  actor: StaffActor,
): Promise<void> {
  const open = await tx
    .select({ id: boothDetails.id, details: boothDetails.details })
    .from(boothDetails)
    .where(and(eq(boothDetails.companyId, updated.id), isNull(boothDetails.settledAt)))
    .for('update');
  for (const entry of open) {
    if (boothDetailsNotApplied(entry.details, updated)) continue;
    await tx
      .update(boothDetails)
      .set({ settledAt: sql`now()`, settledBy: actor.id, settledAs: 'applied' })
      .where(eq(boothDetails.id, entry.id));
  }
}

/**
 * `POST /api/admin/booth-details/{id}/dismiss`: staff decide not to apply an entry. The audit
 * log keeps what it said, under the record's field names as staff read it. Dismissing one settled already
 * changes nothing. Answers the company the entry belongs to.
 */
export async function dismissBoothDetails(
  tx: Db,
  id: number,
  actor: StaffActor,
): Promise<{ companyId: number }> {
  const [entry] = await tx.select().from(boothDetails).where(eq(boothDetails.id, id)).for('update');
  if (!entry) throw notFound('These details typed at the booth were not found');
  if (entry.settledAt) return { companyId: entry.companyId };
  await tx
    .update(boothDetails)
    .set({ settledAt: sql`now()`, settledBy: actor.id, settledAs: 'dismissed' })
    .where(eq(boothDetails.id, id));
  await recordAudit(tx, {
    actor,
    action: 'company.booth-details-dismiss',
    entityType: 'company',
    entityId: entry.companyId,
    companyId: entry.companyId,
    before: asRecorded(entry.details),
    after: null,
  });
  return { companyId: entry.companyId };
}

/** Companies with an open entry: the dashboard's count. */
export const companiesWithBoothDetails = (db: Db) =>
  db
    .select({ n: sql<number>`count(DISTINCT ${boothDetails.companyId})`.mapWith(Number) })
    .from(boothDetails)
    .where(isNull(boothDetails.settledAt));
