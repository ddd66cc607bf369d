/**
 * Whether the server can be reached, decided by asking it: /api/health must answer JSON
 * within a short time. A captive portal, a proxy's error page or a connection that hangs
 * (lie-fi at a fair) counts as offline, whatever navigator.onLine says.
 */
import { useSyncExternalStore } from 'react';
import { createListeners } from '../listeners';

/** Longer than this and the connection is not worth using: the rep's taps would hang. */
const HEALTH_TIMEOUT_MS = 4_000;
/** How often to look again while offline. */
const RECHECK_OFFLINE_MS = 15_000;

export type Connectivity = 'online' | 'offline';

let state: Connectivity =
  typeof navigator !== 'undefined' && navigator.onLine === false ? 'offline' : 'online';
const changes = createListeners();
const reconnects = createListeners();
let recheck: ReturnType<typeof setInterval> | undefined;

function set(next: Connectivity): void {
  if (next === state) return;
  const reconnected = state === 'offline' && next === 'online';
  state = next;
  changes.emit();
  if (reconnected) reconnects.emit();
  clearInterval(recheck);
  if (next === 'offline') recheck = setInterval(() => void checkConnectivity(), RECHECK_OFFLINE_MS);
}

/** Asks the server; updates and returns the state. */
export async function checkConnectivity(): Promise<Connectivity> {
  if (navigator.onLine === false) {
    set('offline');
    return state;
  }
  try {
    const response = await fetch('/api/health', {
      cache: 'no-store',
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    const json = (response.headers.get('content-type') ?? '').includes('application/json')
      ? ((await response.json()) as { status?: string })
      : null;
    set(response.ok && json?.status === 'ok' ? 'online' : 'offline');
  } catch {
    set('offline');
  }
  return state;
}

/**
 * News that the state may be wrong: a call to the server failed to connect, or one went
 * through while the state says offline. Looks again now.
 */
export function recheckConnectivity(): void {
  void checkConnectivity();
}

export const getConnectivity = (): Connectivity => state;

export function useConnectivity(): Connectivity {
  return useSyncExternalStore(
    changes.add,
    getConnectivity,
    // A page rendered by the server was, by definition, online.
    () => 'online',
  );
}

/** Called each time the server can be reached again after it could not. */
export const onReconnect = reconnects.add;

let started = false;

export function startConnectivity(): void {
  if (started) return;
  started = true;
  window.addEventListener('online', () => void checkConnectivity());
  window.addEventListener('offline', () => set('offline'));
  void checkConnectivity();
}
