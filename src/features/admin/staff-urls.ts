/**
 * The staff lists' filters as kept in the address, so that a link, a reload and the back
 * button keep them. Anything the address holds that the server would refuse is left out.
 */
import { COMPANY_STATUSES, type CompanyStatus } from '../../contracts/accounts';
import {
  ADMIN_PAGE_SIZE,
  AUDIT_ACTIONS,
  COMPANY_SORTS,
  SORT_ORDERS,
  type AdminCompanyQuery,
  type AuditAction,
  type AuditQuery,
  type CompanySort,
  type SortOrder,
} from '../../contracts/admin';
import { MAIL_STATUSES, type AdminMailQuery, type MailStatus } from '../../contracts/mail';
import { MAX_TEXT_LENGTH } from '../../contracts/validation';

/** A whole number from 1 in the address (a page, an id), else undefined. */
export const positiveInt = (value: string | null): number | undefined => {
  if (value === null || !/^\d{1,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
};

/** The address's value when it is one of `options`, else undefined. */
export const oneOf = <T extends string>(
  options: readonly T[],
  value: string | null,
): T | undefined => options.find((option) => option === value);

/**
 * How a list's address changes (companies, orders, products): any change but the page
 * itself goes back to page 1.
 */
export function listChange<V extends { page: number }>(
  read: (params: URLSearchParams) => V,
  write: (view: V) => string,
): (params: URLSearchParams, change: Partial<V>) => URLSearchParams {
  return (params, change) => {
    const view = read(params);
    const resetPage = Object.keys(change).some((key) => key !== 'page');
    const url = write({ ...view, ...(resetPage ? { page: 1 } : {}), ...change });
    return new URLSearchParams(url.split('?')[1] ?? '');
  };
}

export interface CompaniesView {
  search: string;
  status: CompanyStatus | undefined;
  /** Only companies with a document waiting for review (the dashboard's tile). */
  documents: 'PENDING' | undefined;
  /** Only companies with details typed at a booth that wait for staff (the dashboard's tile). */
  boothDetails: 'OPEN' | undefined;
  sortBy: CompanySort;
  sortOrder: SortOrder;
  page: number;
}

/** The list's order when none is asked for: the newest registrations first. */
const DEFAULT_SORT: Pick<CompaniesView, 'sortBy' | 'sortOrder'> = {
  sortBy: 'createdAt',
  sortOrder: 'desc',
};

/** The order a column sorts in when it is first chosen: names A to Z, dates newest first. */
export const FIRST_ORDER: Record<CompanySort, SortOrder> = {
  createdAt: 'desc',
  name: 'asc',
  status: 'asc',
};

export function readCompaniesUrl(params: URLSearchParams): CompaniesView {
  const sortBy = oneOf(COMPANY_SORTS, params.get('sortBy')) ?? DEFAULT_SORT.sortBy;
  return {
    search: (params.get('search') ?? '').slice(0, MAX_TEXT_LENGTH),
    status: oneOf(COMPANY_STATUSES, params.get('status')),
    documents: params.get('documents') === 'PENDING' ? 'PENDING' : undefined,
    boothDetails: params.get('boothDetails') === 'OPEN' ? 'OPEN' : undefined,
    sortBy,
    sortOrder: oneOf(SORT_ORDERS, params.get('sortOrder')) ?? FIRST_ORDER[sortBy],
    page: positiveInt(params.get('page')) ?? 1,
  };
}

export function writeCompaniesUrl(view: CompaniesView): string {
  const params = new URLSearchParams();
  if (view.search.trim()) params.set('search', view.search.trim());
  if (view.status) params.set('status', view.status);
  if (view.documents) params.set('documents', view.documents);
  if (view.boothDetails) params.set('boothDetails', view.boothDetails);
  if (view.sortBy !== DEFAULT_SORT.sortBy || view.sortOrder !== DEFAULT_SORT.sortOrder) {
    params.set('sortBy', view.sortBy);
    params.set('sortOrder', view.sortOrder);
  }
  if (view.page > 1) params.set('page', String(view.page));
  const text = params.toString();
  return text ? `/admin/companies?${text}` : '/admin/companies';
}

/** The address after a change: any change but the page itself goes back to page 1. */
export const applyCompaniesChange = listChange(readCompaniesUrl, writeCompaniesUrl);

/** What the server is asked for a view of the list. */
export function companiesQuery(view: CompaniesView): AdminCompanyQuery {
  const search = view.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(view.status ? { status: view.status } : {}),
    ...(view.documents ? { documents: view.documents } : {}),
    ...(view.boothDetails ? { boothDetails: view.boothDetails } : {}),
    sortBy: view.sortBy,
    sortOrder: view.sortOrder,
    page: view.page,
    limit: ADMIN_PAGE_SIZE,
  };
}

export interface AuditView {
  action: AuditAction | undefined;
  companyId: number | undefined;
  page: number;
}

export function readAuditUrl(params: URLSearchParams): AuditView {
  return {
    action: oneOf(AUDIT_ACTIONS, params.get('action')),
    companyId: positiveInt(params.get('companyId')),
    page: positiveInt(params.get('page')) ?? 1,
  };
}

export function writeAuditUrl(view: AuditView): string {
  const params = new URLSearchParams();
  if (view.action) params.set('action', view.action);
  if (view.companyId !== undefined) params.set('companyId', String(view.companyId));
  if (view.page > 1) params.set('page', String(view.page));
  const text = params.toString();
  return text ? `/admin/audit?${text}` : '/admin/audit';
}

export function auditQuery(view: AuditView): AuditQuery {
  return {
    ...(view.action ? { action: view.action } : {}),
    ...(view.companyId !== undefined ? { companyId: view.companyId } : {}),
    page: view.page,
    limit: ADMIN_PAGE_SIZE,
  };
}

export interface MailView {
  search: string;
  status: MailStatus | undefined;
  page: number;
}

export function readMailUrl(params: URLSearchParams): MailView {
  return {
    search: (params.get('search') ?? '').slice(0, MAX_TEXT_LENGTH),
    status: oneOf(MAIL_STATUSES, params.get('status')),
    page: positiveInt(params.get('page')) ?? 1,
  };
}

export function writeMailUrl(view: MailView): string {
  const params = new URLSearchParams();
  if (view.search.trim()) params.set('search', view.search.trim());
  if (view.status) params.set('status', view.status);
  if (view.page > 1) params.set('page', String(view.page));
  const text = params.toString();
  return text ? `/admin/mail?${text}` : '/admin/mail';
}

/** The address after a change: any change but the page itself goes back to page 1. */
export const applyMailChange = listChange(readMailUrl, writeMailUrl);

export function mailQuery(view: MailView): AdminMailQuery {
  const search = view.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(view.status ? { status: view.status } : {}),
    page: view.page,
    limit: ADMIN_PAGE_SIZE,
  };
}
