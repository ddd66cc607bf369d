/** The sync loop's state as screens read it (see ./sync-loop). */
import { useSyncExternalStore } from 'react';
import { useConnectivity } from './connectivity';
import { syncLoop } from './device';
import type { SyncState } from './sync-loop';

export function useSyncState(): SyncState {
  return useSyncExternalStore(syncLoop.subscribe, syncLoop.getState);
}

/**
 * Why waiting changes have not reached the server, for the screens to say: the device is
 * offline (as the connectivity module decides, not navigator.onLine), the server failed,
 * the server could not be reached by the last attempt, or the device's storage failed.
 */
export type SendingProblem = 'offline' | 'serverFailed' | 'unreachable' | 'storageFailed';

export function useSendingProblem(): SendingProblem | null {
  const sync = useSyncState();
  const connectivity = useConnectivity();
  if (sync.storageFailed) return 'storageFailed';
  if (connectivity === 'offline') return 'offline';
  if (sync.retryAt === null) return null;
  return sync.serverFailed ? 'serverFailed' : 'unreachable';
}
