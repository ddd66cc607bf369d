/**
 * Whether the app is kept on this device (docs/product.md#offline). A first visit
 * downloads what its screen shows and nothing more: someone who opens one page and leaves
 * has paid for that page alone. The rest (the service worker with the app for offline
 * use, the other texts, the sync engine and the catalogue copy) comes once the visitor
 * stays: on a second screen, on signing in, when the app is installed or opened installed,
 * and on any later visit of this device.
 */
import { useSyncExternalStore } from 'react';
import { FIRST_VISIT_KEY } from '../contracts/storage-names';
import { createListeners } from './listeners';
import { whenIdle } from './when-idle';

/** Opened from the home screen (or the dock): installed, so kept. */
export const runsInstalled = (): boolean =>
  window.matchMedia?.('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;

/** Whether this device has opened the portal before; notes this visit for the next one. */
function cameBack(): boolean {
  try {
    if (localStorage.getItem(FIRST_VISIT_KEY) !== null) return true;
    localStorage.setItem(FIRST_VISIT_KEY, new Date().toISOString());
  } catch {
    // storage unavailable: each visit counts as a first one until the visitor stays
  }
  return false;
}

let kept: boolean | undefined;
let resolveKept: () => void;
const keptPromise = new Promise<void>((resolve) => {
  resolveKept = resolve;
});
const changes = createListeners();

/** Whether the app is kept; read from the device on the first call. */
export function appKept(): boolean {
  if (kept === undefined) {
    kept = cameBack() || runsInstalled();
    if (kept) resolveKept();
  }
  return kept;
}

/** The visitor stays: the app is kept from now on (and on every later visit). */
export function keepApp(): void {
  if (appKept()) return;
  kept = true;
  resolveKept();
  changes.emit();
}

/** Resolves once the app is kept and the browser is idle: the first screen never waits for it. */
export function whenKept(): Promise<void> {
  appKept();
  return keptPromise.then(whenIdle);
}

/** `appKept()` for a component: false while the server renders. */
export function useAppKept(): boolean {
  return useSyncExternalStore(changes.add, appKept, () => false);
}
