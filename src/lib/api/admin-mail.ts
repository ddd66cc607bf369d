/**
 * The back office's outgoing e-mail (docs/api.md#outgoing-e-mail), for staff only: read
 * afresh every time, never kept on the device.
 */
import type { AdminMailDetail, AdminMailPage, AdminMailQuery } from '../../contracts/mail';
import { staffRead } from './staff-calls';

export const fetchAdminMail = (query: AdminMailQuery, signal?: AbortSignal) =>
  staffRead<AdminMailPage>('admin/mail', { ...query }, signal);

export const fetchAdminMailMessage = (id: number, signal?: AbortSignal) =>
  staffRead<AdminMailDetail>(`admin/mail/${id}`, {}, signal);
