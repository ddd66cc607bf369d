import { type Page } from '@playwright/test';
import { expect, test } from './portal';
import { addToCart, approvedSalon, inStockCards, signInAs } from './helpers';

// The page alone: the routes below stand for the server and hold back the sync engine's
// code, which a service worker would serve from its cache.
test.use({ serviceWorkers: 'block' });

const WAITING =
  '1 change has not reached the server yet. It stays on this device and is sent when you sign in again.';
const CHECKING = 'Checking whether changes are waiting to be sent…';

/** Leaves one change waiting in the outbox: the server fails every cart call. */
async function oneChangeWaiting(page: Page) {
  await page.route('**/api/cart/**', (route) =>
    route.fulfill({ status: 503, json: { message: 'Service Unavailable' } }),
  );
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
  await addToCart(inStockCards(page), 0);
  await expect(page.getByRole('link', { name: '1 waiting to sync' })).toBeVisible();
}

/** Holds back the sync engine's code until `release` is called. */
async function holdSyncEngine(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/engine-*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('signing out from the menu waits for the outbox before deciding there is nothing to warn about', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'leaving');
  await signInAs(page, salon.email);
  await oneChangeWaiting(page);

  // A fresh page whose outbox has not been read yet.
  const release = await holdSyncEngine(page);
  await page.goto('/?lng=en');
  await page.getByRole('button', { name: 'Mara' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(CHECKING)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Log out' })).toBeDisabled();
  release();
  await expect(dialog.getByText(WAITING)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Mara' })).toBeVisible();
});

test('the profile’s sign-out warns of the waiting change, then signs out', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'leaving');
  await signInAs(page, salon.email);
  await oneChangeWaiting(page);

  // The profile opens with the sync engine, and reads the outbox as it opens.
  await page.goto('/profile?lng=en');
  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log out?' });
  await expect(dialog.getByText(WAITING)).toBeVisible();
  await dialog.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
});
