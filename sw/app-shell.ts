/**
 * Precaches the built app (the texts of the languages in use apart, see ./texts) and
 * answers navigations with its shell (index.html).
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { isTexts, registerTexts } from './texts';

/** Paths the shell must never answer: the API and uploaded files are not pages. */
const NOT_PAGES = [/^\/api\//, /^\/uploads\//];

export function registerAppShell(manifest: (string | PrecacheEntry)[]): void {
  // The languages' texts are kept language by language, as they are used (see ./texts).
  precacheAndRoute(manifest.filter((entry) => !isTexts(entry)));
  registerTexts(manifest.filter(isTexts));
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NOT_PAGES }),
  );
}
