/**
 * An app left open all day (on a salon's home screen, a rep's tablet at a fair) loads no
 * page that would find a new version: it looks for one itself when the connection
 * returns, when it is shown again (at most every ten minutes), and every hour while shown. One found
 * waits as the "new version" prompt.
 */
import type { Workbox } from 'workbox-window';

const EVERY_MS = 60 * 60 * 1000;
const WHEN_SHOWN_AFTER_MS = 10 * 60 * 1000;

export function lookForUpdates(workbox: Workbox): void {
  let lookedAt = Date.now();
  const look = () => {
    lookedAt = Date.now();
    // Offline, or the server failed: the next occasion looks again.
    workbox.update().catch(() => undefined);
  };
  window.addEventListener('online', look);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lookedAt > WHEN_SHOWN_AFTER_MS)
      look();
  });
  setInterval(() => {
    if (document.visibilityState === 'visible') look();
  }, EVERY_MS);
}
