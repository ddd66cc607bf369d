/**
 * The page's request to the service worker to keep its user's screens and say when they
 * are kept ("Make available offline", "Prepare for the fair"): the same work as
 * KEEP_ACCOUNT_SCREENS (./storage-names), answered on the message's port with
 * SCREENS_KEPT. A module of its own, so that the first screens carry nothing for it.
 */
export const KEEP_SCREENS_NOW = 'keep-screens-now';
export const SCREENS_KEPT = 'screens-kept';
