/**
 * The maker's back office: finding companies, verifying them and reviewing their
 * documents. Used by the /api/admin routes and by the `npm run admin` command line.
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  isNotNull,
  isNull,
  ne,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { Company, CompanyDocument } from '../../src/contracts/accounts.js';
import {
  COMPANY_ACTIONS,
  documentDecisionsFrom,
  type CompanyAction,
} from '../../src/contracts/admin.js';
import type {
  AdminCompanyDetail,
  AdminCompanyEdit,
  AdminCompanyPage,
  AdminCompanyQuery,
} from '../../src/contracts/admin-schemas.js';
import { validateCompanyEdit } from '../../src/contracts/form-schemas.js';
import { normalizeEmail, trimFields } from '../../src/contracts/validation.js';
import type { Db } from '../db/database.js';
import { boothDetails, companies, companyDocuments, users, withTaxNumber } from '../db/schema.js';
import { toCompanyDto, toCompanyDtos, type CompanyRow } from './accounts.js';
import { openBoothDetails, settleAppliedBoothDetails } from './booth-details.js';
import {
  changedFields,
  companyHistory,
  recordAudit,
  type AuditActor,
  type StaffActor,
} from './audit.js';
import { settleAwaitingOrders } from './admin-orders.js';
import { DOCUMENT_COLUMNS, toDocumentDto } from './documents.js';
import type { MailMessage } from './mail/kinds.js';
import { mailCompanyUsers } from './mail/queue.js';
import { conflict, HttpError, invalidFields, notFound } from './errors.js';
import { containing, pageOf, paginationOf } from './pages.js';
import { registeredByOf, salesRepOf } from './sales-reps.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { revokeAllSessions } from './tokens.js';

/** What each sort of the company list orders by; the id breaks ties, in the same direction. */
const COMPANY_ORDER: Record<NonNullable<AdminCompanyQuery['sortBy']>, SQLWrapper[]> = {
  createdAt: [companies.createdAt],
  // Case-insensitive, as people read names (index companies_name_idx).
  name: [sql`lower(${companies.name})`],
  status: [companies.status, companies.createdAt],
};

/**
 * `GET /api/admin/companies`: a page of companies, newest first unless asked otherwise. The
 * search is a substring of the name, tax number, e-mail or city, whatever its case and
 * diacritics.
 */
export async function listCompanyPage(db: Db, query: AdminCompanyQuery): Promise<AdminCompanyPage> {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(companies.status, query.status));
  // The companies behind the dashboard's "Documents to review", whatever their status.
  if (query.documents === 'PENDING') {
    filters.push(
      exists(
        db
          .select({ id: companyDocuments.id })
          .from(companyDocuments)
          .where(
            and(
              eq(companyDocuments.companyId, companies.id),
              eq(companyDocuments.status, 'PENDING'),
            ),
          ),
      ),
    );
  }
  // The companies behind the dashboard's "Details typed at a booth".
  if (query.boothDetails === 'OPEN') {
    filters.push(
      exists(
        db
          .select({ id: boothDetails.id })
          .from(boothDetails)
          .where(and(eq(boothDetails.companyId, companies.id), isNull(boothDetails.settledAt))),
      ),
    );
  }
  const search = query.search?.trim();
  if (search) {
    // search_text is folded by the database's search_fold: the search is too.
    filters.push(containing(companies.searchText, 'search_fold', search));
  }
  const where = and(...filters);
  const direction = query.sortOrder === 'asc' ? asc : desc;
  const order = [...COMPANY_ORDER[query.sortBy ?? 'createdAt'], companies.id].map((column) =>
    direction(column),
  );
  const page = pageOf(query);
  const [total] = await db.select({ n: count() }).from(companies).where(where);
  const rows = await db
    .select()
    .from(companies)
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  const [dtos, registrars] = await Promise.all([toCompanyDtos(db, rows), registeredByOf(db, rows)]);
  return {
    companies: dtos.map((company) => ({
      ...company,
      registeredBy: registrars.get(company.id) ?? null,
    })),
    pagination: paginationOf(page, total?.n ?? 0),
  };
}

/** Most companies a company's page names as registered with its tax number too. */
const MAX_SAME_TAX_NUMBER = 10;

