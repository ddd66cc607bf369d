import { expect, test, type Page } from '@playwright/test';

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

test('a refresh that asks the mirror the same question again gets a 304 and nothing else', async ({
  page,
}) => {
  const calls = recordMirrorCalls(page);
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  // 1. The whole catalogue.
  await expect.poll(() => calls.length, { timeout: 20_000 }).toBe(1);
  expect(calls[0]).toMatchObject({ status: 200, updatedSince: null, ifNoneMatch: undefined });

  // 2. The changes since its cursor: another question, so the first ETag is not sent.
  await openCatalogueAgain(page);
  await expect.poll(() => calls.length).toBe(2);
  const second = calls[1];
  expect(second).toMatchObject({ status: 200, ifNoneMatch: undefined });
  expect(second?.updatedSince).not.toBeNull();
  expect(second?.etag).toBeDefined();

  // 3. Nothing changed: the same question, with the second answer's ETag, answered 304.
  await openCatalogueAgain(page);
  await expect.poll(() => calls.length).toBe(3);
  expect(calls[2]).toEqual({
    status: 304,
    updatedSince: second?.updatedSince,
    ifNoneMatch: second?.etag,
    etag: second?.etag,
  });
  // The catalogue is still there, from the device.
  await expect(page.getByText('Catalogue saved on this device')).toBeVisible();
});
