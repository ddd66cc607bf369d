/**
 * The service worker: wires the listeners of each concern and nothing else.
 * - precache: the app shell, so that the app opens with no network;
 * - navigation: every app route answers with the shell, never an /api or /uploads call;
 * - product images: cache first, with an expiry;
 * - background sync: the outbox is replayed when the connection returns, app closed or not.
 */
import { clientsClaim } from 'workbox-core';
import { registerAppShell } from './app-shell';
import { registerBackgroundSync } from './background-sync';
import { registerImageCache } from './image-cache';

declare const self: ServiceWorkerGlobalScope;

registerAppShell(self.__WB_MANIFEST);
registerImageCache();
registerBackgroundSync();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The first install takes control of open pages at once, so that the page that
// installed it works offline without a reload.
clientsClaim();