export async function companyDetail(db: Db, id: number): Promise<AdminCompanyDetail> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  if (!row) throw notFound('Company not found');
  const documents = await db
    .select(DOCUMENT_COLUMNS)
    .from(companyDocuments)
    .where(eq(companyDocuments.companyId, id))
    .orderBy(desc(companyDocuments.uploadedAt));
  const people = await db
    .select({
      id: users.id,
      email: users.email,
      emailVerified: sql<boolean>`${users.emailVerifiedAt} IS NOT NULL`.mapWith(Boolean),
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(and(eq(users.companyId, id), isNull(users.deletedAt)))
    .orderBy(asc(users.id));
  const sameTaxNumber = await db
    .select({
      id: companies.id,
      name: companies.name,
      city: companies.city,
      status: companies.status,
    })
    .from(companies)
    .where(and(withTaxNumber(row.taxNumber), ne(companies.id, id)))
    .orderBy(asc(companies.id))
    .limit(MAX_SAME_TAX_NUMBER);
  return {
    company: await toCompanyDto(db, row),
    salesRep: await salesRepOf(db, id),
    registeredBy: (await registeredByOf(db, [row])).get(id) ?? null,
    documents: documents.map(toDocumentDto),
    users: people,
    boothDetails: await openBoothDetails(db, row),
    history: await companyHistory(db, id),
    sameTaxNumber,
  };
}

/** What staff may correct of a company (AdminCompanyEditSchema), in the order shown. */
const EDITABLE_FIELDS = [
  'name',
  'taxNumber',
  'registrationNumber',
  'email',
  'phone',
  'address',
  'city',
  'state',
  'postalCode',
  'country',
  'website',
] as const satisfies readonly (keyof AdminCompanyEdit & keyof CompanyRow)[];

/**
 * `PATCH /api/admin/companies/{id}`: corrects the fields sent, by the rules the staff form
 * checks (form-schemas.ts, CompanyEditFormSchema).
 *
 * 1. Trim the values and check them: a broken rule is a 400 and nothing changes.
 * 2. Lock the company and keep only the fields whose value differs.
 * 3. Nothing differs: answer the company as it is, with no change and no entry in the log.
 * 4. Otherwise change those fields and record them, before and after, in the same transaction.
 */
export async function editCompany(
  db: Db,
  id: number,
  edit: AdminCompanyEdit,
  actor: StaffActor,
): Promise<Company> {
  const values = trimFields(edit, EDITABLE_FIELDS);
  // The rules name every field; only those sent are checked (an absent name is no error).
  const errors = validateCompanyEdit(values).filter((error) => error.field in values);
  if (errors.length > 0) throw invalidFields(errors);

  const [row] = await db.select().from(companies).where(eq(companies.id, id)).for('update');
  if (!row) throw notFound('Company not found');
  const changed = EDITABLE_FIELDS.filter(
    (field) => values[field] !== undefined && values[field] !== row[field],
  );
  if (changed.length === 0) return toCompanyDto(db, row);

  const [updated = row] = await db
    .update(companies)
    .set({
      ...Object.fromEntries(changed.map((field) => [field, values[field]])),
      updatedAt: new Date(),
    })
    .where(eq(companies.id, id))
    .returning();
  await settleAppliedBoothDetails(db, updated, actor);
  await recordAudit(db, {
    actor,
    action: 'company.edit',
    entityType: 'company',
    entityId: id,
    companyId: id,
    ...changedFields(row, updated, changed),
  });
  return toCompanyDto(db, updated);
}

/** What a company's people are told of staff's decision: a reactivation reads as an approval. */
function decisionMessage(action: CompanyAction, companyName: string, reason: string): MailMessage {
  switch (action) {
    case 'approve':
    case 'reactivate':
      return { kind: 'company-approved', data: { companyName } };
    case 'reject':
      return { kind: 'company-rejected', data: { companyName, reason } };
    case 'suspend':
      return { kind: 'company-suspended', data: { companyName, reason: reason.trim() || null } };
  }
}

/**
 * `POST /api/admin/companies/{id}/approve|reject|suspend|reactivate` and `npm run admin`:
 * moves the company (COMPANY_ACTIONS) and records it in the audit log; approving or
 * rejecting it also moves the orders its rep took while it awaited verification
 * (`settleAwaitingOrders`), in the same transaction.
 */
export async function decideCompany(
  db: Db,
  id: number,
  action: CompanyAction,
  reason = '',
  /**
   * Who decides, staff or the command line (`npm run admin`): the audit log records it.
   * Left out only where tests set up a company's status; every route and command gives one.
   */
  actor?: AuditActor,
): Promise<Company> {
  // Locked: an approval and a rejection at the same moment must not both pass the check.
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).for('update');
  if (!row) throw notFound('Company not found');
  // The actions each status allows (contracts/admin.ts): a decision is never silently repeated.
  if (!COMPANY_ACTIONS[row.status].includes(action)) {
    throw new HttpError(
      409,
      `A ${row.status.toLowerCase()} company cannot be given the action "${action}".`,
      undefined,
      {
        code: 'COMPANY_DECISION_NOT_ALLOWED',
        params: { status: row.status, allowed: COMPANY_ACTIONS[row.status].join(',') },
      },
    );
  }
  const now = new Date();
  const change =
    action === 'approve' || action === 'reactivate'
      ? {
          status: 'APPROVED' as const,
          isVerified: true,
          verifiedAt: row.verifiedAt ?? now,
          statusReason: '',
        }
      : action === 'reject'
        ? { status: 'REJECTED' as const, isVerified: false, statusReason: reason }
        : { status: 'SUSPENDED' as const, statusReason: reason };
  const [updated = row] = await db
    .update(companies)
    .set({ ...change, updatedAt: now })
    .where(eq(companies.id, id))
    .returning();
  // Its people are told (docs/product.md#e-mail), before any order the decision cancels.
  await mailCompanyUsers(db, id, decisionMessage(action, updated.name, reason));
  // The orders its rep took while it awaited verification follow the decision.
  if (action === 'approve' || action === 'reject') {
    await settleAwaitingOrders(
      db,
      id,
      action === 'approve' ? { approved: true } : { approved: false, reason },
      actor ?? { commandLine: '' },
    );
  }
  if (actor) {
    await recordAudit(db, {
      actor,
      action: `company.${action}`,
      entityType: 'company',
      entityId: id,
      companyId: id,
      ...changedFields(row, updated, ['status', 'isVerified', 'verifiedAt', 'statusReason']),
      note: reason,
    });
  }
  return toCompanyDto(db, updated);
}

