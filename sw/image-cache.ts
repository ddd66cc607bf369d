/** Product pictures: served from the cache first, fetched and kept when missing. */
import type { WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { CACHE_NAMES } from '../src/contracts/storage-names';

/**
 * Enough for every picture of a large catalogue; the least recently used go first beyond
 * it. There is no age limit: a picture never changes under its name (a new one is uploaded
 * under a new name), and one kept by "Make available offline" must still show at a fair
 * months later (a picture past its age would be fetched again, and offline not shown).
 */
const MAX_IMAGES = 5_000;

export function registerImageCache(): void {
  registerRoute(
    ({ url, request }) =>
      url.origin === self.location.origin &&
      request.destination === 'image' &&
      url.pathname.startsWith('/uploads/products/'),
    new CacheFirst({
      cacheName: CACHE_NAMES.productImages,
      plugins: [
        // Workbox's own types disagree under exactOptionalPropertyTypes (an optional
        // callback declared `| undefined`); the plugin is what CacheFirst expects.
        new ExpirationPlugin({
          maxEntries: MAX_IMAGES,
          purgeOnQuotaError: true,
        }) as WorkboxPlugin,
      ],
    }),
  );
}
