/**
 * The back office's words, limits and rules (docs/product.md#back-office): plain values the
 * staff screens use as they are. Their shapes are stated in ./admin-schemas, which only code
 * that checks loads; screens import the types alone, so that the schema builder does not
 * ride into the screens' chunks (nor, through a chunk shared with them, a visitor's).
 */
import type { CompanyStatus } from './accounts';

/** Rows a staff list shows per page unless asked otherwise, and the most it may ask for. */
export const ADMIN_PAGE_SIZE = 20;
export const ADMIN_MAX_PAGE_SIZE = 100;
/** A product with fewer units than this in stock is "low on stock" on the dashboard. */
export const LOW_STOCK_BELOW = 10;
/** The longest reason or note staff may give with a decision. */
export const MAX_REASON_LENGTH = 1000;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export const COMPANY_SORTS = ['createdAt', 'name', 'status'] as const;

/** What staff actions the audit log records, as `<entity>.<action>`. */
export const AUDIT_ACTIONS = [
  'company.approve',
  'company.reject',
  'company.suspend',
  'company.reactivate',
  'company.edit',
  'document.approve',
  'document.reject',
  'document.remove',
  'order.status',
  'order.payment',
  'order.cancel',
  // The catalogue (migration 0012).
  'product.create',
  'product.edit',
  'product.activate',
  'product.deactivate',
  'product.delete',
  'product.pictureAdd',
  'product.pictureRemove',
  'product.pictureOrder',
  'category.create',
  'category.rename',
  'category.order',
  'staff.create',
  'staff.deactivate',
  'staff.reactivate',
  'staff.reset-password',
  // Field sales (migration 0014).
  'company.assign-rep',
  // Details a rep typed at the booth, dismissed (migration 0022).
  'company.booth-details-dismiss',
] as const;
export const AUDIT_ENTITIES = [
  'company',
  'document',
  'order',
  'product',
  'category',
  'staff',
] as const;
/** Where an audited action was made: the back office, or `npm run admin` (no staff account). */
export const AUDIT_ACTOR_VIA = ['back-office', 'command-line'] as const;

export type SortOrder = (typeof SORT_ORDERS)[number];
export type CompanySort = (typeof COMPANY_SORTS)[number];
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];
export type AuditActorVia = (typeof AUDIT_ACTOR_VIA)[number];

export type DocumentStatus = 'PENDING' | 'APPROVED' | 'REJECTED';
export type DocumentDecision = 'APPROVED' | 'REJECTED';

/**
 * The decisions a document's review allows from each status (docs/product.md#back-office):
 * a decision can always be changed; the same decision again only to give a rejected
 * document a new note (the reason its salon reads), never an approval twice.
 */
export function documentDecisionsFrom(status: DocumentStatus): readonly DocumentDecision[] {
  return status === 'PENDING'
    ? ['APPROVED', 'REJECTED']
    : status === 'APPROVED'
      ? ['REJECTED']
      : ['APPROVED', 'REJECTED'];
}

/** The longest first or last name of a staff account. */
export const MAX_STAFF_NAME_LENGTH = 100;

export type CompanyAction = 'approve' | 'reject' | 'suspend' | 'reactivate';

/** The actions each company status allows (docs/product.md#company-verification). */
export const COMPANY_ACTIONS: Record<CompanyStatus, readonly CompanyAction[]> = {
  PENDING: ['approve', 'reject'],
  REJECTED: ['approve'],
  APPROVED: ['suspend'],
  SUSPENDED: ['reactivate'],
};

export type {
  AdminCompanyDetail,
  AdminCompanyEdit,
  BoothDetailsEntry,
  AdminCompanyPage,
  AdminCompanyQuery,
  AdminCompanyRow,
  AdminPagination,
  AdminSummary,
  AuditEntry,
  AuditPage,
  AuditQuery,
  StaffMember,
  StaffList,
  StaffCreate,
  StaffCreated,
  StaffPasswordReset,
  SalesRepSummary,
  SalesRepAssign,
  SalesRepAssigned,
  RegisteredBy,
} from './admin-schemas';