export async function reviewDocument(
  db: Db,
  id: number,
  status: 'APPROVED' | 'REJECTED',
  reviewNotes: string,
  /** The staff member reviewing: the audit log records it. */
  actor: AuditActor,
): Promise<CompanyDocument> {
  // Locked, so that the log says what it was before; a document still being uploaded (no
  // company yet) is not there to review.
  const [row] = await db
    .select({
      companyId: companyDocuments.companyId,
      status: companyDocuments.status,
      reviewNotes: companyDocuments.reviewNotes,
    })
    .from(companyDocuments)
    .where(and(eq(companyDocuments.id, id), isNotNull(companyDocuments.companyId)))
    .for('update');
  if (!row) throw notFound('Document not found');
  // The decisions its status allows (contracts/admin.ts, documentDecisionsFrom): changing
  // a decision is fine, repeating it is not, but for a rejection given a new note.
  const allowed = documentDecisionsFrom(row.status);
  const sameRejection =
    status === 'REJECTED' &&
    row.status === 'REJECTED' &&
    (reviewNotes.trim() === '' || reviewNotes.trim() === row.reviewNotes.trim());
  if (!allowed.includes(status) || sameRejection) {
    throw new HttpError(
      409,
      sameRejection
        ? 'This document is already rejected with this note. Change the note to tell the salon something new.'
        : `This document is already ${row.status.toLowerCase()}.`,
      undefined,
      {
        code: 'DOCUMENT_DECISION_NOT_ALLOWED',
        params: { status: row.status, allowed: allowed.join(',') },
      },
    );
  }
  const now = new Date();
  const [updated] = await db
    .update(companyDocuments)
    .set({ status, reviewNotes, reviewedAt: now, updatedAt: now })
    .where(eq(companyDocuments.id, id))
    .returning(DOCUMENT_COLUMNS);
  if (!updated) throw notFound('Document not found');
  if (status === 'REJECTED' && row.companyId !== null) {
    const [company] = await db
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, row.companyId));
    await mailCompanyUsers(db, row.companyId, {
      kind: 'document-rejected',
      data: {
        companyName: company?.name ?? '',
        documentName: updated.originalName,
        note: reviewNotes,
      },
    });
  }
  await recordAudit(db, {
    actor,
    action: status === 'APPROVED' ? 'document.approve' : 'document.reject',
    entityType: 'document',
    entityId: id,
    companyId: row.companyId,
    // A rejection given a new note keeps its status: the decision is recorded all the same.
    ...changedFields(row, updated, ['status', 'reviewNotes'], ['status']),
    note: reviewNotes,
  });
  return toDocumentDto(updated);
}

