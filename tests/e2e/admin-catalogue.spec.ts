/**
 * The back office's catalogue in a real browser: staff change a product's price and add
 * its pictures; an approved salon sees the change in the catalogue after a refresh.
 */
import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expect, test } from './portal';
import sharp from 'sharp';
import { approvedSalon, signInAs, staffHeaders } from './helpers';
import { STAFF } from './staff';

async function signInAsStaff(page: Page) {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(STAFF.email);
  await page.getByLabel('Password', { exact: true }).fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Staff' })).toBeVisible();
}

/** The products these tests made, removed after each (the worker's other tests count the demo's). */
const made: number[] = [];

test.afterEach(async ({ request }) => {
  const headers = await staffHeaders(request);
  for (const id of made.splice(0)) {
    const removed = await request.delete(`/api/admin/products/${id}`, { headers });
    expect(removed.ok(), `product ${id} removed`).toBe(true);
  }
});

/** A product of this test alone, made through the API. */
async function newProduct(request: APIRequestContext, name: string, price: number) {
  const sku = `E2E-${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`;
  const blank = { name: '', shortDescription: '', description: '' };
  const response = await request.post('/api/admin/products', {
    headers: await staffHeaders(request),
    data: {
      sku,
      price,
      stock: 30,
      categoryId: 1,
      tags: [],
      texts: {
        ro: { name, shortDescription: 'Pentru test', description: '' },
        en: { ...blank, name: `${name} EN` },
        it: blank,
      },
    },
  });
  expect(response.status()).toBe(201);
  const { product } = (await response.json()) as { product: { id: number } };
  made.push(product.id);
  return { id: product.id, sku, name };
}

async function otherBrowser(browser: Browser) {
  const context = await browser.newContext();
  return { page: await context.newPage(), close: () => context.close() };
}

/** The catalogue's card of the product, found by its SKU, as a salon sees it in English. */
const cardOf = (page: Page, sku: string) =>
  page.getByTestId('product-card').filter({ hasText: sku });

test('staff change a price in the back office; after a refresh an approved salon sees the new price', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const product = await newProduct(request, `Ser catifea ${Date.now()}`, 10);
  const { email } = await approvedSalon(request, 'pret');
  const salon = await otherBrowser(browser);
  await signInAs(salon.page, email);
  await salon.page.goto(`/products?lng=en&search=${product.sku}`);
  await expect(cardOf(salon.page, product.sku).getByText('€10.00')).toBeVisible();
  // Shown in the salon's language: the English name staff gave.
  await expect(cardOf(salon.page, product.sku).getByText(`${product.name} EN`)).toBeVisible();

  await signInAsStaff(page);
  await page.goto('/admin?lng=en');
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Products' })
    .click();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await page.getByLabel('Search products').fill(product.sku);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`search=${product.sku}`));
  await page.getByRole('link', { name: `${product.name} EN`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(product.name);
  const price = page.getByLabel('Price (EUR, before VAT)');
  await expect(price).toHaveValue('10.00');
  await price.fill('12,75');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Product saved.')).toBeVisible();
  // The audit log lists the change, naming the product, with the price before and after.
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Audit log' })
    .click();
  const entry = page
    .getByRole('table', { name: 'Audit log' })
    .getByRole('row')
    .filter({ hasText: 'Product changed' })
    .filter({ hasText: product.sku });
  // In words and in euro, as the product's form says them.
  await expect(entry.getByRole('listitem')).toHaveText([/^Price: €10\.00\s*becomes → €12\.75$/]);

  await salon.page.reload();
  await expect(cardOf(salon.page, product.sku).getByText('€12.75')).toBeVisible();
  await salon.close();
});

