// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../src/contracts/catalogue';

// "Add to cart" on the product page, when it cannot be used: what describes it says why,
// and names no element without text. The product, the viewer and the device are faked.
const viewer = vi.hoisted(() => ({
  user: null as { id: number; role: string } | null,
  priced: false,
  product: null as Product | null,
}));
vi.mock('../../src/lib/sync/use-catalogue', () => ({
  useProduct: () => ({ status: 'ready', product: viewer.product, offline: false }),
}));
vi.mock('../../src/lib/auth/session', () => ({
  useUser: () => viewer.user,
  viewerKey: () => (viewer.priced ? 'company:1' : 'visitor'),
}));
vi.mock('../../src/components/toast', () => ({ useToast: () => () => undefined }));
vi.mock('../../src/lib/sync/engine-loader', () => ({
  loadSyncEngine: () => new Promise(() => {}),
}));
vi.mock('../../src/lib/i18n', () => ({
  formatMoney: (amount: number) => `${amount} EUR`,
  loadAllTexts: () => Promise.resolve(),
}));

const { ProductPage } = await import('../../src/features/product/product-page');
import en from '../../src/locales/en.json';
import { generatedProduct } from '../fixtures/generated-products';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(() => {
  cleanup();
  viewer.user = null;
  viewer.priced = false;
});

const productOf = (changes: Partial<Product>): Product => ({
  ...generatedProduct(3, { name: 'Argan oil' }),
  price: 60,
  ...changes,
});

const showProduct = (product: Product) => {
  viewer.product = product;
  render(
    <MemoryRouter initialEntries={['/products/3']}>
      <Routes>
        <Route path="/products/:id" element={<ProductPage addToList={() => null} />} />
      </Routes>
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: en.product.addToCart });
};

/** The texts of the elements the button's aria-describedby names, each of them. */
const descriptions = (button: HTMLElement): string[] =>
  (button.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent?.trim() ?? '');

describe('the product page\'s disabled "Add to cart"', () => {
  it('is described by "Out of stock", not by an empty hint, for a company that sees prices', () => {
    viewer.user = { id: 7, role: 'USER' };
    viewer.priced = true;
    const button = showProduct(productOf({ inStock: false, stock: 0 }));
    expect(button).toHaveProperty('disabled', true);
    expect(descriptions(button)).toEqual([en.product.outOfStock]);
  });

  it('is described by the notice that this device has no price yet', () => {
    viewer.user = { id: 7, role: 'USER' };
    viewer.priced = true;
    // A copy without a price: the one of a visitor, kept before the user signed in.
    const { price: _price, ...unpriced } = productOf({});
    const button = showProduct(unpriced);
    expect(button).toHaveProperty('disabled', true);
    expect(descriptions(button)).toEqual([en.product.noPriceOnDevice]);
  });

  it('tells a visitor both that the product is out of stock and how to order', () => {
    const button = showProduct(productOf({ inStock: false, stock: 0 }));
    expect(button).toHaveProperty('disabled', true);
    expect(descriptions(button)).toEqual([en.product.outOfStock, en.product.addToCartHint]);
  });

  it('names no hint on an enabled button when there is nothing to say', () => {
    viewer.user = { id: 7, role: 'USER' };
    viewer.priced = true;
    const button = showProduct(productOf({}));
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('aria-describedby')).toBeNull();
  });
});
