import { type Page } from '@playwright/test';
import { expect, test } from './portal';
import { approvedSalon, openedBefore, signInAs, untilControlled } from './helpers';
import { DB_NAME } from '../../src/contracts/storage-names';

interface ApiPage {
  products: { id: number; name: string }[];
  pagination: { totalProducts: number; totalPages: number };
}

const cards = (page: Page) => page.getByTestId('product-card').getByRole('heading', { level: 2 });

async function serverNames(page: Page, query: string): Promise<string[]> {
  const response = await page.request.get(`/api/products?${query}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as ApiPage).products.map((p) => p.name);
}

/** Opens the catalogue online and waits until the app and the catalogue are on the device. */
async function openCatalogueOnline(page: Page) {
  await openedBefore(page);
  await page.goto('/products?lng=en');
  await untilControlled(page);
  await expect(page.getByText('Catalogue saved on this device')).toBeVisible();
}

test('the catalogue keeps working from the device with the network cut', async ({
  page,
  context,
}) => {
  await openCatalogueOnline(page);
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await expect(page.getByText('44 products')).toBeVisible();
  await expect(cards(page)).toHaveCount(12);

  const categories = (await (await page.request.get('/api/products/categories')).json()) as {
    categories: { id: number; slug: string }[];
  };
  const teaTree = categories.categories.find((c) => c.slug === 'tea-tree');
  const shampoos = categories.categories.find((c) => c.slug === 'shampoos');
  // What the server answers for the queries the rep will run offline.
  const searched = await serverNames(page, 'search=tea%20tree&sortBy=name');
  const teaTreeNewest = await serverNames(page, `categoryId=${teaTree?.id}&sortBy=newest`);
  const secondPage = await serverNames(page, 'page=2&sortBy=price');
  const shampoosSearch = await serverNames(page, `categoryId=${shampoos?.id}&search=1000%20ml`);
  expect(searched.length).toBeGreaterThan(0);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await expect(
    page.getByText(/You are offline: showing the catalogue saved on this device/),
  ).toBeVisible();
  await expect(page.getByText('44 products')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search products' }).fill('tea tree');
  await expect(cards(page)).toHaveText(searched);
  await expect(page).toHaveURL(/search=tea\+tree/);

  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByLabel('Category').selectOption({ label: 'Tea Tree Line' });
  await page.getByLabel('Sort by').selectOption({ label: 'Newest' });
  await expect(cards(page)).toHaveText(teaTreeNewest);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByLabel('Sort by').selectOption({ label: 'Price' });
  await page
    .getByRole('navigation', { name: 'Pagination' })
    .getByRole('link', { name: 'Page 2' })
    .click();
  await expect(page).toHaveURL(/page=2/);
  await expect(cards(page)).toHaveText(secondPage);

  // A link or a reload keeps the query, offline too.
  await page.goto(`/products?category=${shampoos?.id}&search=1000+ml`);
  await expect(cards(page)).toHaveText(shampoosSearch);
});

test('a product page opens offline, also when loaded directly', async ({ page, context }) => {
  await openCatalogueOnline(page);
  const [first] = await serverNames(page, 'sortBy=name&limit=1');
  if (first === undefined) throw new Error('The catalogue is empty');
  await context.setOffline(true);

  await cards(page).getByRole('link', { name: first }).click();
  await expect(page.getByRole('heading', { name: first, level: 1 })).toBeVisible();
  await expect(page.getByText('Prices are available only for verified companies')).toBeVisible();
  // A visitor is told to sign in rather than finding a dead button.
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('Please login to add products to cart')).toBeVisible();
  const url = page.url();

  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(page.getByRole('heading', { name: first, level: 1 })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Products' }),
  ).toBeVisible();
});

test('an approved salon offline with only a visitor’s copy is told its prices are not there', async ({
  page,
  context,
}) => {
  await openCatalogueOnline(page);
  const listed = await page.request.get('/api/products?sortBy=name&limit=1');
  const [first] = ((await listed.json()) as ApiPage).products;
  if (!first) throw new Error('The catalogue is empty');
  // The salon's own, priced copy never arrives: the connection drops first.
  await page.route('**/api/products/mirror*', (route) => route.abort());
  const { email } = await approvedSalon(page.request, 'unpriced');
  await signInAs(page, email);
  await context.setOffline(true);

  await page.goto(`/products/${first.id}?lng=en`);
  await expect(page.getByRole('heading', { name: first.name, level: 1 })).toBeVisible();
  await expect(
    page.getByText('No price on this device yet: connect once to download your prices.'),
  ).toBeVisible();
  await expect(page.getByText('Prices are available only for verified companies')).toHaveCount(0);
  await expect(page.getByText('Your company must be verified')).toHaveCount(0);

  // The catalogue's pages do not pass the visitor's copy off as the salon's.
  await page.goto('/products?lng=en');
  await expect(
    page.getByText('You are offline and the catalogue has not been saved on this device yet.', {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByTestId('product-card')).toHaveCount(0);

  await page.goto('/sync?lng=en');
  await expect(page.getByTestId('device-storage')).toContainText(
    'your prices are not on this device yet',
  );
  await expect(page.getByTestId('device-storage')).not.toContainText('prices as of');
});

test('a product that does not exist shows a way back', async ({ page }) => {
  await page.goto('/products/999999?lng=en');
  await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to products' }).click();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
});

test('an unknown address shows the not-found page with its links', async ({ page }) => {
  await page.goto('/no/such/page?lng=en');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const main = page.getByRole('main');
  for (const name of ['Home', 'Products', 'Log in', 'Register']) {
    await expect(main.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(main.getByRole('button', { name: 'Go back' })).toBeVisible();
});

test('signed in, the not-found page offers the user’s own pages, not signing in', async ({
  page,
  request,
}) => {
  await signInAs(page, (await approvedSalon(request, 'lost')).email);
  await page.goto('/no/such/page?lng=en');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  await expect(main.getByRole('link', { name: 'Register' })).toHaveCount(0);
  await main.getByRole('link', { name: 'Orders', exact: true }).click();
  await expect(page).toHaveURL(/\/orders$/);
});

test('the chosen language is kept after a reload, and <html lang> follows it', async ({ page }) => {
  await page.goto('/products?lng=en');
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await page
    .getByRole('group', { name: 'Language' })
    .getByRole('button', { name: 'Italiano' })
    .click();
  await expect(page.getByRole('heading', { name: 'Prodotti', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');

  await page.goto('/products');
  await expect(page.getByRole('heading', { name: 'Prodotti', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await expect(page).toHaveTitle(/Prodotti/);
});

test('Romanian is the default language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto('/products');
  await expect(page.getByRole('heading', { name: 'Produse', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ro');
  await context.close();
});

test('the grid and list views and the search are kept in the address', async ({ page }) => {
  await page.goto('/products?lng=en&view=list&search=mask');
  await expect(page.getByRole('button', { name: 'List view' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const names = await serverNames(page, 'search=mask');
  await expect(cards(page)).toHaveText(names);
  await page.getByRole('button', { name: 'Grid view' }).click();
  await expect(page).not.toHaveURL(/view=list/);
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue('mask');
});

test('a search that finds nothing says so', async ({ page }) => {
  await page.goto('/products?lng=en&search=nothing-like-this');
  await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
});

test('the footer subscribes to the newsletter and links to new arrivals', async ({ page }) => {
  await page.goto('/?lng=en');
  const footer = page.getByRole('contentinfo');
  await footer.getByLabel('E-mail address').fill('not an address');
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(footer.getByRole('alert')).toHaveText('Email address is not valid');
  await footer.getByLabel('E-mail address').fill('salon@example.com');
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(footer.getByRole('status')).toHaveText(/You are subscribed/);

  await footer.getByRole('link', { name: 'New arrivals' }).click();
  await expect(page).toHaveURL(/sort=newest/);
  await expect(page.getByLabel('Sort by')).toHaveValue('newest');
});

test('every page sets its title, description, keywords and organisation data', async ({ page }) => {
  for (const path of ['/?lng=en', '/products', '/products/1']) {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    await expect(page).toHaveTitle(/Floravia Professional/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\w+/);
    await expect(page.locator('meta[name="keywords"]')).toHaveAttribute('content', /\w+/);
    const data = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(data.map((text) => (JSON.parse(text) as { '@type': string })['@type'])).toContain(
      'Organization',
    );
  }
});

test('support and legal pages open offline once the app has been loaded', async ({
  page,
  context,
}) => {
  await openCatalogueOnline(page);
  await context.setOffline(true);
  const pages: [string, string][] = [
    ['/support/faq', 'Frequently asked questions'],
    ['/support/shipping', 'Shipping'],
    ['/support/returns', 'Returns'],
    ['/support/warranty', 'Warranty'],
    ['/terms', 'Terms and conditions'],
    ['/privacy', 'Privacy policy'],
    ['/', 'Professional hair care, naturally'],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
});

test('a captive portal answering HTML counts as offline, and the device copy is used', async ({
  page,
}) => {
  await openCatalogueOnline(page);
  // A hotel or fair Wi-Fi answers every request with its login page.
  await page.route('**/api/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<html><body>Welcome to the fair Wi-Fi</body></html>',
    }),
  );
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await expect(
    page.getByText(/You are offline: showing the catalogue saved on this device/),
  ).toBeVisible();
  await expect(page.getByText('44 products')).toBeVisible();
  await page.unroute('**/api/**');
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByTestId('offline-banner')).toBeHidden();
});

test('a catalogue saved in the earlier layout (one record per product) is kept through the update, offline', async ({
  page,
  context,
}) => {
  await openCatalogueOnline(page);
  // On a page of the portal that does not run the app, put the device back as the earlier
  // version left it: the same catalogue, one record per product, one of them renamed so
  // that only the device's copy can show that name.
  await page.goto('/api/health');
  await page.evaluate(async (name) => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error!);
      });
    const done = (tx: IDBTransaction) =>
      new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error('the transaction failed'));
      });
    const current = await request(indexedDB.open(name));
    const read = current.transaction(['productBlocks', 'categories', 'mirrorState']);
    const blocks = await request(read.objectStore('productBlocks').getAll());
    const categories = await request(read.objectStore('categories').getAll());
    const states = await request(read.objectStore('mirrorState').getAll());
    current.close();
    await request(indexedDB.deleteDatabase(name));

    const opening = indexedDB.open(name, 30);
    opening.onupgradeneeded = () => {
      const old = opening.result;
      const products = old.createObjectStore('products', { keyPath: 'id' });
      products.createIndex('categoryId', 'categoryId');
      products.createIndex('updatedAt', 'updatedAt');
      old.createObjectStore('categories', { keyPath: 'id' });
      old.createObjectStore('mirrorState', { keyPath: 'key' });
      old.createObjectStore('session', { keyPath: 'key' });
      const outbox = old.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      outbox.createIndex('userId', 'userId');
      outbox.createIndex('state', 'state');
      old.createObjectStore('carts', { keyPath: 'userId' });
      const orders = old.createObjectStore('orders', { keyPath: 'ref' });
      orders.createIndex('userId', 'userId');
      orders.createIndex('[userId+createdAt]', ['userId', 'createdAt']);
    };
    const old = await request(opening);
    const write = old.transaction(['products', 'categories', 'mirrorState'], 'readwrite');
    const products = blocks.flatMap((block: { json: string }) =>
      (JSON.parse(block.json) as { id: number; name: string }[]).map((p) =>
        p.id === 1 ? { ...p, name: 'Kept from the earlier version' } : p,
      ),
    );
    for (const product of products) write.objectStore('products').put(product);
    for (const category of categories) write.objectStore('categories').put(category);
    for (const state of states) write.objectStore('mirrorState').put(state);
    await done(write);
    old.close();
  }, DB_NAME);

  await context.setOffline(true);
  await page.goto('/products?lng=en');
  await expect(
    page.getByText(/You are offline: showing the catalogue saved on this device/),
  ).toBeVisible();
  await expect(page.getByText('44 products')).toBeVisible();
  await page.goto('/products/1?lng=en');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Kept from the earlier version' }),
  ).toBeVisible();
});
