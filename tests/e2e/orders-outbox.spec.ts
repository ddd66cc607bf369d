import { chromium, type Page } from '@playwright/test';
import { expect, test } from './portal';
import { CHROME_ARGS, CHROME_PATH } from './chromium';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addToCart,
  apiToken,
  approvedSalon,
  catalogueReady,
  fillShipping,
  inStockCards,
  movedByStaff,
  placedOrder,
  serverOrders,
  signInAs,
} from './helpers';

/** Adds the first two products in stock, raises the first to 2, and checks out. */
async function queueTwoLineOrder(page: Page): Promise<string[]> {
  const cards = inStockCards(page);
  const names = [
    await cards.nth(0).getByRole('heading').innerText(),
    await cards.nth(1).getByRole('heading').innerText(),
  ];
  await addToCart(cards, 0);
  await addToCart(cards, 1);
  await expect(page.getByTestId('cart-badge')).toHaveText('2');
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(2);
  await page.getByRole('button', { name: `One more ${names[0]}` }).click();
  await expect(page.getByTestId('cart-badge')).toHaveText('3');
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await fillShipping(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/orders$/);
  return names;
}

test('an order taken offline waits on the device, then reaches the server exactly once', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'offline');
  await signInAs(page, salon.email);
  await catalogueReady(page);

  await context.setOffline(true);
  const names = await queueTwoLineOrder(page);
  const card = page.getByTestId('order-card').first();
  await expect(card).toContainText('Waiting to sync');
  await expect(card).toContainText('not yet sent');
  expect(await serverOrders(request, salon.email)).toEqual([]);

  // The queued order survives a reload with the network still cut.
  await page.reload();
  await expect(page.getByTestId('order-card').first()).toContainText('Waiting to sync');

  await context.setOffline(false);
  await expect(page.getByTestId('order-card').first()).toContainText(/Order FP-\d{4}-\d{6}/, {
    timeout: 15_000,
  });
  await expect(page.getByText(/Order FP-\d{4}-\d{6} created successfully!/)).toBeVisible();
  const orders = await serverOrders(request, salon.email);
  expect(orders).toHaveLength(1);
  expect(orders[0]?.orderItems.map((i) => i.quantity).sort()).toEqual([1, 2]);
  await page.getByRole('button', { name: 'View Details' }).first().click();
  const dialog = page.getByRole('dialog');
  for (const name of names) await expect(dialog).toContainText(name);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Cancelling asks for confirmation and a reason. Offline it waits on the device and says
  // so; the salon is told once the server took it, and the server keeps the reason.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByLabel('Reason for cancelling').fill('Ordered at the wrong fair');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel the order' }).click();
  await expect(
    page.getByText(
      'You are offline: the cancellation is saved on this device and will be sent when you are back online.',
    ),
  ).toBeVisible();
  expect((await serverOrders(request, salon.email))[0]).not.toMatchObject({ status: 'CANCELLED' });
  await context.setOffline(false);
  await expect(page.getByText(/^Order FP-\d{4}-\d{6} was cancelled\.$/)).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText(/^You are offline: the cancellation/)).toHaveCount(0);
  await expect(page.getByTestId('order-card').first()).toContainText('Cancelled');
  expect((await serverOrders(request, salon.email))[0]).toMatchObject({
    status: 'CANCELLED',
    cancellationReason: 'Ordered at the wrong fair',
  });
});

test('a checkout whose answer was lost is not ordered twice', async ({ page, request }) => {
  const salon = await approvedSalon(request, 'lost');
  await signInAs(page, salon.email);
  await catalogueReady(page);
  let handled = 0;
  await page.route('**/api/cart/checkout', async (route) => {
    if (handled > 0) return route.continue();
    handled += 1;
    // The server receives and commits the order; its answer never reaches the page.
    await route.fetch();
    await route.abort('connectionreset');
  });
  await queueTwoLineOrder(page);
  await expect(page.getByTestId('order-card').first()).toContainText(/Order FP-/, {
    timeout: 20_000,
  });
  expect(handled).toBe(1);
  expect(await serverOrders(request, salon.email)).toHaveLength(1);
});

