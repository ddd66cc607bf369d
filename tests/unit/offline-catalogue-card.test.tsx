// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// "Make available offline" on the sync centre: success is claimed only when every picture
// came. The download itself is faked (tests/unit/offline-catalogue.test.ts covers it).
const download = vi.hoisted(() => ({ missing: 0, role: 'SALON' }));
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
  useDeviceStorage: () => undefined,
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
afterEach(cleanup);

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
});
