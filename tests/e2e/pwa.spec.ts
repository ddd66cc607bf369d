import { expect, test } from '@playwright/test';

test.describe('without the service worker', () => {
  test.use({ serviceWorkers: 'block' });

  test('a page whose code cannot be downloaded says so and offers a reload', async ({ page }) => {
    await page.goto('/products?lng=en');
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await page.route('**/assets/product-page-*.js', (route) => route.abort('internetdisconnected'));
    await page.getByTestId('product-card').first().getByRole('heading').getByRole('link').click();
    await expect(
      page.getByRole('heading', { name: 'This page could not be loaded' }),
    ).toBeVisible();
    await page.unroute('**/assets/product-page-*.js');
    await page.getByRole('button', { name: 'Refresh Page' }).click();
    await expect(page.getByRole('button', { name: 'Add to cart' })).toBeVisible();
  });
});