test('two tabs coming back online together send a waiting order once', async ({
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'tabs');
  const first = await context.newPage();
  await signInAs(first, salon.email);
  await catalogueReady(first);
  const second = await context.newPage();
  await second.goto('/orders?lng=en');
  await context.setOffline(true);
  await queueTwoLineOrder(first);
  await expect(second.getByTestId('order-card').first()).toContainText('Waiting to sync');
  await context.setOffline(false);
  await expect(first.getByTestId('order-card').first()).toContainText(/Order FP-/, {
    timeout: 15_000,
  });
  await expect(second.getByTestId('order-card').first()).toContainText(/Order FP-/, {
    timeout: 15_000,
  });
  expect(await serverOrders(request, salon.email)).toHaveLength(1);
});

test('a waiting order is sent when the browser is opened again online', async ({
  request,
  baseURL,
}) => {
  const salon = await approvedSalon(request, 'closed');
  const profile = mkdtempSync(join(tmpdir(), 'portal-profile-'));
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: CHROME_PATH,
      args: CHROME_ARGS,
      ...(baseURL === undefined ? {} : { baseURL }),
    });
  try {
    let browser = await launch();
    let page = browser.pages()[0] ?? (await browser.newPage());
    await signInAs(page, salon.email);
    await catalogueReady(page);
    await browser.setOffline(true);
    await queueTwoLineOrder(page);
    await expect(page.getByTestId('order-card').first()).toContainText('Waiting to sync');
    await browser.close();
    expect(await serverOrders(request, salon.email)).toEqual([]);

    browser = await launch();
    page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto('/?lng=en');
    await expect
      .poll(async () => (await serverOrders(request, salon.email)).length, { timeout: 15_000 })
      .toBe(1);
    await browser.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});

test('an expired token is renewed during the replay; a refused session pauses it until sign-in', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'expiry');
  await signInAs(page, salon.email);
  await catalogueReady(page);
  await context.setOffline(true);
  const cards = inStockCards(page);
  await addToCart(cards, 0);
  // The access token runs out while the device is offline.
  await page.evaluate(() => localStorage.setItem('portal.accessToken', 'expired.token.value'));
  await page.reload();
  await context.setOffline(false);
  const token = await apiToken(request, salon.email);
  const serverCartCount = async () => {
    const response = await request.get('/api/cart', {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await response.json()) as { itemCount: number }).itemCount;
  };
  await expect.poll(serverCartCount, { timeout: 15_000 }).toBe(1);

  // Now the whole session is gone: the change waits for the user to sign in again.
  await context.setOffline(true);
  await addToCart(cards, 1);
  await page.evaluate(() => {
    localStorage.setItem('portal.accessToken', 'expired.token.value');
    localStorage.setItem('portal.refreshToken', 'revoked-refresh-token');
  });
  await page.reload();
  await context.setOffline(false);
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
  await expect(page.getByText('Your session has expired. Please sign in again.')).toBeVisible();
  await page.getByLabel('E-mail', { exact: true }).fill(salon.email);
  await page.getByLabel('Password', { exact: true }).fill(salon.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(serverCartCount, { timeout: 15_000 }).toBe(2);
});

