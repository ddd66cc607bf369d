import { type Page } from '@playwright/test';
import { expect, test } from './portal';
import { openedBefore } from './helpers';

// The page's own requests, as the page makes them (no service worker in between).
test.use({ serviceWorkers: 'block' });

interface MirrorCall {
  status: number;
  updatedSince: string | null;
  ifNoneMatch: string | undefined;
  etag: string | undefined;
}

/** Notes every answer to the catalogue mirror's request, in order. */
function recordMirrorCalls(page: Page): MirrorCall[] {
  const calls: MirrorCall[] = [];
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.pathname !== '/api/products/mirror') return;
    const headers = await response.request().allHeaders();
    calls.push({
      status: response.status(),
      updatedSince: url.searchParams.get('updatedSince'),
      ifNoneMatch: headers['if-none-match'],
      etag: response.headers().etag,
    });
  });
  return calls;
}

/** Leaves the catalogue and opens it again, which refreshes the mirror. */
async function openCatalogueAgain(page: Page) {
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Products', exact: true })
    .click();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
}

test('a refresh while the catalogue is unchanged names the copy it holds and gets a 304', async ({
  page,
}) => {
  await openedBefore(page);
  const calls = recordMirrorCalls(page);
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  // 1. The whole catalogue.
  await expect.poll(() => calls.length, { timeout: 20_000 }).toBe(1);
  const first = calls[0];
  expect(first).toMatchObject({ status: 200, updatedSince: null, ifNoneMatch: undefined });
  expect(first?.etag).toBeDefined();

  // 2. Nothing changed: the changes since its cursor, naming the copy it holds: 304.
  await openCatalogueAgain(page);
  await expect.poll(() => calls.length).toBe(2);
  expect(calls[1]).toMatchObject({ status: 304, ifNoneMatch: first?.etag, etag: first?.etag });
  expect(calls[1]?.updatedSince).not.toBeNull();
  // The catalogue is still there, from the device.
  await expect(page.getByText('Catalogue saved on this device')).toBeVisible();
});

test('the cards stay where they are when the copy on the device becomes ready', async ({
  page,
}) => {
  await openedBefore(page);
  // The copy is held back until the page, as the server gave it, has been measured.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/products/mirror*', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/products?lng=en');
  const card = page.getByTestId('product-card').first();
  await expect(card).toBeVisible();
  const before = await card.boundingBox();
  await expect(page.getByTestId('catalogue-source')).toHaveCount(0);

  release();
  await expect(page.getByTestId('catalogue-source')).toHaveText(/^Catalogue saved on this device/, {
    timeout: 20_000,
  });
  expect(await card.boundingBox()).toEqual(before);
});
