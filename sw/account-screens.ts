/**
 * The signed-in screens (cart, orders, sync centre, profile, the user menu) are kept once
 * someone signs in, not precached on every visitor's first visit: nobody can open them
 * without signing in, and signing in needs the network. The back office's screens are kept
 * the same way, for staff only, and field sales' for sales reps only (the pro-forma's PDF
 * library and fonts are the signed-in screens': salons make pro-formas too). A page with a signed-in user asks for them
 * (KEEP_ACCOUNT_SCREENS, saying the user's role), from the HTTP cache when it has loaded
 * them already; a screen loaded through the worker is kept as it loads; a new version of
 * the worker drops the files of the versions before.
 *
 * A new version keeps its own files of the screens an earlier one kept, when it installs:
 * it may take effect offline (the app closed, then opened at the fair), when no page could
 * ask for them. Which roles' screens were kept is marked in the cache for that.
 */
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import type { Role } from '../src/contracts/accounts';
import { KEEP_SCREENS_NOW, SCREENS_KEPT } from '../src/contracts/keep-screens';
import { CACHE_NAMES, KEEP_ACCOUNT_SCREENS } from '../src/contracts/storage-names';

declare const self: ServiceWorkerGlobalScope;

/** The mark in the cache that the screens of `role` are kept (a path nothing serves). */
const roleMark = (role: Role) => new URL(`kept-screens/${role}`, self.registration.scope).href;
const ROLE_MARK = /\/kept-screens\/([A-Z_]+)$/;

/** Keeps every file of the signed-in screens that is not kept yet, and marks the role's. */
async function keepAll(urls: string[], role?: Role): Promise<void> {
  const cache = await caches.open(CACHE_NAMES.accountScreens);
  const missing = [];
  for (const url of urls) if (!(await cache.match(url))) missing.push(url);
  await cache.addAll(missing);
  if (role) await cache.put(roleMark(role), new Response(null));
}

/** What an earlier version kept: whether any screens, and whose roles' screens. */
async function keptBefore(): Promise<{ any: boolean; roles: Role[] }> {
  const cache = await caches.open(CACHE_NAMES.accountScreens);
  const urls = (await cache.keys()).map((request) => request.url);
  const roles = urls.map((url) => ROLE_MARK.exec(url)?.[1] as Role | undefined);
  return {
    any: urls.some((url) => !ROLE_MARK.test(url)) || roles.some(Boolean),
    roles: roles.filter((role) => role !== undefined),
  };
}

async function dropOtherVersions(urls: Set<string>): Promise<void> {
  const cache = await caches.open(CACHE_NAMES.accountScreens);
  for (const request of await cache.keys()) {
    if (!urls.has(request.url) && !ROLE_MARK.test(request.url)) await cache.delete(request);
  }
}

/**
 * `files`: paths in the build of what only the signed-in screens load; `staffFiles`: of
 * what only the back office's screens load, kept when the page says its user is staff;
 * `repFiles`: of what only field sales' screens load, kept when the user is a sales rep.
 */
export function registerAccountScreens(
  files: string[],
  staffFiles: string[],
  repFiles: string[],
): void {
  const toUrls = (paths: string[]) => paths.map((file) => new URL(file, self.location.href).href);
  const urls = toUrls(files);
  const byRole: Partial<Record<Role, string[]>> = {
    ADMIN: toUrls(staffFiles),
    SALES_REP: toUrls(repFiles),
  };
  const known = new Set([...urls, ...Object.values(byRole).flat()]);
  registerRoute(
    ({ url }) => known.has(url.href),
    new CacheFirst({ cacheName: CACHE_NAMES.accountScreens }),
  );
  // Downloaded while installing, online: a failure fails the install, and the version
  // before stays.
  self.addEventListener('install', (event) =>
    event.waitUntil(
      keptBefore().then(({ any, roles }) =>
        any
          ? keepAll([...new Set([...urls, ...roles.flatMap((role) => byRole[role] ?? [])])])
          : undefined,
      ),
    ),
  );
  self.addEventListener('activate', (event) => event.waitUntil(dropOtherVersions(known)));
  self.addEventListener('message', (event) => {
    const data = event.data as { type?: string; role?: Role } | null;
    if (data?.type === KEEP_ACCOUNT_SCREENS || data?.type === KEEP_SCREENS_NOW) {
      const own = (data.role && byRole[data.role]) ?? [];
      // A page that waits for the screens to be kept ("Make available offline") is told.
      const [reply] = event.ports;
      event.waitUntil(
        keepAll([...new Set([...urls, ...own])], data.role).then(
          () => reply?.postMessage(SCREENS_KEPT),
          (error: unknown) => {
            reply?.postMessage(String(error));
            throw error;
          },
        ),
      );
    }
  });
}