test('another user signing in on the same browser never sends the first user’s changes', async ({
  page,
  context,
  request,
}) => {
  const first = await approvedSalon(request, 'first');
  const second = await approvedSalon(request, 'second');
  await signInAs(page, first.email);
  await catalogueReady(page);
  await context.setOffline(true);
  await queueTwoLineOrder(page);
  await page.getByRole('button', { name: 'Mara' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('dialog')).toContainText('have not reached the server yet');
  await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
  // Signed out only once the device has forgotten the session: navigating sooner keeps it.
  await expect(page.getByRole('button', { name: 'Mara' })).toHaveCount(0);
  await context.setOffline(false);

  await signInAs(page, second.email);
  await page.goto('/sync');
  await expect(page.getByText('Everything has been sent.')).toBeVisible();
  await page.waitForTimeout(1500);
  expect(await serverOrders(request, first.email)).toEqual([]);
  expect(await serverOrders(request, second.email)).toEqual([]);

  await page.getByRole('button', { name: 'Mara' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Mara' })).toHaveCount(0);
  await signInAs(page, first.email);
  await expect
    .poll(async () => (await serverOrders(request, first.email)).length, { timeout: 15_000 })
    .toBe(1);
});

test('a product sold out before the replay needs attention, and the rest of the cart is kept', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'soldout');
  const rival = await approvedSalon(request, 'rival');
  await signInAs(page, salon.email);
  await catalogueReady(page);
  const cards = inStockCards(page);
  const first = cards.nth(0);
  const productUrl = await first.getByRole('heading').getByRole('link').getAttribute('href');
  const productId = Number(productUrl?.split('/').pop());
  const keptName = await cards.nth(1).getByRole('heading').innerText();

  await context.setOffline(true);
  await first.getByRole('button', { name: /^Add to cart/ }).click();
  await addToCart(cards, 1);

  // Meanwhile another salon buys every unit.
  const rivalToken = { authorization: `Bearer ${await apiToken(request, rival.email)}` };
  const product = (await (await request.get(`/api/products/${productId}`)).json()) as {
    product: { stock: number; name: string };
  };
  await request.post('/api/cart/add', {
    headers: rivalToken,
    data: { productId, quantity: product.product.stock },
  });
  const bought = await request.post('/api/cart/checkout', {
    headers: rivalToken,
    data: {
      shippingAddress: {
        firstName: 'R',
        lastName: 'V',
        street: 'S 1',
        city: 'C',
        zipCode: '1',
        country: 'Romania',
        phone: '+40 700 000 000',
      },
    },
  });
  expect(bought.status()).toBe(201);

  await context.setOffline(false);
  await page.goto('/sync');
  const entry = page.getByTestId('outbox-entry');
  await expect(entry).toHaveCount(1, { timeout: 15_000 });
  await expect(entry).toContainText('Needs attention');
  await expect(entry).toContainText(`${product.product.name} is out of stock.`);
  await expect(entry.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(entry.getByLabel('New quantity')).toBeVisible();

  await page.goto('/cart');
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-line')).toContainText(keptName);
  // The cart says that a change of the user's is not in it, and where to see why.
  await expect(page.getByTestId('cart-refused')).toContainText(
    '1 change to your cart was not taken by the server and is not in it.',
  );

  // An order placed now waits for the refused change: the order and the sync centre say so.
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await fillShipping(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/orders$/);
  const held = page.getByTestId('order-held-back');
  await expect(held).toHaveText(
    'It is held back by a change to your cart that the server did not accept. See why in the sync centre',
  );
  await held.getByRole('link', { name: 'See why in the sync centre' }).click();
  await expect(page).toHaveURL(/\/sync$/);
  await expect(page.getByTestId('held-back')).toHaveText(
    `Waits for “Add 1 × ${product.product.name} to the cart”, which needs attention.`,
  );
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByText('Everything has been sent.')).toBeVisible({ timeout: 15_000 });
  // Ordered without the sold-out product: the line the cart kept.
  const orders = await serverOrders(request, salon.email);
  expect(orders).toHaveLength(1);
  expect(orders[0]?.orderItems).toHaveLength(1);
  expect(orders[0]?.orderItems[0]?.productId).not.toBe(productId);
  await page.goto('/cart');
  await expect(page.getByTestId('cart-refused')).toHaveCount(0);
});

test('a cancellation the server refuses says so on the order, and leads to the sync centre', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'refused-cancel');
  const order = await placedOrder(request, salon.email);
  await signInAs(page, salon.email);
  await page.goto('/orders?lng=en');
  const card = page.getByTestId('order-card').filter({ hasText: order.orderNumber });
  await expect(card.getByRole('button', { name: 'Cancel order' })).toBeVisible();

  // Staff start on the order meanwhile: it can no longer be cancelled.
  await movedByStaff(request, order.id, [{ status: 'CONFIRMED' }, { status: 'PROCESSING' }]);
  await card.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByLabel('Reason for cancelling').fill('Ordered twice');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel the order' }).click();

  await expect(card.getByTestId('cancel-refused')).toHaveText(
    'The server did not accept the cancellation: the order is not cancelled. See why in the sync centre',
  );
  await card.getByRole('link', { name: 'See why in the sync centre' }).click();
  await expect(page).toHaveURL(/\/sync$/);
  await expect(page.getByTestId('outbox-entry')).toContainText('Needs attention');
  expect((await serverOrders(request, salon.email))[0]).toMatchObject({ status: 'PROCESSING' });
});
