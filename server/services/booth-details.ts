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
import { boothDetails, companies, users, type BOOTH_DETAILS_SETTLED_AS } from '../db/schema.js';
import type { CompanyRow } from './accounts.js';
import { recordAudit, type StaffActor } from './audit.js';
import { notFound } from './errors.js';

type BoothDetailsSettledAs = (typeof BOOTH_DETAILS_SETTLED_AS)[number];

/** Details under the fields of the company's record that keep them: what staff read. */
function asRecorded(details: BoothDetails): Partial<Record<RecordedField, string>> {
  const recorded: Partial<Record<RecordedField, string>> = {};
  for (const field of BOOTH_DETAIL_FIELDS) {
    const value = details[field];
    if (value !== undefined) recorded[recordedAs(field)] = value;
  }
  return recorded;
}

/**
 * Keeps what `repId` typed for its customer `company` that the record does not say, in the
 * transaction of the registration, and that none of the rep's open entries still says (the
 * salon registered again at the booth, maybe after staff applied part of an entry): only
 * what is new. Nothing when the record and those entries say it all.
 */
export async function keepBoothDetails(
  tx: Db,
  repId: number,
  company: CompanyRow,
  typed: Partial<Record<(typeof BOOTH_DETAIL_FIELDS)[number], string | undefined>>,
): Promise<void> {
  let details = boothDetailsNotApplied(typed, company);
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
  for (const entry of open) {
    if (!details) return;
    const said = boothDetailsNotApplied(entry.details, company);
    // Compared as the record is: what the entry still says stands in for the record.
    if (said) details = boothDetailsNotApplied(details, asRecorded(said));
  }
  if (details) await tx.insert(boothDetails).values({ companyId: company.id, repId, details });
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
 * log keeps what it still said (what the record did not), under the record's field names. One settled
 * already stays as it is. Answers the company the entry belongs to, and how the entry was
 * settled: `dismissed` now or before, or `applied` by a correction of the record.
 */
export async function dismissBoothDetails(
  tx: Db,
  id: number,
  actor: StaffActor,
): Promise<{ companyId: number; settledAs: BoothDetailsSettledAs }> {
  const notFoundHere = () => notFound('These details typed at the booth were not found');
  const [found] = await tx
    .select({ companyId: boothDetails.companyId })
    .from(boothDetails)
    .where(eq(boothDetails.id, id));
  if (!found) throw notFoundHere();
  // The company first, as a correction of its record locks it before its entries: two staff
  // members dismissing and correcting at once wait for each other instead of deadlocking.
  const [company] = await tx
    .select()
    .from(companies)
    .where(eq(companies.id, found.companyId))
    .for('update');
  const [entry] = await tx.select().from(boothDetails).where(eq(boothDetails.id, id)).for('update');
  if (!entry || !company) throw notFoundHere();
  // Settled already (dismissed by a colleague, or applied by a correction): as it was.
  if (entry.settledAs) return { companyId: entry.companyId, settledAs: entry.settledAs };
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
    // What staff were shown and dismissed: what the record still did not say.
    before: asRecorded(boothDetailsNotApplied(entry.details, company) ?? {}),
    after: null,
  });
  return { companyId: entry.companyId, settledAs: 'dismissed' };
}

/** Companies with an open entry: the dashboard's count. */
export const companiesWithBoothDetails = (db: Db) =>
  db
    .select({ n: sql<number>`count(DISTINCT ${boothDetails.companyId})`.mapWith(Number) })
    .from(boothDetails)
    .where(isNull(boothDetails.settledAt));
