/**
 * The service worker as the page sees it: registration, the "new version" prompt and
 * the install prompt. A waiting version is activated only when the user asks for it, so
 * the page never reloads by itself (a rep may be typing an order).
 */
import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';
import type { Role } from '../../contracts/accounts';
import { KEEP_ACCOUNT_SCREENS } from '../../contracts/storage-names';
import { keepApp, runsInstalled, whenKept } from '../kept-on-device';
import { createListeners } from '../listeners';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface PwaState {
  updateReady: boolean;
  canInstall: boolean;
  installed: boolean;
  /** iPhones and iPads install from Safari's share menu: there is no prompt, only a how-to. */
  iosInstructions: boolean;
}

let workbox: Workbox | undefined;
/** The signed-in user's role whose screens are kept, for a new version to keep as well. */
let keptRole: Role | undefined;
let installEvent: BeforeInstallPromptEvent | undefined;
const SERVER_STATE: PwaState = {
  updateReady: false,
  canInstall: false,
  installed: false,
  iosInstructions: false,
};
let state = SERVER_STATE;
const changes = createListeners();
const set = (next: Partial<PwaState>) => {
  // An unchanged state stays the same object: nothing re-renders for it.
  if (Object.entries(next).every(([key, value]) => state[key as keyof PwaState] === value)) return;
  state = { ...state, ...next };
  changes.emit();
};

export function usePwaState(): PwaState {
  return useSyncExternalStore(
    changes.add,
    () => state,
    () => SERVER_STATE,
  );
}

/** An iPhone or an iPad: iPadOS's Safari says it is a Mac, but a Mac has no touch screen. */
const isIos = () =>
  /iphone|ipad|ipod/i.test(navigator.userAgent) ||
  (/macintosh/i.test(navigator.userAgent) && navigator.maxTouchPoints > 1);

export function registerServiceWorker(): void {
  set({
    installed: runsInstalled(),
    iosInstructions: isIos() && !runsInstalled(),
  });
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installEvent = event as BeforeInstallPromptEvent;
    set({ canInstall: true });
  });
  window.addEventListener('appinstalled', () => {
    installEvent = undefined;
    set({ canInstall: false, installed: true });
    keepApp();
  });
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // The service worker is set up once the visitor stays, and the page is up: it must
  // not compete with it.
  void whenKept()
    .then(() => Promise.all([import('workbox-window'), import('./look-for-updates')]))
    .then(([{ Workbox }, { lookForUpdates }]) => {
      // A classic script, not a module: browsers without module service workers (Firefox
      // before 147) keep the portal offline too.
      workbox = new Workbox('/sw.js', { scope: '/' });
      workbox.addEventListener('waiting', () => {
        set({ updateReady: true });
        // The new version keeps its own files of the signed-in screens too: it may take
        // over offline (the app closed, then opened at a fair).
        if (keptRole) keepAccountScreens(keptRole);
      });
      lookForUpdates(workbox);
      return workbox.register();
    })
    .catch((error: unknown) => {
      // Offline when the visitor stayed: the app is kept from the next page load on.
      console.warn('The service worker could not be set up', error);
    });
}

/**
 * A user is signed in: the service worker keeps the signed-in screens for offline use
 * (a visitor's first visit does not download them), for staff the back office's and for
 * a sales rep field sales', once it is active; so does a new version waiting to take over.
 */
export function keepAccountScreens(role: Role): void {
  keptRole = role;
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready.then((registration) => {
    for (const worker of [registration.active, registration.waiting]) {
      worker?.postMessage({ type: KEEP_ACCOUNT_SCREENS, role });
    }
  });
}

/**
 * Activates the waiting version and reloads into it, when the user asked for it. When
 * another tab has activated it already, none is waiting any more and this page runs the
 * version before under the new one: it reloads at once.
 */
export async function applyUpdate(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!workbox || !registration?.waiting) {
    window.location.reload();
    return;
  }
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}

export async function installApp(): Promise<void> {
  if (!installEvent) return;
  await installEvent.prompt();
  const choice = await installEvent.userChoice;
  if (choice.outcome === 'accepted') {
    set({ canInstall: false });
    keepApp();
  }
}
