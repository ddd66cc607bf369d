/**
 * The service worker as the page sees it: registration, the "new version" prompt and
 * the install prompt. A waiting version is activated only when the user asks for it, so
 * the page never reloads by itself (a rep may be typing an order).
 */
import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';
import { whenIdle } from '../when-idle';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface PwaState {
  updateReady: boolean;
  canInstall: boolean;
  installed: boolean;
}

let workbox: Workbox | undefined;
let installEvent: BeforeInstallPromptEvent | undefined;
let state: PwaState = { updateReady: false, canInstall: false, installed: false };
const listeners = new Set<() => void>();
const set = (next: Partial<PwaState>) => {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
};

export function usePwaState(): PwaState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}

const standalone = () =>
  window.matchMedia?.('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;

/** iPhones and iPads install from Safari's share menu: there is no install prompt to show. */
export const needsIosInstructions = (): boolean =>
  /iphone|ipad|ipod/i.test(navigator.userAgent) && !standalone();

export function registerServiceWorker(): void {
  set({ installed: standalone() });
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installEvent = event as BeforeInstallPromptEvent;
    set({ canInstall: true });
  });
  window.addEventListener('appinstalled', () => {
    installEvent = undefined;
    set({ canInstall: false, installed: true });
  });
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // The service worker is set up once the page is up: it must not compete with it.
  void whenIdle()
    .then(() => import('workbox-window'))
    .then(({ Workbox }) => {
      workbox = new Workbox('/sw.js', { scope: '/' });
      workbox.addEventListener('waiting', () => set({ updateReady: true }));
      return workbox.register();
    });
}

/** Activates the waiting version and reloads into it, when the user asked for it. */
export function applyUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}

export async function installApp(): Promise<void> {
  if (!installEvent) return;
  await installEvent.prompt();
  const choice = await installEvent.userChoice;
  if (choice.outcome === 'accepted') set({ canInstall: false });
}
