/**
 * Every name under which the portal keeps something on the device: the IndexedDB
 * database, local-storage keys and service-worker cache names. One place, so that
 * clearing or migrating storage never misses one.
 */
export const DB_NAME = 'hair-care-portal';
export const LANGUAGE_STORAGE_KEY = 'portal.language';
/** The same choice as a cookie, so that the server renders first screens in it. */
export const LANGUAGE_COOKIE = 'portal-language';
/**
 * Set by the server while a session is open in the browser (the app never reads it): a
 * first screen is then rendered in the browser as that user sees it, not by the server
 * as a visitor sees it.
 */
export const SIGNED_IN_COOKIE = 'portal-signed-in';
/** The session (docs/product.md#sign-in): tokens and the signed-in user. */
export const SESSION_KEYS = {
  accessToken: 'portal.accessToken',
  refreshToken: 'portal.refreshToken',
  user: 'portal.user',
} as const;
/** Set once the user has kept the whole catalogue offline, or declined the invitation. */
export const OFFLINE_INVITE_KEY = 'portal.offlineInviteDone';
/** When this device first opened the portal: a device that comes back keeps the app. */
export const FIRST_VISIT_KEY = 'portal.firstVisit';
/** The maker's details for pro-formas made offline, as the server last gave them. */
export const MAKER_KEY = 'portal.maker';
/** Set once a whole catalogue is on the device: its screens then read the device first. */
export const MIRROR_FLAG_KEY = 'portal.catalogueMirrored';
/** Web Lock held while a refresh token is exchanged, so that two tabs never spend it twice. */
export const REFRESH_LOCK = 'portal.refresh';
/**
 * A cookie the app sets while someone is signed in, without an expiry: the browser drops it
 * when it is closed (and restores it with the tabs' session storage when it restores them).
 */
export const BROWSER_OPEN_COOKIE = 'portal-browser-open';
/** Web Lock held while the outbox is replayed: one tab (or the service worker) at a time. */
export const OUTBOX_LOCK = 'portal.outbox';
/** Background Sync tag under which the service worker replays the outbox. */
export const SYNC_TAG = 'portal-outbox';
export const CACHE_NAMES = {
  productImages: 'product-images-v1',
  /** The texts of the languages used on the device (the rest of the app is precached). */
  texts: 'texts-v1',
  /** The code of the signed-in screens, kept once someone signs in on the device. */
  accountScreens: 'account-screens-v1',
} as const;
/** Message by which a page with a signed-in user asks its service worker to keep their screens. */
export const KEEP_ACCOUNT_SCREENS = 'keep-account-screens';
