// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, configure, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/contracts/accounts';
import type { Product, ProductPage, ProductQuery } from '../../src/contracts/catalogue';
import { MIRROR_FLAG_KEY } from '../../src/contracts/storage-names';
import { GENERATED_CATEGORY, generatedProduct } from '../fixtures/generated-products';

// The network: the page the server answers for a query, and the mirror's refresh.
const network = vi.hoisted(() => ({
  fetchProducts: vi.fn<(query: unknown) => Promise<ProductPage>>(),
  fetchCatalogueMirror: vi.fn<() => Promise<never>>(),
}));
vi.mock('../../src/lib/api/catalogue', () => ({
  fetchProducts: network.fetchProducts,
  fetchProduct: vi.fn(() => new Promise(() => {})),
}));
vi.mock('../../src/lib/api/catalogue-mirror', () => ({
  fetchCatalogueMirror: network.fetchCatalogueMirror,
}));

// Whether the server can be reached is the connectivity module's to say; faked here.
const connectivity = vi.hoisted((): { state: 'online' | 'offline'; asked: number } => ({
  state: 'online',
  asked: 0,
}));
vi.mock('../../src/lib/sync/connectivity', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/lib/sync/connectivity')>()),
  checkConnectivity: () => {
    connectivity.asked += 1;
    return Promise.resolve(connectivity.state);
  },
}));

// Who is signed in: nobody (a visitor) unless a test says otherwise.
const session = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('../../src/lib/auth/session', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/lib/auth/session')>()),
  useUser: () => session.user,
}));

const { useCatalogueQuery } = await import('../../src/lib/sync/use-catalogue');
const { db } = await import('../../src/lib/db/db');
const { clearProducts, storeProducts } = await import('../../src/lib/db/stored-products');
const { markFirstScreen } = await import('../../src/lib/when-idle');
const { keepApp } = await import('../../src/lib/kept-on-device');

const query = (overrides: Partial<ProductQuery> = {}): ProductQuery => ({
  page: 1,
  limit: 2,
  search: '',
  sortBy: 'name',
  ...overrides,
});

const pageOf = (products: Product[]): ProductPage => ({
  products,
  pagination: { page: 1, limit: 2, totalProducts: products.length, totalPages: 1 },
});

/** A whole catalogue on the device, as a completed refresh leaves it. */
async function mirrorOnDevice(products: Product[]): Promise<void> {
  await storeProducts(db, products);
  await db.categories.put(GENERATED_CATEGORY);
  await db.mirrorState.put({
    key: 'catalogue',
    cursor: '2026-01-01T00:00:00.000Z',
    syncedAt: new Date().toISOString(),
    complete: true,
    viewer: 'visitor',
  });
  localStorage.setItem(MIRROR_FLAG_KEY, new Date().toISOString());
}

/** The mirror's refresh fails without an answer, as it does when nothing comes back. */
const noAnswer = () => Promise.reject(new TypeError('Failed to fetch'));

const names = (view: ReturnType<typeof useCatalogueQuery>) =>
  view.status === 'ready' ? view.page.products.map((p) => p.name) : view.status;

beforeAll(() => {
  // Waits give up after 10 s, not Testing Library's 1 s: the first one also loads the sync
  // engine, which took 1.6 s on a loaded machine.
  configure({ asyncUtilTimeout: 10_000 });
  // The sync engine loads once the first screen is up, on a device that keeps the app.
  markFirstScreen();
  keepApp();
});

beforeEach(async () => {
  session.user = null;
  connectivity.state = 'online';
  connectivity.asked = 0;
  network.fetchProducts.mockReset();
  network.fetchCatalogueMirror.mockReset().mockImplementation(noAnswer);
  localStorage.clear();
  await clearProducts(db);
  await db.mirrorState.clear();
  await db.categories.clear();
});

afterEach(() => {
  cleanup();
});

