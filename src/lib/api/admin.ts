/**
 * The back office's calls (docs/api.md#back-office), for staff only. They need the
 * network: nothing here is kept on the device, and every answer is read afresh
 * (`no-store`), so that a screen never shows an old answer as the current one. Changes
 * are made at once, not queued, each under an Idempotency-Key that the caller keeps for
 * a retry of the same change (see `useStaffAction` in the admin screens).
 */
import type {
  AdminCompanyDetail,
  CompanyAction,
  AdminCompanyEdit,
  AdminCompanyPage,
  AdminCompanyQuery,
  AdminSummary,
  AuditPage,
  AuditQuery,
  SalesRepAssign,
  SalesRepAssigned,
  StaffCreate,
  StaffCreated,
  StaffList,
  StaffMember,
} from '../../contracts/admin';
import type { Company, CompanyDocument } from '../../contracts/accounts';
import { api } from './client';
import { staffChange, staffRead } from './staff-calls';

export type DocumentAction = 'approve' | 'reject';

export const fetchAdminSummary = (signal?: AbortSignal) =>
  staffRead<AdminSummary>('admin/summary', {}, signal);

export const fetchAdminCompanies = (query: AdminCompanyQuery, signal?: AbortSignal) =>
  staffRead<AdminCompanyPage>('admin/companies', { ...query }, signal);

export const fetchAdminCompany = (id: number, signal?: AbortSignal) =>
  staffRead<AdminCompanyDetail>(`admin/companies/${id}`, {}, signal);

export const fetchAuditLog = (query: AuditQuery, signal?: AbortSignal) =>
  staffRead<AuditPage>('admin/audit', { ...query }, signal);

/** Approve, reject, suspend or reactivate a company; a reason goes with reject and suspend. */
export const decideCompany = (id: number, action: CompanyAction, reason: string, key: string) =>
  staffChange<{ company: Company }>(
    'post',
    `admin/companies/${id}/${action}`,
    key,
    action === 'reject' || action === 'suspend' ? { reason } : {},
  );

/** Corrects a company's data: only the fields given change. */
export const editCompany = (id: number, fields: AdminCompanyEdit, key: string) =>
  staffChange<{ company: Company }>('patch', `admin/companies/${id}`, key, fields);

/** Assigns the company its sales rep (an active one), or none with `null`. */
export const assignSalesRep = (id: number, salesRepId: number | null, key: string) =>
  staffChange<SalesRepAssigned>('put', `admin/companies/${id}/sales-rep`, key, {
    salesRepId,
  } satisfies SalesRepAssign);

/** Dismisses details a rep typed at the booth, which staff decide not to apply. */
export const dismissBoothDetails = (id: number, key: string) =>
  staffChange<{ companyId: number; settledAs: 'dismissed' | 'applied' }>(
    'post',
    `admin/booth-details/${id}/dismiss`,
    key,
    {},
  );

export const reviewDocument = (id: number, action: DocumentAction, notes: string, key: string) =>
  staffChange<{ document: CompanyDocument }>('post', `admin/documents/${id}/${action}`, key, {
    reviewNotes: notes,
  });

/** Removes a company's document for good (the audit log keeps its name). */
export const removeDocument = (id: number, key: string) =>
  staffChange<{ deleted: number }>('delete', `admin/documents/${id}`, key);

/** A company's document, to show in the page (never kept on the device). */
export const fetchDocumentFile = (id: number, signal?: AbortSignal) =>
  api
    .get(`admin/documents/${id}/file`, {
      cache: 'no-store',
      timeout: 120_000,
      ...(signal && { signal }),
    })
    .blob();

/** People: the maker's accounts, staff and sales reps. */
export const fetchStaff = (signal?: AbortSignal) => staffRead<StaffList>('admin/staff', {}, signal);

/** A new staff or sales rep account; the answer carries its temporary password, this once. */
export const createStaffMember = (fields: StaffCreate, key: string) =>
  staffChange<StaffCreated>('post', 'admin/staff', key, fields);

export type StaffAction = 'deactivate' | 'reactivate' | 'reset-password';

/** Deactivates, reactivates, or resets the password of (a new temporary one) an account. */
export const changeStaffMember = (id: number, action: StaffAction, key: string) =>
  staffChange<{ member: StaffMember; temporaryPassword?: string | null }>(
    'post',
    `admin/staff/${id}/${action}`,
    key,
    {},
  );
