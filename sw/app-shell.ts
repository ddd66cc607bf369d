/**
 * Precaches what the app needs offline from the first visit on (the texts of the languages
 * in use and the signed-in screens are kept as they are used) and answers navigations with
 * its shell (index.html).
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { registerAccountScreens } from './account-screens';
import { isTexts, registerTexts } from './texts';

/** Paths the shell must never answer: the API and uploaded files are not pages. */
const NOT_PAGES = [/^\/api\//, /^\/uploads\//];

/**
 * `manifest`: the files of the app a visitor can open, the signed-in screens' apart
 * (`accountScreens`: kept once someone signs in, `staffScreens` once a staff member does,
 * `repScreens` once a sales rep does; see ./account-screens); the languages' texts among
 * them are kept language by language (see ./texts).
 */
export function registerAppShell(
  manifest: (string | PrecacheEntry)[],
  accountScreens: string[],
  staffScreens: string[],
  repScreens: string[],
): void {
  precacheAndRoute(manifest.filter((entry) => !isTexts(entry)));
  registerTexts(manifest.filter(isTexts));
  registerAccountScreens(accountScreens, staffScreens, repScreens);
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NOT_PAGES }),
  );
}
