// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredOrder } from '../../src/lib/db/db';
import type { Order } from '../../src/contracts/orders';
import type { OutboxEntry } from '../../src/lib/sync/outbox-rules';

// A change the device's storage refuses (full, or closed by a newer version in another tab)
// is said to the user, and what the user typed stays; nothing claims success before the
// write. The device's data and the outbox are faked.
const device = vi.hoisted(() => ({
  refusal: null as Error | null,
  /** The next write, when a test decides when it ends. */
  next: null as Promise<void> | null,
  toasts: [] as { text: string; kind: string | undefined }[],
  /** The outbox's entries the orders page sees. */
  entries: [] as OutboxEntry[],
}));
const write = () =>
  device.next ?? (device.refusal ? Promise.reject(device.refusal) : Promise.resolve());
vi.mock('../../src/lib/sync/outbox', () => ({
  clearCart: write,
  removeFromCart: write,
  setCartQuantity: write,
  queueCheckout: write,
  queueCancellation: write,
}));
vi.mock('../../src/components/toast', () => ({
  useToast: () => (text: string, kind?: string) => device.toasts.push({ text, kind }),
}));
vi.mock('../../src/lib/auth/session', () => ({
  useUser: () => ({ id: 7, role: 'SALON', company: { status: 'APPROVED' } }),
}));
vi.mock('../../src/lib/sync/use-sync-state', () => ({ useSendingProblem: () => null }));
vi.mock('../../src/lib/sync/device', () => ({
  requestSync: vi.fn(),
  ORDER_TOPIC: 'order',
  CANCEL_TOPIC: 'cancel',
}));
vi.mock('../../src/lib/sync/connectivity', () => ({
  getConnectivity: () => 'online',
  useConnectivity: () => 'online',
}));
vi.mock('../../src/lib/i18n', () => ({
  formatMoney: (amount: number) => `${amount} RON`,
  formatDateTime: (iso: string) => iso,
}));
vi.mock('../../src/features/cart/checkout-form', () => ({ CheckoutForm: () => null }));

const order = {
  id: 41,
  orderNumber: 'ORD-2026-000041',
  status: 'PENDING',
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  total: 120,
  currency: 'RON',
  itemCount: 2,
  orderItems: [{ id: 1, productId: 3, productName: 'Argan oil', quantity: 2 }],
} as unknown as Order;
const stored: StoredOrder = {
  ref: 'S-41',
  userId: 7,
  state: 'synced',
  createdAt: order.createdAt,
  order,
};
vi.mock('../../src/lib/sync/use-device-data', () => ({
  useCart: () => ({
    cart: {
      items: [
        {
          productId: 3,
          quantity: 2,
          price: 60,
          lineTotal: 120,
          product: { name: 'Argan oil', sku: 'AO-1', stock: 10, images: [] },
        },
      ],
      subtotal: 120,
      total: 120,
      itemCount: 2,
    },
    waiting: 0,
    refused: 0,
    loaded: true,
  }),
  useOrders: () => [stored],
  useOutboxEntries: () => device.entries,
}));

const { CartPage } = await import('../../src/features/cart/cart-page');
const { OrdersPage } = await import('../../src/features/orders/orders-page');
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
beforeEach(() => {
  device.refusal = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
});
afterEach(() => {
  cleanup();
  device.next = null;
  device.toasts.length = 0;
  device.entries = [];
});

const renderIn = (screenElement: React.ReactElement) =>
  render(<MemoryRouter>{screenElement}</MemoryRouter>);

describe('the cart', () => {
  it('says a removal the full device did not keep', async () => {
    renderIn(<CartPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Argan oil from the cart' }));
    await waitFor(() =>
      expect(device.toasts).toEqual([{ text: en.cart.storageFull, kind: 'error' }]),
    );
  });

  it('says a quantity change that failed for another reason', async () => {
    device.refusal = new Error('Database closed');
    renderIn(<CartPage />);
    fireEvent.click(screen.getByRole('button', { name: 'One more Argan oil' }));
    await waitFor(() =>
      expect(device.toasts).toEqual([{ text: en.cart.changeFailed, kind: 'error' }]),
    );
  });
});

describe('cancelling an order', () => {
  const askToCancel = () => {
    renderIn(<OrdersPage />);
    fireEvent.click(screen.getByRole('button', { name: en.orders.cancel }));
    fireEvent.change(screen.getByLabelText(en.orders.reason), {
      target: { value: 'Ordered twice' },
    });
    fireEvent.click(screen.getByRole('button', { name: en.orders.cancelConfirm }));
  };

  it('is not said to be sent when the device did not keep it; the reason typed stays', async () => {
    askToCancel();
    // Said in the dialog, which stays open: a toast would be behind it.
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      en.orders.cancelNotSaved,
    );
    expect(screen.getByLabelText(en.orders.reason)).toHaveProperty('value', 'Ordered twice');
    expect(device.toasts).toEqual([]);
  });

  it('is said to be sent once it is kept', async () => {
    device.refusal = null;
    askToCancel();
    await waitFor(() =>
      expect(device.toasts).toEqual([{ text: en.orders.cancelQueued, kind: 'info' }]),
    );
    expect(screen.queryByLabelText(en.orders.reason)).toBeNull();
  });

  it('is said by a toast when the dialog was closed before the device refused it', async () => {
    let refuse = () => {};
    device.next = new Promise((_, reject) => (refuse = () => reject(new Error('closed'))));
    askToCancel();
    fireEvent.click(screen.getByRole('button', { name: en.orders.keep }));
    refuse();
    await waitFor(() =>
      expect(device.toasts).toEqual([{ text: en.orders.cancelNotSaved, kind: 'error' }]),
    );
  });
});

describe('a cancellation already asked for', () => {
  const cancellation = (state: OutboxEntry['state']): OutboxEntry => ({
    id: 1,
    userId: 7,
    kind: 'order.cancel',
    payload: {
      kind: 'order.cancel',
      orderId: order.id,
      orderNumber: order.orderNumber,
      cancellationReason: 'Ordered twice',
    },
    idempotencyKey: 'key-1',
    createdAt: '2026-11-29T10:00:00.000Z',
    attempts: state === 'attention' ? 1 : 0,
    nextAttemptAt: 0,
    state,
  });

  it('waits to be sent: the order says so and cannot be cancelled twice', () => {
    device.entries = [cancellation('waiting')];
    renderIn(<OrdersPage />);
    expect(screen.getByRole('button', { name: en.orders.cancelWaiting })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.queryByTestId('cancel-refused')).toBeNull();
  });

  it('refused by the server, though the order could still be cancelled: the order says so', () => {
    device.entries = [cancellation('attention')];
    renderIn(<OrdersPage />);
    expect(screen.getByTestId('cancel-refused').textContent).toContain(en.orders.cancelRefused);
    // Asked again from the sync centre ("Try again"), not a second time from here.
    expect(screen.queryByRole('button', { name: en.orders.cancel })).toBeNull();
    expect(screen.queryByRole('button', { name: en.orders.cancelWaiting })).toBeNull();
  });
});
