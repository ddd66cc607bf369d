import { type Page } from '@playwright/test';
import { expect, test } from './portal';

/** Errors the page reports: a failed hydration of the server's markup shows up here. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/** Holds the app's code back until the returned function is called. */
async function holdTheApp(page: Page) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/start-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test.describe('without scripts', () => {
  test.use({ javaScriptEnabled: false });

  test('the first screens show their content from the server alone', async ({ page }) => {
    await page.goto('/products?lng=en');
    await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
    await expect(page.getByTestId('product-card')).toHaveCount(12);
    await expect(page.getByText('44 products')).toBeVisible();
    await expect(page).toHaveTitle('Products | Floravia Professional');
    // Visitors never see a price, also not in the server's markup.
    await expect(page.getByText('€')).toHaveCount(0);

    await page.goto('/products/1?lng=it');
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Hydra Balance Shampoo 1000 ml',
    );

    await page.goto('/?lng=en');
    await expect(
      page.getByRole('heading', { name: 'Professional hair care, naturally', level: 1 }),
    ).toBeVisible();

    for (const path of ['/support/faq', '/support/shipping', '/terms', '/privacy']) {
      await page.goto(`${path}?lng=en`);
      await expect(page.locator('main h1')).toBeVisible();
    }
  });

  test('a product that does not exist is a 404 page with a way back', async ({ page }) => {
    const response = await page.goto('/products/99999?lng=en');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
  });

  test('the server renders in the language chosen on an earlier visit', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'portal-language', value: 'it', url: baseURL ?? '' }]);
    await page.goto('/products');
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await expect(page.getByRole('heading', { name: 'Prodotti', level: 1 })).toBeVisible();
  });
});

test('the server fills the built page: language, head tags, screen and its data', async ({
  request,
}) => {
  const html = await (await request.get('/terms?lng=en')).text();
  const [head = '', body = ''] = html.split('</head>');
  expect(head).toContain('<html lang="en"');
  expect(head).toMatch(/<title>[^<]+<\/title>/);
  // The screen shows first: the scripts wait for its pictures and styles.
  expect(head).toContain('<script type="module" fetchpriority="low" crossorigin');
  expect(body).not.toContain('<title>');
  expect(body).toMatch(/<div id="root"><[a-z]/);
  expect(body).toContain('<script type="application/json" id="first-screen">');
});

test('the page hydrates the server’s screen without errors and works at once', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card')).toHaveCount(12);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('tea tree');
  await expect(page).toHaveURL(/search=tea\+tree/);
  const found = await page.request.get('/api/products?search=tea%20tree&limit=12&sortBy=name');
  const { pagination } = (await found.json()) as { pagination: { totalProducts: number } };
  expect(pagination.totalProducts).toBeLessThan(44);
  await expect(page.getByText(`${pagination.totalProducts} products`)).toBeVisible();

  await page.goto('/products/1?lng=en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hydra Balance Shampoo 1000 ml');
  await page.goto('/?lng=en');
  await page.getByRole('link', { name: 'Products', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a visitor who opens the catalogue by its link can filter it by category', async ({
  page,
}) => {
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card')).toHaveCount(12);
  await page.getByRole('button', { name: 'Filters', exact: true }).click();
  const category = page.getByRole('combobox', { name: /^Category/ });
  await expect(category.getByRole('option', { name: 'Shampoos' })).toBeAttached({
    timeout: 15_000,
  });
  await category.selectOption({ label: 'Shampoos' });
  await expect(page).toHaveURL(/category=\d+/);
  await expect(page.getByTestId('product-card').first()).toBeVisible();
});

test('the app’s files are asked for together, not each after the one naming it', async ({
  page,
}) => {
  // The start-up module is held back: the files it needs are asked for all the same.
  const release = await holdTheApp(page);
  const shell = page.waitForRequest(/\/assets\/shell-[^/]+\.js$/);
  const runtime = page.waitForRequest(/\/assets\/rolldown-runtime-[^/]+\.js$/);
  await page.goto('/products?lng=en');
  await Promise.all([shell, runtime]);
  release();
  await page.waitForFunction(() => performance.getEntriesByName('first-screen').length > 0);
});

