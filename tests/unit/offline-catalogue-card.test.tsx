// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// "Make available offline" on the sync centre: success is claimed only when every picture
// came. The download itself is faked (tests/unit/offline-catalogue.test.ts covers it).
const download = vi.hoisted(() => ({
  missing: 0,
  role: 'SALON',
  storage: undefined as import('../../src/lib/sync/offline-catalogue').DeviceStorage | undefined,
}));
vi.mock('../../src/lib/sync/offline-catalogue', () => ({
  makeCatalogueAvailableOffline: () =>
    Promise.resolve({
      products: 44,
      imagesDone: 77,
      imagesTotal: 77,
      imagesMissing: download.missing,
      bytes: 1,
    }),
  StorageFullError: class extends Error {},
  useDeviceStorage: () => download.storage,
}));
vi.mock('../../src/lib/auth/session', () => ({
  useUser: () => ({ id: 7, role: download.role }),
  viewerKey: () => 'approved',
}));
vi.mock('../../src/lib/i18n', () => ({
  formatTime: (iso: string) => iso,
  loadLanguageTexts: () => Promise.resolve(),
}));
vi.mock('../../src/lib/pwa/keep-screens', () => ({ keepScreensNow: () => Promise.resolve() }));
vi.mock('../../src/lib/sync/rep-customers', () => ({
  readCustomers: () => Promise.resolve([]),
  readCustomersFromServer: () => Promise.resolve(),
}));
vi.mock('dexie-react-hooks', () => ({ useLiveQuery: () => undefined }));

const { OfflineCatalogueCard } = await import('../../src/features/sync/offline-catalogue-card');
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(() => {
  cleanup();
  download.storage = undefined;
});

describe('the offline catalogue card', () => {
  it('says the whole catalogue and its pictures are kept when every picture came', async () => {
    download.missing = 0;
    download.role = 'SALON';
    render(<OfflineCatalogueCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Make available offline' }));
    expect(await screen.findByText(en.offline.done)).toBeTruthy();
  });

  it('says how many pictures the server did not send, and never that all are kept', async () => {
    download.missing = 2;
    download.role = 'SALON';
    render(<OfflineCatalogueCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Make available offline' }));
    expect(
      await screen.findByText(/^The whole catalogue is on this device, but 2 pictures could not/),
    ).toBeTruthy();
    expect(screen.queryByText(en.offline.done)).toBeNull();
  });

  it('tells a rep preparing for the fair the same', async () => {
    download.missing = 1;
    download.role = 'SALES_REP';
    render(<OfflineCatalogueCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Prepare for the fair' }));
    expect(
      await screen.findByText(
        /^Your customers and the whole catalogue are on this device, but 1 picture could not/,
      ),
    ).toBeTruthy();
    expect(screen.queryByText(en.fieldSales.prepare.done)).toBeNull();
  });

  const stored = (pricesOf: string | null) => ({
    products: 120,
    syncedAt: '2026-11-29T09:00:00.000Z',
    pricesOf,
    imagesKept: 0,
    imagesTotal: 10,
    usedBytes: 5_000_000,
    quotaBytes: 100_000_000,
    persistent: null,
  });

  it('dates the prices kept on the device when the copy holds this user’s', () => {
    download.role = 'SALON';
    download.storage = stored('approved');
    render(<OfflineCatalogueCard />);
    expect(screen.getByTestId('device-storage').textContent).toContain(
      '120 products · prices as of 2026-11-29T09:00:00.000Z',
    );
  });

  it.each([
    { copy: 'a visitor’s copy', pricesOf: 'visitor' },
    { copy: 'a copy not yet complete', pricesOf: null },
  ])('says the user’s prices are not on the device yet with $copy', ({ pricesOf }) => {
    download.role = 'SALON';
    download.storage = stored(pricesOf);
    render(<OfflineCatalogueCard />);
    const text = screen.getByTestId('device-storage').textContent;
    expect(text).toContain(
      '120 products · your prices are not on this device yet: connect once to download them',
    );
    expect(text).not.toContain('prices as of');
  });
});
