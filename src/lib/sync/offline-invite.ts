import { OFFLINE_INVITE_KEY } from '../../contracts/storage-names';

/** The invitation to keep the catalogue offline, shown to a verified company until used or declined. */
export function offlineInviteOpen(): boolean {
  try {
    return localStorage.getItem(OFFLINE_INVITE_KEY) === null;
  } catch {
    return false;
  }
}

export function closeOfflineInvite(): void {
  try {
    localStorage.setItem(OFFLINE_INVITE_KEY, new Date().toISOString());
  } catch {
    // storage unavailable: the invitation simply shows again
  }
}
