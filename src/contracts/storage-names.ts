/**
 * Every name under which the portal keeps something on the device: the IndexedDB
 * database, local-storage keys and service-worker cache names. One place, so that
 * clearing or migrating storage never misses one.
 */
export const DB_NAME = 'hair-care-portal';
export const LANGUAGE_STORAGE_KEY = 'portal.language';
export const CACHE_NAMES = {
  productImages: 'product-images-v1',
} as const;
