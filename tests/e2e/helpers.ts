import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './portal';
import { STAFF } from './staff';

export const unique = (prefix: string) =>
  `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
export const PASSWORD = 'Order-Pass-2026';

/** Staff's API session, for a test's set-up. */
export async function staffHeaders(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: STAFF });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return { authorization: `Bearer ${accessToken}` };
}

/**
 * A salon registered through the API, its company waiting for verification; `company`
 * adds fields of the quick form (its name or address, for instance).
 */
export async function registeredSalon(
  request: APIRequestContext,
  prefix = 'salon',
  company: Record<string, string> = {},
) {
  const email = unique(prefix);
  const registered = await request.post('/api/auth/register', {
    // Each salon from an address of its own, as behind the fair's proxy (TRUST_PROXY):
    // registrations are limited per address, and a whole test run makes many.
    headers: { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
    data: {
      email,
      password: PASSWORD,
      firstName: 'Mara',
      lastName: 'Stan',
      companyName: `Salon ${prefix}`,
      // A number of its own, as real companies have: none is taken for another's twin.
      taxNumber: `RO${Math.floor(Math.random() * 1e9)}`,
      ...company,
    },
  });
  expect(registered.status()).toBe(201);
  return { email, password: PASSWORD };
}

/** A salon registered through the API and approved by staff (see registeredSalon). */
export async function approvedSalon(
  request: APIRequestContext,
  prefix = 'salon',
  company: Record<string, string> = {},
) {
  const { email } = await registeredSalon(request, prefix, company);
  // The registration's answer does not say who was created: the salon reads itself.
  const me = await request.get('/api/auth/me', {
    headers: { authorization: `Bearer ${await apiToken(request, email)}` },
  });
  const { user } = (await me.json()) as { user: { companyId: number } };
  const approved = await request.post(`/api/admin/companies/${user.companyId}/approve`, {
    headers: await staffHeaders(request),
    data: {},
  });
  expect(approved.ok()).toBe(true);
  return { email, password: PASSWORD };
}

export async function apiToken(
  request: APIRequestContext,
  email: string,
  password = PASSWORD,
): Promise<string> {
  const login = await request.post('/api/auth/login', { data: { email, password } });
  return ((await login.json()) as { accessToken: string }).accessToken;
}

export interface ServerOrder {
  id: number;
  orderNumber: string;
  clientReference: string;
  orderItems: { productId: number; quantity: number; unitPrice: number }[];
}

export async function serverOrders(
  request: APIRequestContext,
  email: string,
): Promise<ServerOrder[]> {
  const token = await apiToken(request, email);
  const response = await request.get('/api/orders', {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { orders: ServerOrder[] }).orders;
}

export async function signInAs(page: Page, email: string, password = PASSWORD, firstName = 'Mara') {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: firstName })).toBeVisible();
}

/**
 * This device has opened the portal before (docs/product.md#offline), so it keeps the app
 * from its next first screen on: the home page, opened once as an earlier visit.
 */
export async function openedBefore(page: Page) {
  await page.goto('/');
  await page.waitForFunction(() => performance.getEntriesByName('first-screen').length > 0);
}

/**
 * Waits until the service worker controls the page. A page that was loaded while the
 * worker was still installing can miss being claimed; like a user's next visit, a reload
 * then brings it under control.
 */
export async function untilControlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const controlled = await page
      .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
        timeout: 5_000,
      })
      .then(() => true)
      .catch(() => false);
    if (controlled) return;
    await page.reload();
  }
  throw new Error('The service worker never took control of the page');
}

/** Opens the catalogue and waits until the app and the priced catalogue are on the device. */
export async function catalogueReady(page: Page) {
  await page.goto('/products?lng=en');
  await untilControlled(page);
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
  await expect(page.getByText('Catalogue saved on this device')).toBeVisible();
}

/** The products of the catalogue's first page that are in stock, as the cards show them. */
export function inStockCards(page: Page) {
  return page.getByTestId('product-card').filter({ hasText: 'In stock' });
}

export async function fillShipping(page: Page) {
  const form = page.getByRole('form', { name: 'Shipping address' });
  await form.getByLabel('Street and number').fill('Strada Teiului 7');
  await form.getByLabel('City').fill('Brașov');
  await form.getByLabel('Zip code').fill('500001');
  await form.getByLabel('Country').fill('Romania');
  await form.getByLabel('Phone').fill('+40 268 555 777');
  return form;
}

/** Clicks "Add to cart" on the product card at `index` of `cards`. */
export const addToCart = (cards: Locator, index: number) =>
  cards
    .nth(index)
    .getByRole('button', { name: /^Add to cart/ })
    .click();

/** An order placed through the API by the user of `token`: `lines` of products and quantities. */
export async function orderThroughApi(
  request: APIRequestContext,
  token: string,
  lines: { productId: number; quantity: number }[],
  { notes }: { notes?: string } = {},
) {
  const headers = { authorization: `Bearer ${token}` };
  for (const line of lines) {
    const added = await request.post('/api/cart/add', {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: line,
    });
    expect(added.ok()).toBe(true);
  }
  const checkout = await request.post('/api/cart/checkout', {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: {
      shippingAddress: {
        firstName: 'Mara',
        lastName: 'Stan',
        street: 'Strada Teiului 7',
        city: 'Brașov',
        zipCode: '500001',
        country: 'Romania',
        phone: '+40 268 555 777',
      },
      ...(notes === undefined ? {} : { notes }),
    },
  });
  expect(checkout.status()).toBe(201);
  return ((await checkout.json()) as { order: { id: number; orderNumber: string } }).order;
}

/** An order of a salon that may order, placed through the API: two units of a product in stock. */
export async function placedOrder(
  request: APIRequestContext,
  email: string,
  password = PASSWORD,
  options: { notes?: string } = {},
) {
  const token = await apiToken(request, email, password);
  const list = await request.get('/api/products', {
    headers: { authorization: `Bearer ${token}` },
    params: { limit: 50 },
  });
  const { products } = (await list.json()) as { products: { id: number; stock: number }[] };
  const product = products.find((p) => p.stock > 5);
  expect(product, 'a product in stock').toBeTruthy();
  return orderThroughApi(request, token, [{ productId: product?.id ?? 0, quantity: 2 }], options);
}

/** Staff move an order on through the API, a step at a time. */
export async function movedByStaff(
  request: APIRequestContext,
  orderId: number,
  steps: { status: string; trackingNumber?: string }[],
) {
  for (const data of steps) {
    const moved = await request.post(`/api/admin/orders/${orderId}/status`, {
      headers: { ...(await staffHeaders(request)), 'idempotency-key': crypto.randomUUID() },
      data,
    });
    expect(moved.ok()).toBe(true);
  }
}

/** What the service worker keeps, by path. */
export function cachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        paths.push(new URL(request.url).pathname);
      }
    }
    return paths;
  });
}