/**
 * Removes one of a company's documents, for good: an old or wrong one, so that a company at
 * its document limit (documents.ts, checkDocumentQuota) can upload again. The audit log
 * keeps what it was; the file itself is gone. A document still being uploaded (no company
 * yet) is not there to remove.
 */
export async function removeDocument(db: Db, id: number, actor: AuditActor): Promise<void> {
  const [row] = await db
    .delete(companyDocuments)
    .where(and(eq(companyDocuments.id, id), isNotNull(companyDocuments.companyId)))
    .returning({
      companyId: companyDocuments.companyId,
      type: companyDocuments.type,
      status: companyDocuments.status,
      originalName: companyDocuments.originalName,
    });
  if (!row) throw notFound('Document not found');
  const { companyId, ...removed } = row;
  await recordAudit(db, {
    actor,
    action: 'document.remove',
    entityType: 'document',
    entityId: id,
    companyId,
    before: removed,
    after: null,
  });
}

/** Why a staff account was not made: the e-mail is a customer's. */
export const CUSTOMER_EMAIL_FOR_STAFF =
  'This e-mail address belongs to a customer account. Staff accounts are never made out of ' +
  'customer accounts: choose another e-mail address for the staff account.';

/**
 * Creates the staff account, or sets its password when it exists. An e-mail that belongs
 * to a customer is refused (409): promoting it would hand the back office, with the
 * customer's company and sessions, to whoever registered that address first.
 *
 * The password it already has changes nothing ('unchanged'): every server process runs
 * this at start with ADMIN_EMAIL/ADMIN_PASSWORD, and a restart must not sign staff out.
 * Processes starting at once on a new database make the account once; the others find it.
 */
export async function ensureAdmin(
  db: Db,
  email: string,
  password: string,
  /** Who asked (the command line, or the server's start from ADMIN_EMAIL): the log says so. */
  actor?: AuditActor,
): Promise<'created' | 'updated' | 'unchanged'> {
  const normalized = normalizeEmail(email);
  const [existing] = await db
    .select({ id: users.id, role: users.role, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalized));
  if (existing && existing.role !== 'ADMIN') throw conflict(CUSTOMER_EMAIL_FOR_STAFF);
  if (existing && (await verifyPassword(existing.passwordHash, password))) return 'unchanged';
  const passwordHash = await hashPassword(password);
  if (existing) {
    await db
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, existing.id));
    // A staff password is reset when it may have leaked: its sessions end with it.
    await revokeAllSessions(db, existing.id);
    if (actor) {
      await recordAudit(db, {
        actor,
        action: 'staff.reset-password',
        entityType: 'staff',
        entityId: existing.id,
        companyId: null,
        before: null,
        after: null,
      });
    }
    return 'updated';
  }
  const [created] = await db
    .insert(users)
    .values({
      email: normalized,
      passwordHash,
      firstName: 'Staff',
      lastName: 'Admin',
      role: 'ADMIN',
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  // Another process made it between the look and the insert: it is theirs to have made.
  if (!created) return ensureAdmin(db, email, password, actor);
  if (actor) {
    await recordAudit(db, {
      actor,
      action: 'staff.create',
      entityType: 'staff',
      entityId: created.id,
      companyId: null,
      before: null,
      after: { firstName: 'Staff', lastName: 'Admin', email: normalized, active: true },
    });
  }
  return 'created';
}