test('moving a category keeps focus on the moved row, on a button that still works', async ({
  page,
}) => {
  await signInAsStaff(page);
  await page.goto('/admin/categories?lng=en');
  const rows = page
    .getByRole('table', { name: 'Categories, in the catalogue’s order' })
    .getByRole('row');
  const first = (await rows.nth(1).getByRole('rowheader').textContent()) ?? '';
  const moved = page.getByRole('group', { name: first, exact: true });

  await moved.getByRole('button', { name: 'Move down' }).click();
  await expect(rows.nth(2).getByRole('rowheader')).toHaveText(first);
  await expect(moved.getByRole('button', { name: 'Move down' })).toBeFocused();
  // Back to the top, where it cannot go up any further: focus on "Move down".
  await page.keyboard.press('Shift+Tab');
  await expect(moved.getByRole('button', { name: 'Move up' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText(first);
  await expect(moved.getByRole('button', { name: 'Move up' })).toBeDisabled();
  await expect(moved.getByRole('button', { name: 'Move down' })).toBeFocused();
});

test('staff add pictures to a product; a file that is no picture is refused in their language', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const product = await newProduct(request, `Masca argila ${Date.now()}`, 21);
  await signInAsStaff(page);
  await page.goto(`/admin/products/${product.id}?lng=en`);
  const pictures = page.getByRole('region', { name: 'Pictures' });
  await expect(pictures.getByText('No pictures yet.')).toBeVisible();

  // A program renamed as a photo: its declared type passes, its content does not.
  await pictures.getByLabel('Add a picture').setInputFiles({
    name: 'photo.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4096, 7)]),
  });
  await expect(pictures.getByText('This file is not a JPG, PNG or WebP picture.')).toBeVisible();

  const png = await sharp({
    create: { width: 640, height: 480, channels: 3, background: '#b5651d' },
  })
    .png()
    .toBuffer();
  await pictures
    .getByLabel('Add a picture')
    .setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('Picture added.')).toBeVisible();
  const first = pictures.getByRole('img', { name: 'Picture 1' });
  await expect(first).toBeVisible();
  await expect(first).toHaveAttribute(
    'srcset',
    /-160\.webp 160w, .*-400\.webp 400w, .*-800\.webp 800w/,
  );
  // A picture loaded: the server made it, and serves it as WebP.
  await expect
    .poll(() =>
      first.evaluate(
        (img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc,
      ),
    )
    .toMatch(/\.webp$/);

  const jpeg = await sharp({ create: { width: 300, height: 900, channels: 3, background: '#ddd' } })
    .jpeg()
    .toBuffer();
  await pictures
    .getByLabel('Add a picture')
    .setInputFiles({ name: 'side.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(pictures.getByRole('img', { name: 'Picture 2' })).toBeVisible();
  const firstSrc = await first.getAttribute('src');
  await pictures
    .getByRole('group', { name: 'Picture 2' })
    .getByRole('button', { name: 'Move up' })
    .click();
  await expect(page.getByText('Pictures reordered.')).toBeVisible();
  await expect(pictures.getByRole('img', { name: 'Picture 2' })).toHaveAttribute(
    'src',
    firstSrc ?? '',
  );
  // First now, it can only go down: focus is on that button, not lost to the page.
  await expect(
    pictures.getByRole('group', { name: 'Picture 1' }).getByRole('button', { name: 'Move down' }),
  ).toBeFocused();
  // Removing asks first: nothing brings a picture back.
  const removeSecond = pictures
    .getByRole('group', { name: 'Picture 2' })
    .getByRole('button', { name: 'Remove' });
  const asked = page.getByRole('dialog', { name: 'Remove picture 2?' });
  await removeSecond.click();
  await asked.getByRole('button', { name: 'Cancel' }).click();
  await expect(pictures.getByRole('img')).toHaveCount(2);
  await removeSecond.click();
  await asked.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Picture removed.')).toBeVisible();
  await expect(pictures.getByRole('img')).toHaveCount(1);

  // The catalogue shows the product's first picture in the sizes it asks for.
  await page.goto(`/products?lng=en&search=${product.sku}`);
  const card = cardOf(page, product.sku);
  await expect(card.locator('img')).toHaveAttribute('srcset', /-400\.webp 400w/);
});

test('two staff editing different texts of one product keep both, save after save', async ({
  page,
  request,
}) => {
  const product = await newProduct(request, `Ser mătase ${Date.now()}`, 10);
  await signInAsStaff(page);
  await page.goto(`/admin/products/${product.id}?lng=en`);
  const description = page.getByLabel('Description (Italian)', { exact: true });
  await expect(description).toBeVisible();

  // Another clerk saves the English name while this form is open.
  const other = await request.patch(`/api/admin/products/${product.id}`, {
    headers: await staffHeaders(request),
    data: { texts: { en: { name: 'Silk serum' } } },
  });
  expect(other.status()).toBe(200);

  await description.fill('Per capelli fini.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Product saved.')).toBeVisible();
  // A second save from the same form, of another field.
  await page.getByLabel('Price (EUR, before VAT)').fill('11.50');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Product saved.')).toHaveCount(2);

  const saved = await request.get(`/api/admin/products/${product.id}`, {
    headers: await staffHeaders(request),
  });
  const { product: kept } = (await saved.json()) as {
    product: { price: number; texts: Record<string, { name: string; description: string }> };
  };
  expect(kept.price).toBe(11.5);
  expect(kept.texts.it?.description).toBe('Per capelli fini.');
  expect(kept.texts.en?.name).toBe('Silk serum');
});
