import { type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './portal';
import { SESSION_KEYS, SYNC_TAG } from '../../src/contracts/storage-names';
import { BACKOFF_CAP_MS } from '../../src/lib/sync/outbox-rules';
import { editDeviceDb, outboxAttempts } from './device-outbox';
import {
  addToCart,
  apiToken,
  approvedSalon,
  catalogueReady,
  inStockCards,
  signInAs,
} from './helpers';

interface ServerCart {
  items: { productId: number; quantity: number }[];
  itemCount: number;
}

/** The salon's cart as the server has it. */
function serverCart(request: APIRequestContext, email: string) {
  let token: string | undefined;
  return async (): Promise<ServerCart> => {
    token ??= await apiToken(request, email);
    const response = await request.get('/api/cart', {
      headers: { authorization: `Bearer ${token}` },
    });
    return (await response.json()) as ServerCart;
  };
}

/** An access token shaped like the server's, expired a minute ago (and not signed by it). */
const expiredToken = () =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(
    JSON.stringify({ sub: '1', exp: Math.floor(Date.now() / 1000) - 60 }),
  ).toString('base64url')}.c2ln`;

/** Waits until the one entry of the outbox has been tried and failed. */
const failedOnce = (page: Page) =>
  expect.poll(async () => (await outboxAttempts(page))[0] ?? 0).toBeGreaterThan(0);

/**
 * Wakes the service worker with a Background Sync event, as the browser does when the
 * connection returns. The page driving it is blank: no page of the app is open.
 */
async function dispatchSync(context: BrowserContext, origin: string) {
  const blank = await context.newPage();
  const cdp = await context.newCDPSession(blank);
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registered;
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin,
    registrationId,
    tag: SYNC_TAG,
    lastChance: false,
  });
  await cdp.detach();
  await blank.close();
}

/**
 * The waiting change leaves the page at once when `trigger` returns (reconnecting, a
 * click, the tab shown, a sign-in), and reaches the server once. Backed off to the cap, it
 * would otherwise wait a minute: "at once" is told from that by a tenth of it, measured to
 * the request leaving the page, so a loaded machine's slower test run cannot fail it. How
 * soon it goes (the goal is a second) is a figure of `npm run bench`, not of this test.
 */
async function sentAtOnce(
  page: Page,
  cart: () => Promise<ServerCart>,
  trigger: () => Promise<number>,
) {
  await cart(); // signs the test's own client in before the clock starts
  // The server is fine again (a test that failed it, see backingOff).
  await page.unroute('**/api/cart/add');
  const sent = page
    .waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/cart/add', {
      timeout: 15_000,
    })
    .then(() => Date.now());
  const since = await trigger();
  expect((await sent) - since).toBeLessThan(BACKOFF_CAP_MS / 10);
  await expect.poll(async () => (await cart()).itemCount).toBe(1);
}

test.describe('the page', () => {
  // The page alone: a service worker would replay the same entries on its own.
  test.use({ serviceWorkers: 'block' });

  test('sends entries backed off to the longest wait at once when the connection returns', async ({
    page,
    context,
    request,
  }) => {
    const salon = await approvedSalon(request, 'reconnect');
    const cart = serverCart(request, salon.email);
    await signInAs(page, salon.email);
    await page.goto('/products?lng=en');
    await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();

    await context.setOffline(true);
    const cards = inStockCards(page);
    await addToCart(cards, 0);
    await failedOnce(page);
    await editDeviceDb(page, { backOffToTheCap: true });

    await sentAtOnce(page, cart, async () => {
      const reconnected = Date.now();
      await context.setOffline(false);
      return reconnected;
    });
  });

  /**
   * Signs in and leaves one change waiting at the longest wait. The server keeps failing it
   * until `sentAtOnce` is about to give the trigger: a retry that something else made due
   * meanwhile (the replay starting once the page has settled, which sends waiting changes
   * at once) fails as well and backs off as long again, instead of sending the change early.
   */
  async function backingOff(page: Page, request: APIRequestContext, prefix: string) {
    const salon = await approvedSalon(request, prefix);
    await signInAs(page, salon.email);
    await page.goto('/products?lng=en');
    await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
    // The server fails the first attempt: the change waits, backing off.
    await page.route('**/api/cart/add', (route) =>
      route.fulfill({ status: 503, json: { message: 'Service Unavailable' } }),
    );
    const cards = inStockCards(page);
    await addToCart(cards, 0);
    await failedOnce(page);
    await editDeviceDb(page, { backOffToTheCap: true });
    return { salon, cart: serverCart(request, salon.email) };
  }

  test('"Send now" sends entries that were backing off at once', async ({ page, request }) => {
    const { cart } = await backingOff(page, request, 'sendnow');
    await page.getByRole('link', { name: '1 waiting to sync' }).click();
    // The second starts at the click, not while the sync centre is still loading.
    const sendNow = page.getByRole('button', { name: 'Send now' });
    await expect(sendNow).toBeEnabled();
    await sentAtOnce(page, cart, async () => {
      const clicked = Date.now();
      await sendNow.click();
      return clicked;
    });
    await expect(page.getByText('Everything has been sent.')).toBeVisible();
  });

  test('sends entries that were backing off at once when the tab is shown again', async ({
    page,
    request,
  }) => {
    const { cart } = await backingOff(page, request, 'visible');
    await sentAtOnce(page, cart, async () => {
      const shown = Date.now();
      // What the browser fires when the user comes back to the tab.
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      return shown;
    });
  });

  test('sends entries that were backing off at once when the user signs in again', async ({
    page,
    request,
  }) => {
    const { salon, cart } = await backingOff(page, request, 'signin');
    await page.getByRole('button', { name: 'Mara' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('button', { name: 'Mara' })).toHaveCount(0);
    await editDeviceDb(page, { backOffToTheCap: true });
    await sentAtOnce(page, cart, async () => {
      // The second starts when the server has signed the user in.
      const signedIn = page.waitForResponse('**/api/auth/login').then(() => Date.now());
      await signInAs(page, salon.email);
      return signedIn;
    });
  });
});

test.describe('the service worker', () => {
  test('replays a removal and a cleared cart with the page closed, also after backing off', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? '').origin;
    const salon = await approvedSalon(request, 'swremove');
    const cart = serverCart(request, salon.email);
    await signInAs(page, salon.email);
    await catalogueReady(page);
    const cards = inStockCards(page);
    const removed = await cards.nth(0).getByRole('heading').innerText();
    for (const n of [0, 1]) {
      await addToCart(cards, n);
    }
    await expect.poll(async () => (await cart()).itemCount).toBe(2);

    // Removed offline on the cart page, then the page is closed.
    await page.getByRole('link', { name: /^Cart/ }).click();
    await expect(page.getByTestId('cart-line')).toHaveCount(2);
    await context.setOffline(true);
    await page.getByRole('button', { name: `Remove ${removed} from the cart` }).click();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await failedOnce(page);
    await editDeviceDb(page, { backOffToTheCap: true });
    await page.close();

    await context.setOffline(false);
    await dispatchSync(context, origin);
    await expect.poll(async () => (await cart()).items.length, { timeout: 10_000 }).toBe(1);

    // Cleared offline, closed, replayed by the worker the same way.
    const again = await context.newPage();
    await again.goto('/cart?lng=en');
    await expect(again.getByTestId('cart-line')).toHaveCount(1);
    await context.setOffline(true);
    await again.getByRole('button', { name: 'Clear cart' }).click();
    await again.getByRole('dialog').getByRole('button', { name: 'Clear cart' }).click();
    await expect(again.getByText('Your cart is empty').first()).toBeVisible();
    await failedOnce(again);
    await editDeviceDb(again, { backOffToTheCap: true });
    await again.close();

    await context.setOffline(false);
    await dispatchSync(context, origin);
    await expect.poll(async () => (await cart()).items.length, { timeout: 10_000 }).toBe(0);
  });

  test('renews an expired token to replay, and the page takes the renewed session over', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? '').origin;
    const salon = await approvedSalon(request, 'swrenew');
    const cart = serverCart(request, salon.email);
    await signInAs(page, salon.email);
    await catalogueReady(page);
    const cards = inStockCards(page);

    await context.setOffline(true);
    await addToCart(cards, 0);
    await failedOnce(page);
    // The access token runs out while the device is offline and the app is closed.
    await editDeviceDb(page, { accessToken: expiredToken() });
    await page.close();

    await context.setOffline(false);
    await dispatchSync(context, origin);
    await expect.poll(async () => (await cart()).itemCount, { timeout: 10_000 }).toBe(1);

    // The page's copy holds the refresh token the worker spent, and an access token that
    // has run out too: the page must take the worker's tokens, not spend its own again.
    const next = await context.newPage();
    await next.goto('/products?lng=en');
    await next.evaluate(([key, token]) => localStorage.setItem(key, token), [
      SESSION_KEYS.accessToken,
      expiredToken(),
    ] as const);
    await next.reload();
    await expect(next.getByRole('button', { name: 'Mara' })).toBeVisible();
    const nextCards = inStockCards(next);
    await addToCart(nextCards, 1);
    await expect.poll(async () => (await cart()).itemCount, { timeout: 10_000 }).toBe(2);
    await expect(next).not.toHaveURL(/\/login/);
  });
});
