/**
 * How the back office talks to the server (docs/api.md#back-office): reads are asked
 * afresh every time (`no-store`: staff data is never kept on the device), and each change
 * is sent at once under an Idempotency-Key the caller keeps for a retry of the same change
 * (see `useStaffAction` in the admin screens).
 */
import { api } from './client';

/** A list's filters; unset and empty ones stay out of the address. */
export type StaffQuery = Record<string, string | number | boolean | undefined>;

/** The query's values that are set, as the address carries them. */
export function staffSearchParams(query: StaffQuery): Record<string, string | number | boolean> {
  const params: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params[key] = value;
  }
  return params;
}

export const staffRead = <T>(path: string, query: StaffQuery = {}, signal?: AbortSignal) =>
  api
    .get(path, {
      searchParams: staffSearchParams(query),
      cache: 'no-store',
      ...(signal && { signal }),
    })
    .json<T>();

export const staffChange = <T>(
  method: 'post' | 'patch' | 'put' | 'delete',
  path: string,
  key: string,
  body?: object,
) =>
  api[method](path, { ...(body && { json: body }), headers: { 'idempotency-key': key } }).json<T>();
