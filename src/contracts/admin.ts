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
] as const;
export const AUDIT_ENTITIES = ['company', 'document', 'order', 'product', 'category'] as const;

export type SortOrder = (typeof SORT_ORDERS)[number];
export type CompanySort = (typeof COMPANY_SORTS)[number];
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

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
  AdminCompanyPage,
  AdminCompanyQuery,
  AdminPagination,
  AdminSummary,
  AuditEntry,
  AuditPage,
  AuditQuery,
} from './admin-schemas';
