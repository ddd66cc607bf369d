/**
 * "Make available offline": the whole catalogue on the device, products first, then every
 * product picture, with progress, cancellable and resumable (pictures already kept are
 * skipped). It asks the browser to keep this storage, and reports what is stored, and how
 * many pictures the server did not give.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { pictureFiles } from '../../contracts/product-pictures';
import { CACHE_NAMES } from '../../contracts/storage-names';
import { db } from '../db/db';
import { storageRefusal } from '../db/storage-errors';
import { readAllProducts } from '../db/stored-products';
import { refreshCatalogue } from './catalogue-mirror';
import { closeOfflineInvite } from './offline-invite';

export interface DownloadProgress {
  products: number;
  /** Pictures with every file kept or tried (an uploaded picture has one file per width). */
  imagesDone: number;
  imagesTotal: number;
  /** Pictures with a file the server answered with an error (missing, or a fault). */
  imagesMissing: number;
  bytes: number;
}

export class StorageFullError extends Error {
  constructor() {
    super('The device has no more room for the catalogue');
    this.name = 'StorageFullError';
  }
}

const isQuotaError = (error: unknown): boolean => storageRefusal(error) === 'full';

/** Pictures fetched at once: enough to keep a slow link busy, few enough not to choke it. */
const PARALLEL_IMAGES = 4;

export async function makeCatalogueAvailableOffline(
  viewer: string,
  signal: AbortSignal,
  onProgress: (progress: DownloadProgress) => void,
): Promise<DownloadProgress> {
  await navigator.storage?.persist?.().catch(() => false);
  try {
    await refreshCatalogue(db, { viewer });
  } catch (error) {
    if (isQuotaError(error)) throw new StorageFullError();
    throw error;
  }
  const products = await readAllProducts(db);
  // Each file of each picture (an uploaded one has one file per width), and its picture.
  const pictureOf = new Map(
    products.flatMap((p) =>
      p.images.flatMap((image) => pictureFiles(image).map((file) => [file, image] as const)),
    ),
  );
  const paths = [...pictureOf.keys()];
  // Files of each picture still to keep or try: the progress counts pictures, as people do.
  const filesLeft = new Map<string, number>();
  for (const picture of pictureOf.values())
    filesLeft.set(picture, (filesLeft.get(picture) ?? 0) + 1);
  const missing = new Set<string>();
  const cache = await caches.open(CACHE_NAMES.productImages);
  const progress: DownloadProgress = {
    products: products.length,
    imagesDone: 0,
    imagesTotal: filesLeft.size,
    imagesMissing: 0,
    bytes: 0,
  };
  onProgress({ ...progress });

  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      signal.throwIfAborted();
      const path = paths[next++] as string;
      const picture = pictureOf.get(path) ?? path;
      if (!(await cache.match(path))) {
        const response = await fetch(path, { signal });
        if (response.ok) {
          const body = await response.clone().arrayBuffer();
          try {
            await cache.put(path, response);
          } catch (error) {
            if (isQuotaError(error)) throw new StorageFullError();
            throw error;
          }
          progress.bytes += body.byteLength;
        } else {
          missing.add(picture);
          progress.imagesMissing = missing.size;
        }
      }
      const left = (filesLeft.get(picture) ?? 1) - 1;
      filesLeft.set(picture, left);
      if (left === 0) progress.imagesDone += 1;
      onProgress({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_IMAGES }, worker));
  closeOfflineInvite();
  return progress;
}

export interface DeviceStorage {
  products: number;
  syncedAt: string | null;
  /** Whose prices the copy holds, once a refresh completed it; null before, or part-way. */
  pricesOf: string | null;
  imagesKept: number;
  imagesTotal: number;
  usedBytes: number | null;
  quotaBytes: number | null;
  persistent: boolean | null;
}

/** What the device holds of the catalogue, and how much room it has. */
export function useDeviceStorage(refreshKey: number): DeviceStorage | undefined {
  const mirror = useLiveQuery(async () => {
    const products = await readAllProducts(db);
    const state = await db.mirrorState.get('catalogue');
    return {
      products: products.length,
      syncedAt: state?.syncedAt ?? null,
      pricesOf: state?.complete ? state.viewer : null,
      pictures: [...new Set(products.flatMap((p) => p.images))],
    };
  }, []);
  const [extra, setExtra] = useState<Omit<
    DeviceStorage,
    'products' | 'syncedAt' | 'pricesOf' | 'imagesTotal'
  > | null>(null);
  useEffect(() => {
    if (!mirror) return;
    let live = true;
    void (async () => {
      const cache =
        typeof caches === 'undefined' ? null : await caches.open(CACHE_NAMES.productImages);
      const kept = cache
        ? new Set((await cache.keys()).map((r) => new URL(r.url).pathname))
        : new Set<string>();
      const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
      const persistent = (await navigator.storage?.persisted?.().catch(() => null)) ?? null;
      if (live) {
        setExtra({
          // A picture is on the device when every one of its files is.
          imagesKept: mirror.pictures.filter((picture) =>
            pictureFiles(picture).every((file) => kept.has(file)),
          ).length,
          usedBytes: estimate?.usage ?? null,
          quotaBytes: estimate?.quota ?? null,
          persistent,
        });
      }
    })();
    return () => {
      live = false;
    };
  }, [mirror, refreshKey]);
  if (!mirror || !extra) return undefined;
  return {
    products: mirror.products,
    syncedAt: mirror.syncedAt,
    pricesOf: mirror.pricesOf,
    imagesTotal: mirror.pictures.length,
    ...extra,
  };
}
