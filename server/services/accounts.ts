/**
 * Users and companies as the API shows them, and the lookups every authenticated
 * request makes. A company's verification is always what the database says now (read,
 * or kept under the accounts' version: request-accounts.ts), never taken from a token.
 */
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Company, CompanySummary, User } from '../../src/contracts/accounts.js';
import type { Db } from '../db/database.js';
import { companies, companyDocuments, users } from '../db/schema.js';
import { liveSessionEnd } from './tokens.js';

export type UserRow = typeof users.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;

export interface Account {
  user: UserRow;
  company: CompanyRow | null;
  /** The session the request came with, when it came with one. */
  sessionId?: string;
}

export function toCompanySummary(company: CompanyRow): CompanySummary {
  return {
    id: company.id,
    name: company.name,
    isVerified: company.isVerified,
    status: company.status,
  };
}

export function toUserDto({ user, company }: Account): User {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    companyId: user.companyId,
    createdAt: user.createdAt.toISOString(),
    company: company ? toCompanySummary(company) : null,
    notifications: {
      orderNotifications: user.notifyOrders,
      newProductNotifications: user.notifyProducts,
      marketingNewsletter: user.notifyMarketing,
    },
  };
}

/** Documents of a company, counted by status. */
type DocumentCounts = { status: string; n: number }[];

function companyDto(company: CompanyRow, counts: DocumentCounts): Company {
  const countOf = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
  return {
    ...toCompanySummary(company),
    taxNumber: company.taxNumber,
    vatNumber: company.taxNumber,
    registrationNumber: company.registrationNumber,
    email: company.email,
    phone: company.phone,
    address: company.address,
    city: company.city,
    state: company.state,
    postalCode: company.postalCode,
    country: company.country,
    website: company.website,
    industry: company.industry,
    businessType: company.businessType,
    employeeCount: company.employeeCount,
    annualRevenue: company.annualRevenue,
    statusReason: company.statusReason,
    documentsUploaded: counts.reduce((sum, c) => sum + c.n, 0),
    documentsVerified: countOf('APPROVED'),
    documentsRejected: countOf('REJECTED'),
    createdAt: company.createdAt.toISOString(),
    verifiedAt: company.verifiedAt?.toISOString() ?? null,
  };
}

export async function toCompanyDto(db: Db, company: CompanyRow): Promise<Company> {
  const [dto] = await toCompanyDtos(db, [company]);
  return dto as Company;
}

/** Companies as the API shows them, their documents counted in one query for all. */
export async function toCompanyDtos(db: Db, rows: CompanyRow[]): Promise<Company[]> {
  if (rows.length === 0) return [];
  const counts = await db
    .select({ companyId: companyDocuments.companyId, status: companyDocuments.status, n: count() })
    .from(companyDocuments)
    .where(
      inArray(
        companyDocuments.companyId,
        rows.map((row) => row.id),
      ),
    )
    .groupBy(companyDocuments.companyId, companyDocuments.status);
  return rows.map((row) =>
    companyDto(
      row,
      counts.filter((c) => c.companyId === row.id),
    ),
  );
}

/**
 * A live (not deleted, not deactivated) account by user id, with its company; with a session id, only while
 * that session is live too (one query for every authenticated request).
 */
export async function findAccount(db: Db, userId: number): Promise<Account | null> {
  const [row] = await db
    .select({ user: users, company: companies })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.deactivatedAt)));
  return row ?? null;
}

/** The account of a request's session, with the session's end, while the session is live. */
export async function findSessionAccount(
  db: Db,
  userId: number,
  sessionId: string,
): Promise<{ account: Account; sessionEndsAt: Date } | null> {
  const [row] = await db
    .select({ user: users, company: companies, sessionEndsAt: liveSessionEnd(userId, sessionId) })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.deactivatedAt)));
  if (!row?.sessionEndsAt) return null;
  return {
    account: { user: row.user, company: row.company, sessionId },
    sessionEndsAt: row.sessionEndsAt,
  };
}

/** The account of an e-mail, not deleted; a deactivated one too (sign-in says so). */
export async function findAccountByEmail(db: Db, email: string): Promise<Account | null> {
  const [row] = await db
    .select({ user: users, company: companies })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.email, email), isNull(users.deletedAt)));
  return row ?? null;
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email));
  return (row?.n ?? 0) > 0;
}
