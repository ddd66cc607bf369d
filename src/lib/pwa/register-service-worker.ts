/**
 * Registers the service worker that makes the app open without a network. Only the
 * production build has one; the development server never registers it.
 */
import { Workbox } from 'workbox-window';

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  void workbox.register();
}
