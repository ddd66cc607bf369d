/**
 * The back office's audit log (docs/api.md#back-office). Every staff action adds one entry
 * through `recordAudit`, in the transaction of the change it records, so that both are
 * kept or neither is. Entries are only added and read: nothing here changes or removes
 * one, and the database refuses it to anyone who tries (migration 0008).
 */
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type {
  AuditAction,
  AuditEntity,
  AuditEntry,
  AuditPage,
  AuditQuery,
} from '../../src/contracts/admin.js';
import type { Db } from '../db/database.js';
import {
  auditLog,
  categories,
  companies,
  companyDocuments,
  orders,
  products,
  users,
  type AuditFields,
} from '../db/schema.js';
import type { UserRow } from './accounts.js';
import { pageOf, paginationOf } from './pages.js';

/** Who acted: the signed-in staff account. */
export type StaffActor = Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName'>;
/** `npm run admin`: no staff account, the operating-system user who ran it. */
export interface CommandLineActor {
  commandLine: string;
}
export type AuditActor = StaffActor | CommandLineActor;

/** The staff account behind an actor; null for the command line. */
export const actorUserId = (actor: AuditActor): number | null =>
  'commandLine' in actor ? null : actor.id;

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  entityType: AuditEntity;
  entityId: number;
  /** The company the entity is or belongs to. */
  companyId: number | null;
  before: AuditFields | null;
  after: AuditFields | null;
  /** The reason or note the staff member gave. */
  note?: string;
}

/** Adds one entry; `tx` is the transaction of the change it records. */
export async function recordAudit(tx: Db, record: AuditRecord): Promise<void> {
  const { actor } = record;
  await tx.insert(auditLog).values({
    ...('commandLine' in actor
      ? { actorId: null, actorEmail: '', actorName: actor.commandLine, actorVia: 'command-line' }
      : {
          actorId: actor.id,
          actorEmail: actor.email,
          actorName: `${actor.firstName} ${actor.lastName}`.trim(),
          actorVia: 'back-office',
        }),
    action: record.action,
    entityType: record.entityType,
    entityId: record.entityId,
    companyId: record.companyId,
    before: record.before,
    after: record.after,
    note: record.note ?? '',
  });
}

/** A field's value as the log keeps it: an instant as ISO text, the rest as it is. */
function plain(value: unknown): string | number | boolean | null {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * The named fields whose values differ between two versions of a row, as the log keeps
 * them; `always` are recorded even when unchanged (the decision itself, such as a status
 * set again to what it was).
 */
export function changedFields<Row extends object>(
  before: Row,
  after: Row,
  fields: readonly (keyof Row & string)[],
  always: readonly (keyof Row & string)[] = [],
): { before: AuditFields; after: AuditFields } {
  const changed = { before: {} as AuditFields, after: {} as AuditFields };
  for (const field of fields) {
    const [was, is] = [plain(before[field]), plain(after[field])];
    if (was === is && !always.includes(field)) continue;
    changed.before[field] = was;
    changed.after[field] = is;
  }
  return changed;
}

type AuditRow = typeof auditLog.$inferSelect;

/**
 * What an entry names, read with it rather than stored (entries written before names were
 * shown have none stored): the company's name, and the entity's own name: a document's
 * file name, an order's number, a staff member's name, a product's name and SKU, a
 * category's name. Null when the row no longer exists (a removed document keeps the name
 * its removal recorded).
 */
const labelled = {
  entry: auditLog,
  companyName: companies.name,
  entityLabel: sql<string | null>`CASE ${auditLog.entityType}
    WHEN 'company' THEN (SELECT ${companies.name} FROM ${companies} WHERE ${companies.id} = ${auditLog.entityId})
    WHEN 'document' THEN COALESCE(
      (SELECT ${companyDocuments.originalName} FROM ${companyDocuments} WHERE ${companyDocuments.id} = ${auditLog.entityId}),
      -- A removed document: the name its removal recorded.
      (SELECT removed."before" ->> 'originalName' FROM audit_log removed
        WHERE removed.entity_type = 'document' AND removed.action = 'document.remove'
          AND removed.entity_id = ${auditLog.entityId} LIMIT 1))
    WHEN 'order' THEN (SELECT ${orders.orderNumber} FROM ${orders} WHERE ${orders.id} = ${auditLog.entityId})
    WHEN 'staff' THEN (SELECT ${users.firstName} || ' ' || ${users.lastName} FROM ${users} WHERE ${users.id} = ${auditLog.entityId})
    WHEN 'product' THEN (SELECT ${products.name} || ' (' || ${products.sku} || ')' FROM ${products} WHERE ${products.id} = ${auditLog.entityId})
    WHEN 'category' THEN (SELECT ${categories.name} FROM ${categories} WHERE ${categories.id} = ${auditLog.entityId})
  END`,
};

function toEntry({
  entry: row,
  companyName,
  entityLabel,
}: {
  entry: AuditRow;
  companyName: string | null;
  entityLabel: string | null;
}): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actorId, email: row.actorEmail, name: row.actorName, via: row.actorVia },
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    entityLabel,
    companyId: row.companyId,
    companyName,
    before: row.before,
    after: row.after,
    note: row.note,
  };
}

const selectEntries = (db: Db) =>
  db.select(labelled).from(auditLog).leftJoin(companies, eq(companies.id, auditLog.companyId));

const newestFirst = [desc(auditLog.at), desc(auditLog.id)];

/** `GET /api/admin/audit`: the entries that match every filter given, newest first. */
export async function listAudit(db: Db, query: AuditQuery): Promise<AuditPage> {
  const filters: SQL[] = [];
  if (query.action) filters.push(eq(auditLog.action, query.action));
  if (query.entityType) filters.push(eq(auditLog.entityType, query.entityType));
  if (query.entityId) filters.push(eq(auditLog.entityId, query.entityId));
  if (query.companyId) filters.push(eq(auditLog.companyId, query.companyId));
  if (query.actorId) filters.push(eq(auditLog.actorId, query.actorId));
  const where = and(...filters);
  const page = pageOf(query);
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  const rows = await selectEntries(db)
    .where(where)
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(page.offset);
  return { entries: rows.map(toEntry), pagination: paginationOf(page, total?.n ?? 0) };
}

/** Entries a company's page shows at most. */
export const COMPANY_HISTORY_LENGTH = 50;

/** What staff did to a company and to its documents, newest first. */
export async function companyHistory(db: Db, companyId: number): Promise<AuditEntry[]> {
  const rows = await selectEntries(db)
    .where(
      and(eq(auditLog.companyId, companyId), inArray(auditLog.entityType, ['company', 'document'])),
    )
    .orderBy(...newestFirst)
    .limit(COMPANY_HISTORY_LENGTH);
  return rows.map(toEntry);
}
