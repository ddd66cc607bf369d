// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Cart } from '../../src/contracts/orders';

// The checkout form on the cart page keeps what the user typed while the cart reads empty
// for a moment, and says why an order of an empty cart is not placed. The device's cart
// and the outbox are faked; the form is a field and a button.
const device = vi.hoisted(() => ({
  empty: false,
  checkout: null as (() => Promise<void>) | null,
}));
vi.mock('../../src/lib/sync/outbox', () => {
  class EmptyCartError extends Error {}
  return {
    EmptyCartError,
    clearCart: () => Promise.resolve(),
    removeFromCart: () => Promise.resolve(),
    setCartQuantity: () => Promise.resolve(),
    queueCheckout: () => (device.empty ? Promise.reject(new EmptyCartError()) : Promise.resolve()),
  };
});
vi.mock('../../src/features/cart/checkout-form', () => ({
  CheckoutForm: ({
    hidden,
    onSubmit,
  }: {
    hidden: boolean;
    onSubmit: (address: never, notes: string) => void;
  }) => (
    <form hidden={hidden} aria-label="Checkout">
      <input aria-label="Street" />
      <button type="button" onClick={() => onSubmit({} as never, '')}>
        Place order
      </button>
    </form>
  ),
}));
vi.mock('../../src/components/toast', () => ({ useToast: () => () => undefined }));
vi.mock('../../src/lib/auth/session', () => ({
  useUser: () => ({ id: 7, role: 'USER', company: { status: 'APPROVED', isVerified: true } }),
}));
vi.mock('../../src/lib/sync/use-sync-state', () => ({ useSendingProblem: () => null }));
vi.mock('../../src/lib/sync/device', () => ({ requestSync: vi.fn(), ORDER_TOPIC: 'order' }));
vi.mock('../../src/lib/sync/connectivity', () => ({ getConnectivity: () => 'online' }));
vi.mock('../../src/lib/i18n', () => ({ formatMoney: (amount: number) => `${amount} RON` }));

const withLine: Cart = {
  items: [
    {
      id: 1,
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
} as unknown as Cart;
const empty = { ...withLine, items: [], subtotal: 0, total: 0, itemCount: 0 } as Cart;
vi.mock('../../src/lib/sync/use-device-data', () => ({
  useCart: () => ({ cart: device.empty ? empty : withLine, waiting: 0, refused: 0, loaded: true }),
}));

const { CartPage } = await import('../../src/features/cart/cart-page');
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(() => {
  cleanup();
  device.empty = false;
});

const page = () => (
  <MemoryRouter>
    <CartPage />
  </MemoryRouter>
);

describe('the checkout form on the cart page', () => {
  it('keeps the address typed while the cart reads empty for a moment', () => {
    const { rerender } = render(page());
    fireEvent.click(screen.getByRole('button', { name: en.cart.checkout }));
    fireEvent.change(screen.getByLabelText('Street'), { target: { value: 'Str. Lalelelor 3' } });

    device.empty = true;
    rerender(page());
    expect(screen.getByRole('heading', { name: en.cart.emptyTitle })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Checkout' })).toBeNull();

    device.empty = false;
    rerender(page());
    expect(screen.getByLabelText<HTMLInputElement>('Street').value).toBe('Str. Lalelelor 3');
  });

  it('moves focus from a field of the hidden form to the heading, and back when it shows', () => {
    const { rerender } = render(page());
    fireEvent.click(screen.getByRole('button', { name: en.cart.checkout }));
    const street = screen.getByLabelText<HTMLInputElement>('Street');
    street.focus();

    device.empty = true;
    rerender(page());
    const heading = screen.getByRole('heading', { level: 1, name: en.cart.title });
    expect(document.activeElement).toBe(heading);

    device.empty = false;
    rerender(page());
    expect(document.activeElement).toBe(street);
  });

  it('leaves focus where the user moved it while the form was hidden', () => {
    const { rerender } = render(page());
    fireEvent.click(screen.getByRole('button', { name: en.cart.checkout }));
    screen.getByLabelText<HTMLInputElement>('Street').focus();

    device.empty = true;
    rerender(page());
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    screen.getByRole('link', { name: en.cart.quickOrder }).focus();

    // The empty cart's link goes as lines come back; focus is not pulled into the form.
    device.empty = false;
    rerender(page());
    expect(document.activeElement).not.toBe(screen.getByLabelText('Street'));
  });

  it('says the cart is empty when it was emptied as the order was placed, until lines are back', async () => {
    const { rerender } = render(page());
    fireEvent.click(screen.getByRole('button', { name: en.cart.checkout }));
    device.empty = true;
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(en.cart.empty));

    // Lines are back (added on another tab): the message is over.
    device.empty = false;
    rerender(page());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