test('the catalogue’s first screen does not wait for the home screen’s texts', async ({ page }) => {
  await page.goto('/products?lng=en');
  await page.waitForFunction(() => performance.getEntriesByName('first-screen').length > 0);
  const before = await page.evaluate(() => {
    const shown = performance.getEntriesByName('first-screen')[0]?.startTime ?? 0;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime < shown && /\/assets\/.+\.js$/.test(entry.name))
      .map((entry) => entry.name);
  });
  expect(before.length).toBeGreaterThan(0);
  for (const url of before) {
    expect(await (await page.request.get(url)).text()).not.toContain(
      'Professional hair care, naturally',
    );
  }
  // The home screen has them when it opens, also after the catalogue.
  await page.getByRole('link', { name: 'Home', exact: true }).first().click();
  await expect(
    page.getByRole('heading', { name: 'Professional hair care, naturally', level: 1 }),
  ).toBeVisible();
});

test('buttons clicked before hydration are clicked once, after', async ({ page }) => {
  // The app's code is held back until the clicks have been made.
  const release = await holdTheApp(page);
  await page.goto('/products?lng=en&view=list', { waitUntil: 'domcontentloaded' });
  await page.getByRole('button', { name: 'Grid view' }).click();
  await page.getByRole('button', { name: 'Filters', exact: true }).click();
  release();
  await expect(page).not.toHaveURL(/view=list/);
  await expect(page.getByRole('button', { name: 'Grid view' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // Once, not twice: the filters are open.
  await expect(page.getByRole('button', { name: 'Filters', exact: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
});

test.describe('typed before hydration', () => {
  // Each address rendered by the server, as on a first visit.
  test.use({ serviceWorkers: 'block' });

  test('a quantity typed on a product is the one the page works with', async ({ page }) => {
    const release = await holdTheApp(page);
    await page.goto('/products/1?lng=en', { waitUntil: 'domcontentloaded' });
    const quantity = page.getByRole('spinbutton', { name: 'Quantity' });
    const stock = await quantity.getAttribute('max');
    expect(Number(stock)).toBeGreaterThan(1);
    await quantity.fill('99999');
    await quantity.press('Tab');
    release();
    // Once the page hears the field, leaving it changes the typed quantity and says why.
    await expect(async () => {
      await quantity.focus();
      await quantity.press('Tab');
      await expect(quantity).toHaveValue(String(stock), { timeout: 500 });
    }).toPass({ timeout: 10_000 });
    await expect(
      page.getByRole('status').filter({ hasText: `Only ${stock} in stock` }),
    ).toBeVisible();
  });
});

test('a choice kept only on the device wins over the server’s language', async ({ page }) => {
  await page.goto('/?lng=it');
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  // The page keeps the choice once it has taken the screen over.
  await page.waitForFunction(() => performance.getEntriesByName('first-screen').length > 0);
  // The cookie is gone (cleared by the browser), the device still holds the choice.
  await page.context().clearCookies();
  await page.goto('/products');
  await expect(page.getByRole('heading', { name: 'Prodotti', level: 1 })).toBeVisible();
});

test.describe('signed in, without the service worker', () => {
  // Without the service worker every address goes to the server, as on a first visit.
  test.use({ serviceWorkers: 'block' });

  test('a verified company’s first screens are its own, never the visitor’s first', async ({
    page,
  }) => {
    const restricted = 'Prices are available only for verified companies';
    await page.goto('/login?lng=en');
    await page.getByLabel('E-mail', { exact: true }).fill('salon.verified@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Verified-Salon-2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const menu = page.getByRole('button', { name: 'Ioana' });
    await expect(menu).toBeVisible();

    // The server leaves the screens to the browser: nothing to move once prices show.
    const catalogue = await page.goto('/products?lng=en');
    expect(await catalogue?.text()).not.toContain(restricted);
    await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
    const product = await page.goto('/products/1?lng=en');
    expect(await product?.text()).not.toContain(restricted);
    await expect(page.getByText(/€/).first()).toBeVisible();

    // Signed out, the server renders the visitor's screen again.
    await menu.click();
    const loggedOut = page.waitForResponse('**/api/auth/logout');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
    expect((await loggedOut).ok()).toBe(true);
    expect(await (await page.goto('/products?lng=en'))?.text()).toContain(restricted);
  });
});
