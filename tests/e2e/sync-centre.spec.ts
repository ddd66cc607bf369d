import { expect, test } from './portal';
import {
  addToCart,
  apiToken,
  approvedSalon,
  catalogueReady,
  inStockCards,
  registeredSalon,
  signInAs,
} from './helpers';

test('the catalogue kept on the device dates prices only for a company that sees them', async ({
  page,
  request,
}) => {
  await signInAs(page, (await registeredSalon(request, 'unpriced')).email);
  await page.goto('/sync?lng=en');
  const storage = page.getByTestId('device-storage');
  await expect(storage).toContainText(/products · updated /);
  await expect(storage).not.toContainText('prices');
});

test('a verified salon is invited to keep the catalogue, and the invitation moves nothing on the page', async ({
  page,
  request,
}) => {
  await signInAs(page, (await approvedSalon(request, 'invited')).email);
  // The catalogue as it stays: the device's copy, whose line is after the products.
  await catalogueReady(page);
  const invite = page.getByRole('status').filter({
    hasText: 'Going to a fair? Keep the whole catalogue and its pictures on this device.',
  });
  await expect(invite).toBeVisible();
  const card = page.getByTestId('product-card').first();
  await expect(card).toBeVisible();
  const before = await card.boundingBox();

  // Declined: it goes without moving the cards, and is not asked again.
  await invite.getByRole('button', { name: 'Not now' }).click();
  await expect(invite).toHaveCount(0);
  expect(await card.boundingBox()).toEqual(before);
  expect(
    await page.evaluate(() => localStorage.getItem('portal.offlineInviteDone')),
  ).not.toBeNull();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Mara' })).toBeVisible();
  await expect(card).toBeVisible();
  await expect(invite).toHaveCount(0);
});

test('the invitation to keep the catalogue leads to the sync centre', async ({ page, request }) => {
  await signInAs(page, (await approvedSalon(request, 'accepts')).email);
  await page.goto('/products?lng=en');
  await page
    .getByRole('status')
    .filter({ hasText: 'Going to a fair?' })
    .getByRole('link', { name: 'Make available offline' })
    .click();
  await expect(page).toHaveURL(/\/sync/);
  await expect(page.getByRole('button', { name: 'Make available offline' })).toBeVisible();
});

test('the catalogue kept on the device of an approved company says how recent its prices are', async ({
  page,
  request,
}) => {
  await signInAs(page, (await approvedSalon(request, 'priced')).email);
  await page.goto('/sync?lng=en');
  await expect(page.getByTestId('device-storage')).toContainText(/products · prices as of /);
});

test('the sync centre never says everything was sent before it has read the outbox', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'centre');
  await signInAs(page, salon.email);
  await catalogueReady(page);
  await context.setOffline(true);
  const cards = inStockCards(page);
  await addToCart(cards, 0);
  await expect(page.getByRole('link', { name: '1 waiting to sync' })).toBeVisible();

  // Every text the page ever shows is noted, however briefly it was there.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seenTexts: string[] }).seenTexts = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'characterData') {
          seen.push(record.oldValue ?? '', record.target.textContent ?? '');
        }
        for (const node of record.addedNodes) seen.push(node.textContent ?? '');
      }
    }).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
      characterDataOldValue: true,
    });
  });
  await page.goto('/sync?lng=en');
  await expect(page.getByTestId('outbox-entry')).toHaveCount(1);
  const seen = await page.evaluate(() =>
    (window as unknown as { seenTexts: string[] }).seenTexts.join('\n'),
  );
  expect(seen).not.toContain('Everything has been sent.');
  expect(seen).toContain('Reading the changes saved on this device…');
});

