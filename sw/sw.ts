/**
 * The service worker: wires the listeners of each concern and nothing else.
 * - precache: the app shell, so that the app opens with no network; the texts of the
 *   languages in use and the signed-in screens (the staff's and the reps' by role), kept
 *   as they are used;
 * - navigation: every app route answers with the shell, never an /api or /uploads call;
 * - product images: cache first, with an expiry;
 * - background sync: the outbox is replayed when the connection returns, app closed or not.
 */
import { clientsClaim } from 'workbox-core';
import { registerAppShell } from './app-shell';
import { registerBackgroundSync } from './background-sync';
import { registerImageCache } from './image-cache';

declare const self: ServiceWorkerGlobalScope & {
  /** The files only the signed-in screens load (written by the build, see vite.config.ts). */
  __ACCOUNT_SCREENS: string[];
  /** The files only the back office's screens load (the same). */
  __STAFF_SCREENS: string[];
  /** The files only field sales' screens load (the same). */
  __REP_SCREENS: string[];
};

registerAppShell(
  self.__WB_MANIFEST,
  self.__ACCOUNT_SCREENS,
  self.__STAFF_SCREENS,
  self.__REP_SCREENS,
);
registerImageCache();
registerBackgroundSync();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The first install takes control of open pages at once, so that the page that
// installed it works offline without a reload.
clientsClaim();