describe('the catalogue query hook', () => {
  it('answers from the device, without asking the server, when the catalogue is there', async () => {
    await mirrorOnDevice([generatedProduct(1, { name: 'Argan oil' }), generatedProduct(2)]);
    const { result } = renderHook(() => useCatalogueQuery(query()));

    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current).toMatchObject({ source: 'device', offline: false });
    expect(names(result.current)).toEqual(['Argan oil', 'Product 2']);
    expect(network.fetchProducts).not.toHaveBeenCalled();
  });

  it('answers from the server when the catalogue is not on the device', async () => {
    network.fetchProducts.mockResolvedValue(pageOf([generatedProduct(7, { name: 'Keratin' })]));
    const { result } = renderHook(() => useCatalogueQuery(query({ search: 'keratin' })));

    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current).toMatchObject({ source: 'network', syncedAt: undefined });
    expect(names(result.current)).toEqual(['Keratin']);
    expect(network.fetchProducts).toHaveBeenCalledWith(query({ search: 'keratin' }));
  });

  it.each([
    { connectivity: 'offline' as const, offline: true },
    { connectivity: 'online' as const, offline: false },
  ])(
    'says offline ($offline) when a refresh fails and the server is found $connectivity',
    async ({ connectivity: found, offline }) => {
      connectivity.state = found;
      network.fetchProducts.mockResolvedValue(pageOf([generatedProduct(3)]));
      const { result } = renderHook(() => useCatalogueQuery(query()));

      await waitFor(() => expect(result.current.status).toBe('ready'));
      await waitFor(() => expect(connectivity.asked).toBeGreaterThan(0));
      // Let the failure be sorted and told before looking.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(result.current).toMatchObject({ status: 'ready', offline });
      expect(network.fetchCatalogueMirror).toHaveBeenCalled();
    },
  );

  it("never shows the previous query's page as the new one's while it loads", async () => {
    let answerSecond: (page: ProductPage) => void = () => {};
    const second = new Promise<ProductPage>((resolve) => {
      answerSecond = resolve;
    });
    network.fetchProducts
      .mockResolvedValueOnce(pageOf([generatedProduct(1, { name: 'Shampoo' })]))
      .mockReturnValueOnce(second);
    const { result, rerender } = renderHook(({ q }) => useCatalogueQuery(q), {
      initialProps: { q: query({ search: 'shampoo' }) },
    });
    await waitFor(() => expect(names(result.current)).toEqual(['Shampoo']));

    rerender({ q: query({ search: 'mask' }) });
    expect(result.current.status).toBe('loading');

    answerSecond(pageOf([generatedProduct(2, { name: 'Mask' })]));
    await waitFor(() => expect(names(result.current)).toEqual(['Mask']));
  });

  it('moves to the new data when the copy on the device changes', async () => {
    await mirrorOnDevice([generatedProduct(1, { name: 'Argan oil' }), generatedProduct(2)]);
    const { result } = renderHook(() => useCatalogueQuery(query()));
    await waitFor(() => expect(names(result.current)).toEqual(['Argan oil', 'Product 2']));

    // As a refresh (in this tab or another) writes a renamed product.
    await storeProducts(db, [
      generatedProduct(2, { name: 'Aloe gel', updatedAt: '2026-02-01T00:00:00.000Z' }),
    ]);
    await waitFor(() => expect(names(result.current)).toEqual(['Aloe gel', 'Argan oil']));
    expect(network.fetchProducts).not.toHaveBeenCalled();
  });

  describe('for a user who sees prices, on a device with a visitor’s copy', () => {
    const approved: User = {
      id: 4,
      email: 'ana@example.com',
      emailVerified: true,
      firstName: 'Ana',
      lastName: 'Pop',
      role: 'USER',
      companyId: 9,
      createdAt: '2026-01-05T10:00:00.000Z',
      company: { id: 9, name: 'Salon Ana', status: 'APPROVED', isVerified: true },
      notifications: {
        orderNotifications: true,
        newProductNotifications: false,
        marketingNewsletter: false,
      },
    };

    it('asks the server for the user’s prices instead of showing the copy without them', async () => {
      await mirrorOnDevice([generatedProduct(1, { name: 'Argan oil' })]);
      session.user = approved;
      network.fetchProducts.mockResolvedValue(
        pageOf([{ ...generatedProduct(1, { name: 'Argan oil' }), price: 12.5 }]),
      );
      const { result } = renderHook(() => useCatalogueQuery(query()));

      await waitFor(() => expect(result.current.status).toBe('ready'));
      expect(result.current).toMatchObject({ source: 'network', syncedAt: undefined });
      expect(result.current.status === 'ready' && result.current.page.products[0]?.price).toBe(
        12.5,
      );
    });

    it('says offline that the catalogue is not on the device, never shows it unpriced', async () => {
      await mirrorOnDevice([generatedProduct(1, { name: 'Argan oil' })]);
      session.user = approved;
      connectivity.state = 'offline';
      network.fetchProducts.mockImplementation(noAnswer);
      const { result } = renderHook(() => useCatalogueQuery(query()));

      await waitFor(() => expect(result.current).toMatchObject({ status: 'error', offline: true }));
      // The copy on the device was read, and still not shown.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(result.current.status).toBe('error');
    });
  });
});
