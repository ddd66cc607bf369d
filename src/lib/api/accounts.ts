import type {
  Company,
  CompanyDocument,
  DocumentField,
  NotificationSettings,
  User,
} from '../../contracts/accounts';
import { api } from './client';

export interface LoginResponse {
  accessToken: string;
  refreshToken: string;
  user: User;
}

export const login = (email: string, password: string, rememberMe: boolean) =>
  api.post('auth/login', { json: { email, password, rememberMe } }).json<LoginResponse>();

export const logoutSession = (refreshToken: string) =>
  api.post('auth/logout', { json: { refreshToken } });

export const fetchMe = () =>
  api
    .get('auth/me')
    .json<{ user: User }>()
    .then((body) => body.user);

export interface RegisterRequest {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  companyName: string;
  companyEmail: string;
  companyCountry: string;
  taxNumber: string;
}

export const registerPerson = (payload: RegisterRequest) =>
  api.post('auth/register', { json: payload }).json<{ message: string }>();

export function registerCompany(
  fields: Record<string, string>,
  files: { field: DocumentField; file: File }[],
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const { field, file } of files) form.append(field, file, file.name);
  return api
    .post('auth/register-company', { body: form, timeout: 120_000 })
    .json<{ message: string }>();
}

export const updateProfile = (payload: { firstName: string; lastName: string; email: string }) =>
  api.put('users/profile', { json: payload }).json<{ message: string }>();

export const changePassword = (currentPassword: string, newPassword: string) =>
  api.put('users/password', { json: { currentPassword, newPassword } }).json<{ message: string }>();

export const updateNotifications = (settings: NotificationSettings) =>
  api.put('users/notifications', { json: settings }).json<{ user: User }>();

export const deleteAccount = (password: string) => api.delete('users/me', { json: { password } });

/** A new link to confirm the user's e-mail address (docs/api.md#password-reset-and-e-mail-verification). */
export const resendVerification = () =>
  api.post('auth/verify-email/resend', { json: {} }).json<{ message: string }>();

export const fetchMyCompany = () =>
  api
    .get('companies/me')
    .json<{ company: Company }>()
    .then((b) => b.company);

export const fetchMyDocuments = () =>
  api
    .get('companies/me/documents')
    .json<{ documents: CompanyDocument[] }>()
    .then((b) => b.documents);

/**
 * Uploads one of the company's documents. The same `key` for the same file again (after a
 * response lost on the way) gets the first upload's answer: the file is stored once.
 */
export function uploadDocument(field: DocumentField, file: File, key: string) {
  const form = new FormData();
  form.append(field, file, file.name);
  return api
    .post('companies/me/documents', {
      body: form,
      timeout: 120_000,
      headers: { 'idempotency-key': key },
    })
    .json<{ message: string; documents: CompanyDocument[] }>();
}

/** Downloads one's own document and hands it to the browser as a file. */
export async function downloadDocument(document: CompanyDocument): Promise<void> {
  const blob = await api.get(`companies/me/documents/${document.id}/file`).blob();
  const url = URL.createObjectURL(blob);
  const link = window.document.createElement('a');
  link.href = url;
  link.download = document.originalName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
