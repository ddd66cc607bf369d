/**
 * "Make available offline" and "Prepare for the fair" keep the signed-in user's screens
 * too, and wait for them: the service worker keeps them on its own once someone signs in
 * (./register-service-worker), but a device taken offline right after would find a screen
 * it had not kept yet.
 */
import type { Role } from '../../contracts/accounts';
import { KEEP_SCREENS_NOW, SCREENS_KEPT } from '../../contracts/keep-screens';

/** Asks `worker` to keep the screens of `role`; resolves once it has. */
function keptBy(worker: ServiceWorker, role: Role): Promise<void> {
  const channel = new MessageChannel();
  const kept = new Promise<void>((resolve, reject) => {
    channel.port1.onmessage = (event: MessageEvent) => {
      channel.port1.close();
      if (event.data === SCREENS_KEPT) resolve();
      else reject(new Error(`The screens could not be kept: ${String(event.data)}`));
    };
  });
  worker.postMessage({ type: KEEP_SCREENS_NOW, role }, [channel.port2]);
  return kept;
}

/**
 * Asks the service worker to keep the screens of `role` and resolves once it has; rejects
 * when it could not. A new version waiting to take over keeps its own files of them too:
 * it may take over offline. Without a service worker (development, a browser without one)
 * there is nothing to wait for.
 */
export async function keepScreensNow(role: Role): Promise<void> {
  if (!('serviceWorker' in navigator) || !(await navigator.serviceWorker.getRegistration())) {
    return;
  }
  const registration = await navigator.serviceWorker.ready;
  const workers = [registration.active, registration.waiting].filter((worker) => worker !== null);
  await Promise.all(workers.map((worker) => keptBy(worker, role)));
}