test.describe('a failure of the device’s storage', () => {
  // The page alone: the service worker's storage is not the one made to fail.
  test.use({ serviceWorkers: 'block' });

  test('is shown in the sync centre, and sending is tried again until it works', async ({
    page,
    request,
  }) => {
    const salon = await approvedSalon(request, 'storage');
    await page.addInitScript(() => {
      // Writes that change a stored record fail while the test says so (a full disk, say).
      const state = window as unknown as { failDeviceWrites: boolean };
      state.failDeviceWrites = false;
      // Read off the prototypes with Reflect.get: each is called below on its own store or cursor.
      const put = Reflect.get(IDBObjectStore.prototype, 'put');
      IDBObjectStore.prototype.put = function (...args: Parameters<IDBObjectStore['put']>) {
        if (state.failDeviceWrites)
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return put.apply(this, args);
      };
      const update = Reflect.get(IDBCursor.prototype, 'update');
      IDBCursor.prototype.update = function (...args: Parameters<IDBCursor['update']>) {
        if (state.failDeviceWrites)
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return update.apply(this, args);
      };
    });
    await signInAs(page, salon.email);
    await page.goto('/products?lng=en');
    await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
    await expect(page.getByText('Catalogue saved on this device')).toBeVisible();

    await page.evaluate(() => {
      (window as unknown as { failDeviceWrites: boolean }).failDeviceWrites = true;
    });
    const cards = inStockCards(page);
    await addToCart(cards, 0);
    await page.getByRole('link', { name: '1 waiting to sync' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'could not read or save' });
    await expect(alert).toHaveText(
      'This device could not read or save your waiting changes. Nothing is lost: we try again in a moment. If this keeps happening, free up storage space or reload the page.',
    );

    await page.evaluate(() => {
      (window as unknown as { failDeviceWrites: boolean }).failDeviceWrites = false;
    });
    await expect(page.getByText('Everything has been sent.')).toBeVisible({ timeout: 15_000 });
    await expect(alert).toHaveCount(0);
    const token = await apiToken(request, salon.email);
    const cart = await request.get('/api/cart', { headers: { authorization: `Bearer ${token}` } });
    expect(((await cart.json()) as { itemCount: number }).itemCount).toBe(1);
  });
});

test('a browser that keeps nothing on the device (site data blocked) is told why there is no cart', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'nostorage');
  await page.addInitScript(() => {
    Object.defineProperty(window, 'indexedDB', {
      get() {
        throw new DOMException('Access to storage is not allowed.', 'SecurityError');
      },
    });
  });
  await signInAs(page, salon.email);
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
  await inStockCards(page).first().getByRole('button', { name: 'Add to cart' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'does not let the portal keep anything' }),
  ).toHaveText(
    /^This browser does not let the portal keep anything on this device \(private browsing, or site data blocked\), so there is no cart\. Allow site data for this site, or use another browser\./,
  );
});

test.describe('a change the server keeps failing', () => {
  // The page alone: its replay is the one the routes below answer.
  test.use({ serviceWorkers: 'block' });

  test('says so after three attempts, and can be discarded to let the next go', async ({
    page,
    request,
  }) => {
    const salon = await approvedSalon(request, 'failing');
    await signInAs(page, salon.email);
    await page.goto('/products?lng=en');
    await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
    // The server fails on one product's addition (a fault of its own), not on the other's.
    let failing: number | undefined;
    await page.route('**/api/cart/add', async (route) => {
      const { productId } = route.request().postDataJSON() as { productId: number };
      failing ??= productId;
      if (productId !== failing) return route.continue();
      return route.fulfill({ status: 500, json: { message: 'Internal Server Error' } });
    });
    const cards = inStockCards(page);
    await addToCart(cards, 0);
    await addToCart(cards, 1);
    await page.getByRole('link', { name: '2 waiting to sync' }).click();
    const entries = page.getByTestId('outbox-entry');
    const first = entries.first();
    // It is tried again by itself, sooner at first; "Send now" tries at once.
    await page.getByRole('button', { name: 'Send now' }).click();
    await expect(first).toContainText(
      'The server keeps failing to take this change. It is sent again automatically; you can also discard it.',
      { timeout: 15_000 },
    );
    const attempts = Number(/(\d+) attempts/.exec((await first.textContent()) ?? '')?.[1]);
    expect(attempts).toBeGreaterThanOrEqual(3);
    // The other waits behind it.
    await expect(entries).toHaveCount(2);

    // (While it is on its way again, it cannot be discarded: its button comes back after.)
    const discard = page.getByRole('button', { name: 'Discard' });
    await expect(async () => {
      if ((await discard.count()) > 0) await discard.click({ timeout: 2_000 });
      await expect(page.getByText('Everything has been sent.')).toBeVisible({ timeout: 2_000 });
    }).toPass();
    const token = await apiToken(request, salon.email);
    const cart = await request.get('/api/cart', { headers: { authorization: `Bearer ${token}` } });
    const { items } = (await cart.json()) as { items: { productId: number }[] };
    expect(items.map((item) => item.productId)).not.toContain(failing);
    expect(items).toHaveLength(1);
  });
});
