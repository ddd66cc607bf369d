/**
 * Whether the server can be reached, decided by asking it: /api/health must answer JSON
 * within a short time. A captive portal, a proxy's error page or a connection that hangs
 * (lie-fi at a fair) counts as offline, whatever navigator.onLine says. The server's own
 * JSON error (its database down) does not: it was reached, and is failing.
 */
import { useSyncExternalStore } from 'react';
import { createListeners } from '../listeners';

/** Longer than this and the connection is not worth using: the rep's taps would hang. */
const HEALTH_TIMEOUT_MS = 4_000;
/**
 * While offline, how long until looking again: soon at first, as most drops are short (a
 * rep walking between halls, a lift), then every 15 s. Whatever else finds the server
 * again (a call that goes through, the browser's `online` event) is news at once.
 */
const RECHECK_OFFLINE_MS = [1_000, 2_000, 4_000, 8_000, 15_000] as const;

export type Connectivity = 'online' | 'offline';

let state: Connectivity =
  typeof navigator !== 'undefined' && navigator.onLine === false ? 'offline' : 'online';
const changes = createListeners();
const reconnects = createListeners();
let recheck: ReturnType<typeof setTimeout> | undefined;
/** Looks taken since the server was last reached: the next waits longer, up to 15 s. */
let rechecks = 0;

/**
 * Keeps a look again planned while offline, however the state came to be offline: also
 * when the page started without a network, and the `online` event found no server.
 */
function planRecheck(): void {
  if (recheck !== undefined) return;
  const delay = RECHECK_OFFLINE_MS[Math.min(rechecks, RECHECK_OFFLINE_MS.length - 1)];
  rechecks += 1;
  recheck = setTimeout(() => {
    recheck = undefined;
    void checkConnectivity();
  }, delay);
}

/**
 * Looks at the server are numbered as they start (the browser's `offline` event takes a
 * number too). The answer of one sets the state unless a later one has already answered:
 * a slow look (one timing out on lie-fi) cannot overwrite a newer answer, and looks
 * started one after the other, each slow, still each say what they found.
 */
let looks = 0;
let applied = 0;

/** Takes the answer of look number `look`; returns it. */
function set(next: Connectivity, look = (looks += 1)): Connectivity {
  if (look <= applied) return next;
  applied = look;
  if (next === 'offline') planRecheck();
  else {
    clearTimeout(recheck);
    recheck = undefined;
    rechecks = 0;
  }
  if (next === state) return next;
  const reconnected = state === 'offline' && next === 'online';
  state = next;
  changes.emit();
  if (reconnected) reconnects.emit();
  return next;
}

/** Asks the server; updates the state, and returns what this look found. */
export async function checkConnectivity(): Promise<Connectivity> {
  const look = (looks += 1);
  if (navigator.onLine === false) return set('offline', look);
  try {
    const response = await fetch('/api/health', {
      cache: 'no-store',
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    const json = (response.headers.get('content-type') ?? '').includes('application/json')
      ? ((await response.json()) as { status?: unknown; message?: unknown })
      : null;
    // The health response, or the server's own error (its database down, say): the server
    // was reached, and a failing server is not "offline" (the calls that fail say so).
    const reached = response.ok ? json?.status === 'ok' : typeof json?.message === 'string';
    return set(reached ? 'online' : 'offline', look);
  } catch {
    return set('offline', look);
  }
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
