/** Product pictures: served from the cache first, fetched and kept when missing. */
import type { WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { CACHE_NAMES } from '../src/contracts/storage-names';

/** Enough for every picture of a large catalogue; older ones go first beyond it. */
const MAX_IMAGES = 5_000;
/** Pictures are kept a month; a product's picture rarely changes without a new name. */
const MAX_IMAGE_AGE_SECONDS = 30 * 24 * 60 * 60;

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
          maxAgeSeconds: MAX_IMAGE_AGE_SECONDS,
          purgeOnQuotaError: true,
        }) as WorkboxPlugin,
      ],
    }),
  );
}
