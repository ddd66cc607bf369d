/** Precaches the built app and answers navigations with its shell (index.html). */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

/** Paths the shell must never answer: the API and uploaded files are not pages. */
const NOT_PAGES = [/^\/api\//, /^\/uploads\//];

export function registerAppShell(manifest: (string | PrecacheEntry)[]): void {
  precacheAndRoute(manifest);
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NOT_PAGES }),
  );
}
