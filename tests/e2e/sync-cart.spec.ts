import { type Page } from '@playwright/test';
import { expect, test } from './portal';
import {
  addToCart,
  approvedSalon,
  fillShipping,
  inStockCards,
  serverOrders,
  signInAs,
} from './helpers';

// The page alone: a service worker would send the same changes by its own fetch, which
// the routes below do not reach.
test.use({ serviceWorkers: 'block' });

/** Signs in, opens the catalogue and puts the first product in stock in the cart. */
async function oneLineInCart(page: Page, salon: { email: string }) {
  await signInAs(page, salon.email);
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
  const cards = inStockCards(page);
  await addToCart(cards, 0);
  await expect(page.getByTestId('cart-badge')).toHaveText('1');
}

test('typing a quantity and clicking Update queues one change', async ({
  page,
  context,
  request,
}) => {
  await oneLineInCart(page, await approvedSalon(request, 'stepper'));
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  // The line's addition sent: the change below is all the outbox will hold.
  await expect(page.getByTestId('cart-waiting')).toHaveCount(0);
  // Offline, the change stays in the outbox where it can be counted.
  await context.setOffline(true);
  await page.getByRole('spinbutton', { name: /^Quantity of/ }).fill('4');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByTestId('cart-badge')).toHaveText('4');
  await page.waitForTimeout(300);
  await expect(page.getByTestId('cart-waiting')).toContainText(
    '1 change is saved on this device and waiting to sync.',
  );
});

test('a quantity typed above the stock or under 1 is changed, and the cart says why', async ({
  page,
  request,
}) => {
  await oneLineInCart(page, await approvedSalon(request, 'stock-limit'));
  await page.getByRole('link', { name: /^Cart/ }).click();
  const quantity = page.getByRole('spinbutton', { name: /^Quantity of/ });
  const stock = await quantity.getAttribute('max');
  expect(Number(stock)).toBeGreaterThan(1);

  await quantity.fill('99999');
  await quantity.press('Enter');
  await expect(quantity).toHaveValue(String(stock));
  await expect(page.getByRole('status').filter({ hasText: /in stock/ })).toHaveText(
    `Only ${stock} in stock: the quantity is now ${stock}.`,
  );
  await expect(quantity).toHaveAccessibleDescription(
    `Only ${stock} in stock: the quantity is now ${stock}.`,
  );
  await expect(page.getByTestId('cart-badge')).toHaveText(String(stock));

  await quantity.fill('0');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(quantity).toHaveValue('1');
  await expect(quantity).toHaveAccessibleDescription(
    'The quantity is at least 1: to take the product out, use Remove.',
  );
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-badge')).toHaveText('1');
});

test("on a product's page, a quantity typed above the stock or under 1 is changed, and the page says why", async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'product-limit');
  await signInAs(page, salon.email);
  await page.goto('/products?lng=en');
  await inStockCards(page)
    .first()
    .getByRole('link', { name: /^View details/ })
    .click();
  const quantity = page.getByRole('spinbutton', { name: 'Quantity' });
  const stock = await quantity.getAttribute('max');
  expect(Number(stock)).toBeGreaterThan(1);
  const note = `Only ${stock} in stock: the quantity is now ${stock}.`;

  await quantity.fill('99999');
  await quantity.press('Tab');
  await expect(quantity).toHaveValue(String(stock));
  await expect(page.getByRole('status').filter({ hasText: note })).toBeVisible();
  await expect(quantity).toHaveAccessibleDescription(note);
  // Adding takes the quantity shown, and the reason stays said.
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByTestId('cart-badge')).toHaveText(String(stock));
  await expect(quantity).toHaveAccessibleDescription(note);

  // The next change clears it; under 1 says the least.
  await quantity.fill('3');
  await expect(quantity).not.toHaveAccessibleDescription(note);
  await quantity.fill('0');
  await quantity.press('Tab');
  await expect(quantity).toHaveValue('1');
  await expect(quantity).toHaveAccessibleDescription('The quantity is at least 1.');
});

