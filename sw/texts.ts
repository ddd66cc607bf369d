/**
 * The texts of the three languages are kept only for the languages used on this device,
 * not precached all three (two thirds of them would be downloaded for nothing on every
 * first visit). Each language comes in parts (see `textParts` in vite.config.ts):
 * - when the worker installs, a language whose first part the page has already downloaded
 *   (found in the HTTP cache, so nothing is fetched twice) is kept with its other parts;
 * - so is a language an earlier version kept: this version's texts differ in name when they
 *   changed, and a new version may take effect offline (the app closed, then opened at the
 *   fair), when none could be downloaded. A failed download fails the install, and the
 *   version before stays;
 * - a language the page loads later (a switch, online) is kept as it loads;
 * - a new version of the worker drops the texts of the versions before.
 * A language never used on the device cannot be switched to offline; the page says so.
 */
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import type { PrecacheEntry } from 'workbox-precaching';
import { CACHE_NAMES } from '../src/contracts/storage-names';

declare const self: ServiceWorkerGlobalScope;

/** `assets/texts-<language>-<part>-<hash>.js`, as the build names a language's texts. */
const TEXTS = /\/assets\/texts-([a-z]{2})-(first|home|rest)-[^/]+\.js$/;

const urlOf = (entry: string | PrecacheEntry) =>
  new URL(typeof entry === 'string' ? entry : entry.url, self.location.href).href;

export const isTexts = (entry: string | PrecacheEntry) => TEXTS.test(urlOf(entry));

/** Cached from the HTTP cache only: what the page downloaded, never a new download. */
async function alreadyDownloaded(url: string): Promise<Response | null> {
  try {
    const response = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' });
    return response.ok ? response : null;
  } catch {
    return null;
  }
}

/** The languages whose texts this device keeps, of any version. */
async function languagesKept(cache: Cache): Promise<Set<string>> {
  const languages = (await cache.keys()).map((request) => TEXTS.exec(request.url)?.[1]);
  return new Set(languages.filter((language) => language !== undefined));
}

/** Adds what the cache lacks of `urls`. */
async function keepMissing(cache: Cache, urls: string[]): Promise<void> {
  const missing = [];
  for (const url of urls) if (!(await cache.match(url))) missing.push(url);
  await cache.addAll(missing);
}

/**
 * Keeps this version's texts of the languages in use, every part of each: those an earlier
 * version kept, and those the page has downloaded.
 */
async function keepLanguagesInUse(urls: string[]): Promise<void> {
  const cache = await caches.open(CACHE_NAMES.texts);
  const kept = await languagesKept(cache);
  const parts = urls.map((url) => ({ url, match: TEXTS.exec(url) }));
  await Promise.all(
    parts
      .filter(({ match }) => match?.[2] === 'first')
      .map(async ({ url, match }) => {
        const language = match?.[1];
        const all = parts.filter((part) => part.match?.[1] === language).map((part) => part.url);
        if (language !== undefined && kept.has(language)) return keepMissing(cache, all);
        const downloaded = await alreadyDownloaded(url);
        if (!downloaded) return;
        await cache.put(url, downloaded);
        // In use, so needed offline: from the HTTP cache too once the page has loaded them.
        await keepMissing(
          cache,
          all.filter((other) => other !== url),
        );
      }),
  );
}

/** Drops the texts of earlier versions. */
async function dropOtherVersions(urls: Set<string>): Promise<void> {
  const cache = await caches.open(CACHE_NAMES.texts);
  for (const request of await cache.keys()) {
    if (!urls.has(request.url)) await cache.delete(request);
  }
}

export function registerTexts(entries: (string | PrecacheEntry)[]): void {
  const urls = entries.map(urlOf);
  const known = new Set(urls);
  self.addEventListener('install', (event) => event.waitUntil(keepLanguagesInUse(urls)));
  self.addEventListener('activate', (event) => event.waitUntil(dropOtherVersions(known)));
  registerRoute(({ url }) => known.has(url.href), new CacheFirst({ cacheName: CACHE_NAMES.texts }));
}
