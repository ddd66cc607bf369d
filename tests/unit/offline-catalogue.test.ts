// @vitest-environment happy-dom
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pictureAt } from '../../src/contracts/product-pictures';
import { generatedProduct } from '../fixtures/generated-products';

// "Make available offline" with the catalogue already on the device: what it says of the
// pictures. The mirror, the device's products and the browser's caches are faked.
const products = [1, 2, 3].map((id) => ({
  ...generatedProduct(id),
  images: [`/uploads/products/p-${id}.svg`],
}));
/** A picture uploaded by staff: one file per width (160, 400 and 800 pixels). */
const UPLOADED = `/uploads/products/pic-${'a'.repeat(32)}-800.webp`;
vi.mock('../../src/lib/sync/catalogue-mirror', () => ({ refreshCatalogue: vi.fn() }));
vi.mock('../../src/lib/db/stored-products', () => ({ readAllProducts: () => products }));
vi.mock('../../src/lib/db/db', () => ({
  db: {
    mirrorState: {
      get: () =>
        Promise.resolve({ syncedAt: '2026-11-30T08:00:00Z', complete: true, viewer: 'salon' }),
    },
  },
}));
vi.mock('../../src/lib/sync/offline-invite', () => ({ closeOfflineInvite: vi.fn() }));
// The device's reads answered once, as the faked database never changes.
vi.mock('dexie-react-hooks', async () => {
  const { useEffect, useState } = await import('react');
  return {
    useLiveQuery: <T>(read: () => Promise<T>, deps: unknown[]) => {
      const [value, setValue] = useState<T>();
      useEffect(() => void read().then(setValue), deps);
      return value;
    },
  };
});

const kept = new Map<string, Response>();
const { makeCatalogueAvailableOffline, useDeviceStorage } =
  await import('../../src/lib/sync/offline-catalogue');

beforeEach(() => {
  vi.stubGlobal('navigator', {});
  vi.stubGlobal('caches', {
    open: () =>
      Promise.resolve({
        match: (path: string) => Promise.resolve(kept.get(path)),
        put: (path: string, response: Response) => {
          kept.set(path, response);
          return Promise.resolve();
        },
        keys: () =>
          Promise.resolve([...kept.keys()].map((path) => ({ url: `http://localhost${path}` }))),
      }),
  });
});
afterEach(() => {
  kept.clear();
  vi.unstubAllGlobals();
});

describe('makeCatalogueAvailableOffline', () => {
  it('counts the pictures the server did not give, and keeps the others', async () => {
    vi.stubGlobal('fetch', (path: string) =>
      Promise.resolve(
        path.endsWith('p-2.svg')
          ? new Response('Not found', { status: 404 })
          : new Response('<svg/>', { status: 200 }),
      ),
    );
    const result = await makeCatalogueAvailableOffline(
      'salon',
      new AbortController().signal,
      () => {},
    );
    expect(result).toMatchObject({ products: 3, imagesTotal: 3, imagesDone: 3, imagesMissing: 1 });
    expect([...kept.keys()].sort()).toEqual([
      '/uploads/products/p-1.svg',
      '/uploads/products/p-3.svg',
    ]);
  });

  it('counts none missing when every picture came', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('<svg/>', { status: 200 })));
    const result = await makeCatalogueAvailableOffline(
      'salon',
      new AbortController().signal,
      () => {},
    );
    expect(result.imagesMissing).toBe(0);
    expect(kept.size).toBe(3);
  });

  it('counts its progress in pictures, an uploaded one done once all its widths are', async () => {
    products.push({ ...generatedProduct(4), images: [UPLOADED] });
    try {
      vi.stubGlobal('fetch', () => Promise.resolve(new Response('x', { status: 200 })));
      const seen: [number, number][] = [];
      await makeCatalogueAvailableOffline('salon', new AbortController().signal, (progress) =>
        seen.push([progress.imagesDone, progress.imagesTotal]),
      );
      expect(seen.every(([, total]) => total === 4)).toBe(true);
      // Six files tried, and the first report before any: seven reports, four pictures done.
      expect(seen).toHaveLength(7);
      expect(seen.at(-1)).toEqual([4, 4]);
      expect(kept.size).toBe(6);
    } finally {
      products.pop();
    }
  });

  it('counts a picture once, however many of its widths the server did not give', async () => {
    products.push({ ...generatedProduct(4), images: [UPLOADED] });
    try {
      vi.stubGlobal('fetch', (path: string) =>
        Promise.resolve(
          path.includes('/pic-')
            ? new Response('Server error', { status: 503 })
            : new Response('<svg/>', { status: 200 }),
        ),
      );
      const result = await makeCatalogueAvailableOffline(
        'salon',
        new AbortController().signal,
        () => {},
      );
      // Four pictures, the uploaded one of three files: counted as pictures, as they read.
      expect(result).toMatchObject({ imagesTotal: 4, imagesDone: 4, imagesMissing: 1 });
    } finally {
      products.pop();
    }
  });
});

describe('useDeviceStorage', () => {
  it('counts a picture as on the device once every one of its widths is', async () => {
    products.push({ ...generatedProduct(4), images: [UPLOADED] });
    try {
      kept.set('/uploads/products/p-1.svg', new Response('x'));
      for (const width of [160, 400]) kept.set(pictureAt(UPLOADED, width) ?? '', new Response('x'));
      const { result, rerender } = renderHook(({ key }) => useDeviceStorage(key), {
        initialProps: { key: 0 },
      });
      // Two widths of three: not on the device yet.
      await waitFor(() => expect(result.current).toMatchObject({ imagesKept: 1, imagesTotal: 4 }));
      kept.set(UPLOADED, new Response('x'));
      rerender({ key: 1 });
      await waitFor(() => expect(result.current).toMatchObject({ imagesKept: 2, imagesTotal: 4 }));
    } finally {
      products.pop();
    }
  });
});