test('a change that reaches the server ends "You are offline" at once', async ({
  page,
  request,
}) => {
  await oneLineInCart(page, await approvedSalon(request, 'back-online'));
  await page.getByRole('link', { name: /^Cart/ }).click();
  // The browser said the network went (as a phone joining the fair's Wi-Fi says), and the
  // app's own looks at the server find nothing (the Wi-Fi's sign-in page is in the way)…
  let looksFailed = 0;
  let healthReachable = false;
  // On the browser context: also a look that passes through the service worker.
  await page.context().route('**/api/health', async (route) => {
    if (healthReachable) return route.continue();
    looksFailed += 1;
    await route.abort('internetdisconnected');
  });
  const banner = page.getByText(/^You are offline\. You can keep browsing/);
  // (A look begun before the route was there may still say online: the browser says again.)
  await expect(async () => {
    await page.evaluate(() => window.dispatchEvent(new Event('offline')));
    await expect(banner).toBeVisible({ timeout: 1_000 });
  }).toPass();
  // …after 1 s, 2 s more and 4 s more: the next look is 8 s away.
  looksFailed = 0;
  await expect.poll(() => looksFailed, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  // …then the Wi-Fi lets the app through.
  healthReachable = true;

  const sent = page.waitForResponse((r) => r.url().includes('/api/cart/items/') && r.ok());
  await page.getByRole('spinbutton', { name: /^Quantity of/ }).fill('2');
  await page.getByRole('button', { name: 'Update' }).click();
  await sent;
  // The server took the change: that is news it can be reached, long before the next look.
  await expect(banner).toBeHidden({ timeout: 5_000 });
  await expect(page.getByTestId('cart-badge')).toHaveText('2');
});

test('a change the server fails is said to have failed on the server, not to be offline', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'failing');
  await page.route('**/api/cart/add', (route) =>
    route.fulfill({ status: 500, json: { message: 'Internal Server Error' } }),
  );
  await oneLineInCart(page, salon);
  const serverFailed =
    'The server failed to take your changes. They stay saved on this device and are sent again automatically.';
  await page.getByRole('link', { name: /^Cart/ }).click();
  const waiting = page.getByTestId('cart-waiting');
  await expect(waiting).toContainText(serverFailed);
  await expect(waiting).not.toContainText(/offline|cannot be reached/);
  await page.getByRole('link', { name: '1 waiting to sync' }).click();
  await expect(page.getByText(serverFailed)).toBeVisible();
});

test('an order placed while the server cannot be reached is said to be saved, even with navigator.onLine true', async ({
  page,
  request,
}) => {
  await oneLineInCart(page, await approvedSalon(request, 'liefi'));
  await page.getByRole('link', { name: /^Cart/ }).click();
  // Lie-fi: the device has a network, the server does not answer. A change that cannot
  // be sent makes the app look at the connection.
  await page.route('**/api/**', (route) => route.abort('timedout'));
  await page.getByRole('button', { name: /^One more/ }).click();
  await expect(page.getByTestId('cart-waiting')).toContainText(
    'You are offline: your changes are saved on this device and sent as soon as the server can be reached.',
  );
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await fillShipping(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(
    page.getByText(
      'You are offline: the order is saved on this device and will be sent when you are back online.',
    ),
  ).toBeVisible();
});

test('an order placed online says it is being sent, then only that it was created', async ({
  page,
  request,
}) => {
  await oneLineInCart(page, await approvedSalon(request, 'sending'));
  await page.getByRole('link', { name: /^Cart/ }).click();
  // The order is held until the page has said it is being sent.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/orders', async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.fallback();
  });
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await fillShipping(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  const sending = page.getByText('Sending your order…');
  await expect(sending).toBeVisible();
  release();
  await expect(page.getByText(/^Order FP-\d{4}-\d{6} created successfully!$/)).toBeVisible();
  await expect(sending).toHaveCount(0);
});

test('a quantity typed and left for "Place order" is the quantity ordered', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'typed-then-ordered');
  await oneLineInCart(page, salon);
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(page.getByTestId('cart-waiting')).toHaveCount(0);
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await fillShipping(page);
  // Typed, not confirmed with Update: the click on "Place order" leaves the field.
  await page.getByRole('spinbutton', { name: /^Quantity of/ }).fill('3');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByText(/^Order FP-\d{4}-\d{6} created successfully!$/)).toBeVisible();
  const [order] = await serverOrders(request, salon.email);
  expect(order?.orderItems.map((item) => item.quantity)).toEqual([3]);
});

test.describe('the newsletter', () => {
  const subscribe = async (page: Page) => {
    await page.getByLabel('E-mail address').fill('salon@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
  };

  test('says the server failed when it answers with an error', async ({ page }) => {
    await page.goto('/?lng=en');
    await page.route('**/api/newsletter', (route) =>
      route.fulfill({ status: 503, json: { message: 'Service Unavailable' } }),
    );
    await subscribe(page);
    await expect(page.getByRole('alert')).toHaveText(
      'Our server failed to subscribe you. Please try again in a few minutes.',
    );
  });

  test('says offline only when the server cannot be reached', async ({ page, context }) => {
    await page.goto('/?lng=en');
    // Only this request is lost: the server can still be reached.
    await page.route('**/api/newsletter', (route) => route.abort('connectionreset'));
    await subscribe(page);
    await expect(page.getByRole('alert')).toHaveText(
      'We could not subscribe you. Please try again.',
    );

    await context.setOffline(true);
    await subscribe(page);
    await expect(page.getByRole('alert')).toHaveText(
      'You are offline. Please try again when you are connected.',
    );
  });
});
