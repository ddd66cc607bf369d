// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry, OutboxPayload } from '../../src/lib/sync/outbox-rules';
import type { RepCustomerForm } from '../../src/contracts/form-schemas';

// The sync centre of a rep whose booth registration the server refused: what one tap on
// Discard gives up; and a change of the sync centre the device's storage refuses. The
// outbox and its actions are faked.
const outbox = vi.hoisted(() => ({
  entries: [] as OutboxEntry[],
  discarded: [] as number[],
  /** Why the device refuses the next change, if it does. */
  refusal: null as Error | null,
  toasts: [] as { text: string; kind: string | undefined }[],
}));
const write = () => (outbox.refusal ? Promise.reject(outbox.refusal) : Promise.resolve());
vi.mock('../../src/lib/sync/use-device-data', () => ({ useOutbox: () => outbox.entries }));
vi.mock('../../src/lib/sync/use-sync-state', () => ({
  useSyncState: () => ({ running: false, needsSignIn: false }),
  useSendingProblem: () => null,
}));
vi.mock('../../src/lib/sync/outbox', () => ({
  discardEntry: (id: number) => {
    outbox.discarded.push(id);
    return write();
  },
  editEntryQuantity: write,
  retryEntry: write,
}));
vi.mock('../../src/components/toast', () => ({
  useToast: () => (text: string, kind?: string) => outbox.toasts.push({ text, kind }),
}));
vi.mock('../../src/lib/sync/device', () => ({ requestSync: vi.fn() }));
vi.mock('../../src/lib/i18n', () => ({
  formatTime: (iso: string) => iso,
  serverProblemText: (problem: { message: string }) => problem.message,
}));
vi.mock('../../src/features/sync/offline-catalogue-card', () => ({
  OfflineCatalogueCard: () => null,
}));

const { SyncPage } = await import('../../src/features/sync/sync-page');
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(() => {
  cleanup();
  outbox.discarded.length = 0;
  outbox.toasts.length = 0;
  outbox.refusal = null;
});

let ids = 0;
function entry(payload: OutboxPayload, refused = false): OutboxEntry {
  return {
    id: (ids += 1),
    userId: 7,
    kind: payload.kind,
    payload,
    idempotencyKey: `key-${ids}`,
    createdAt: '2026-11-29T10:00:00.000Z',
    attempts: refused ? 1 : 0,
    nextAttemptAt: 0,
    state: refused ? 'attention' : 'waiting',
    ...(refused && {
      error: {
        status: 409,
        message: 'This company is already registered.',
        code: 'COMPANY_EXISTS',
      },
    }),
  };
}

const registration = (localId: number) =>
  entry(
    { kind: 'rep.customer', localId, fields: { companyName: 'Salon Ștefania' } as RepCustomerForm },
    true,
  );
const order = (customerId: number): OutboxPayload => ({
  kind: 'rep.order',
  customerId,
  items: [{ productId: 1, quantity: 2 }],
  shippingAddress: {} as never,
  notes: '',
  localRef: `L-${customerId}`,
  signature: null,
});

function showSyncCentre() {
  render(
    <MemoryRouter>
      <SyncPage />
    </MemoryRouter>,
  );
}

describe('discarding a salon registered at the booth', () => {
  it('asks first, saying how many orders and documents go with it', () => {
    const refused = registration(-1);
    outbox.entries = [refused, entry(order(-1)), entry(order(-1)), entry(order(5))];
    showSyncCentre();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(outbox.discarded).toEqual([]);
    const dialog = screen.getByRole('dialog', {
      name: 'Discard the registration of Salon Ștefania?',
    });
    expect(dialog.textContent).toContain('Its 2 orders and documents taken at the booth');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(outbox.discarded).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    const confirm = screen.getAllByRole('button', { name: 'Discard' }).at(-1)!;
    fireEvent.click(confirm);
    expect(outbox.discarded).toEqual([refused.id]);
  });

  it('gives up a registration with nothing taken for it at once', () => {
    const refused = registration(-2);
    outbox.entries = [refused, entry(order(5))];
    showSyncCentre();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(outbox.discarded).toEqual([refused.id]);
  });
});

describe('a change of the sync centre the device refuses', () => {
  it('is said, for Try again, Save and send and Discard alike', async () => {
    outbox.entries = [entry({ kind: 'cart.add', productId: 1, quantity: 2 }, true)];
    showSyncCentre();
    outbox.refusal = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(outbox.toasts).toEqual([{ text: en.sync.storageFull, kind: 'error' }]),
    );
    outbox.refusal = new Error('Database closed');
    fireEvent.click(screen.getByRole('button', { name: 'Save and send' }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(outbox.toasts).toHaveLength(3));
    expect(outbox.toasts.slice(1)).toEqual([
      { text: en.sync.changeFailed, kind: 'error' },
      { text: en.sync.changeFailed, kind: 'error' },
    ]);
  });
});

describe('a change the server keeps failing to take', () => {
  const failing = (extra: Partial<OutboxEntry>): OutboxEntry => ({
    ...entry({ kind: 'cart.add', productId: 1, quantity: 2 }),
    attempts: 4,
    error: { status: 500, message: 'Internal Server Error' },
    ...extra,
  });

  it('may be discarded, saying the change may be made when a response was lost', () => {
    const lost = failing({ responseLost: true, answeredFailures: 3 });
    outbox.entries = [lost];
    showSyncCentre();
    expect(screen.getByText(en.sync.keepsFailingMayBeMade)).toBeTruthy();
    expect(screen.queryByText(en.sync.keepsFailing)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(outbox.discarded).toEqual([lost.id]);
  });

  it('may be discarded as not made when every attempt had the server’s response', () => {
    outbox.entries = [failing({})];
    showSyncCentre();
    expect(screen.getByText(en.sync.keepsFailing)).toBeTruthy();
    expect(screen.queryByText(en.sync.keepsFailingMayBeMade)).toBeNull();
    expect(screen.getByRole('button', { name: 'Discard' })).toBeTruthy();
  });

  it('is named by the later changes that wait for it', () => {
    const lost = failing({ responseLost: true, answeredFailures: 3 });
    const later = entry({ kind: 'cart.update', productId: 1, quantity: 5 });
    const list = entry({ kind: 'list.put', listId: 'l-1', listName: 'Weekly' });
    outbox.entries = [lost, later, list];
    showSyncCentre();
    // A change of the same line waits for it; a change of an order list never does.
    expect(screen.getAllByTestId('held-back').map((p) => p.textContent)).toEqual([
      'Waits for “Add 2 × #1 to the cart”, which the server keeps failing to take.',
    ]);
  });

  it('is not offered for discarding until the server failed it three times since its response was lost', () => {
    outbox.entries = [failing({ responseLost: true, answeredFailures: 2 })];
    showSyncCentre();
    expect(screen.queryByRole('button', { name: 'Discard' })).toBeNull();
  });
});
