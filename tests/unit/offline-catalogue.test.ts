import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
vi.mock('../../src/lib/db/db', () => ({ db: {} }));
vi.mock('../../src/lib/sync/offline-invite', () => ({ closeOfflineInvite: vi.fn() }));

const kept = new Map<string, Response>();
const { makeCatalogueAvailableOffline } = await import('../../src/lib/sync/offline-catalogue');

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
      expect(result).toMatchObject({ imagesTotal: 6, imagesMissing: 1 });
    } finally {
      products.pop();
    }
  });
});
