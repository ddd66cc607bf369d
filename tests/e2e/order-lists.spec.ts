/**
 * A salon keeps named order lists (docs/product.md#order-lists): made offline from the
 * catalogue and a product's page, sent once back online, then put into the cart whole.
 */
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { apiToken, approvedSalon, cachedPaths, catalogueReady, signInAs } from './helpers';
import { expect, test } from './portal';

interface ApiProduct {
  id: number;
  sku: string;
  stock: number;
}

interface ServerList {
  id: string;
  name: string;
  items: { productId: number; quantity: number }[];
}

/** The products of the catalogue's first page (by name, as it opens) with at least 5 in stock. */
async function firstPageInStock(request: APIRequestContext, token: string, count: number) {
  const response = await request.get('/api/products', {
    headers: { authorization: `Bearer ${token}` },
    params: { limit: 12, sortBy: 'name' },
  });
  const { products } = (await response.json()) as { products: ApiProduct[] };
  const found = products.filter((product) => product.stock >= 5).slice(0, count);
  expect(found, `${count} products with 5 in stock on the first page`).toHaveLength(count);
  return found;
}

async function serverLists(request: APIRequestContext, token: string): Promise<ServerList[]> {
  const response = await request.get('/api/lists', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { lists: ServerList[] }).lists;
}

test('a list made offline from the catalogue reaches the server once, then goes into the cart whole', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'lists');
  const token = await apiToken(request, salon.email);
  const [first, second, third] = await firstPageInStock(request, token, 3);
  await signInAs(page, salon.email);
  await catalogueReady(page);
  // The lists' screen is kept on the device with the other signed-in screens.
  await expect
    .poll(async () => (await cachedPaths(page)).some((path) => /\/lists-page-/.test(path)))
    .toBe(true);
  const card = (sku: string) => page.getByTestId('product-card').filter({ hasText: sku });
  const nameOf = async (sku: string) =>
    ((await card(sku).getByRole('heading').textContent()) ?? '').trim();
  const names = [
    await nameOf(first!.sku),
    await nameOf(second!.sku),
    await nameOf(third!.sku),
  ] as const;

  await context.setOffline(true);
  // A new list, named in the dialog of the first card.
  await card(first!.sku)
    .getByRole('button', { name: `Add to list: ${names[0]}` })
    .click();
  let dialog = page.getByRole('dialog', { name: 'Add to a list' });
  await dialog.getByLabel('Name of the new list').fill('Back-bar');
  await dialog.getByLabel('Quantity').fill('2');
  await dialog.getByRole('button', { name: 'Add to list' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`The list Back-bar now holds 2 × ${names[0]}.`)).toBeVisible();

  // The next card offers the same list.
  await card(second!.sku)
    .getByRole('button', { name: `Add to list: ${names[1]}` })
    .click();
  dialog = page.getByRole('dialog', { name: 'Add to a list' });
  await expect(dialog.getByRole('radio', { name: 'Back-bar (1 product)' })).toBeChecked();
  await dialog.getByLabel('Quantity').fill('3');
  await dialog.getByRole('button', { name: 'Add to list' }).click();
  await expect(page.getByText(`The list Back-bar now holds 3 × ${names[1]}.`)).toBeVisible();

  // And a product's page.
  await card(third!.sku).getByRole('link', { name: names[2], exact: true }).click();
  await expect(page.getByRole('heading', { name: names[2], level: 1 })).toBeVisible();
  await page.getByRole('button', { name: `Add to list: ${names[2]}` }).click();
  dialog = page.getByRole('dialog', { name: 'Add to a list' });
  await expect(dialog.getByRole('radio', { name: 'Back-bar (2 products)' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Add to list' }).click();
  await expect(page.getByText(`The list Back-bar now holds 1 × ${names[2]}.`)).toBeVisible();

  // The lists page, from the navigation: the list as made, waiting to be sent.
  await page.getByRole('button', { name: 'Mara' }).click();
  await page.getByRole('link', { name: 'Order lists', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Order lists', level: 1 })).toBeVisible();
  const list = page.getByRole('region', { name: 'Back-bar' });
  await expect(list.getByTestId('order-list-item')).toHaveCount(3);
  await expect(list.getByText('Waiting to sync')).toBeVisible();
  const thirdQuantity = list.getByRole('spinbutton', {
    name: `Quantity of ${names[2]} in Back-bar`,
  });
  await expect(thirdQuantity).toHaveValue('1');
  await thirdQuantity.fill('2');
  await thirdQuantity.press('Enter');
  expect(await serverLists(request, token)).toEqual([]);
  const audit = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);

  await context.setOffline(false);
  const expected = [
    { productId: first!.id, quantity: 2 },
    { productId: second!.id, quantity: 3 },
    { productId: third!.id, quantity: 2 },
  ];
  await expect
    .poll(async () => (await serverLists(request, token)).map((kept) => kept.items), {
      timeout: 20_000,
    })
    .toEqual([expected]);
  const [kept] = await serverLists(request, token);
  expect(kept).toMatchObject({ name: 'Back-bar', items: expected });
  await expect(list.getByText('Waiting to sync')).toBeHidden({ timeout: 15_000 });

  // The whole list into the cart, at today's prices.
  await list.getByRole('button', { name: 'Add list to cart' }).click();
  dialog = page.getByRole('dialog', { name: 'Added to your cart' });
  await expect(dialog.getByTestId('reorder-summary')).toHaveText(
    '3 products of the list Back-bar are in your cart now, at today’s prices.',
  );
  await expect(dialog.getByTestId('reorder-missed')).toHaveCount(0);
  await dialog.getByRole('link', { name: 'Go to the cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-line')).toHaveCount(3);
  const serverCart = async () => {
    const response = await request.get('/api/cart', {
      headers: { authorization: `Bearer ${token}` },
    });
    const cart = (await response.json()) as {
      items: { productId: number; quantity: number }[];
    };
    return cart.items
      .map(({ productId, quantity }) => ({ productId, quantity }))
      .sort((a, b) => a.productId - b.productId);
  };
  await expect
    .poll(serverCart, { timeout: 15_000 })
    .toEqual([...expected].sort((a, b) => a.productId - b.productId));
  // The list stays as it was, to order again another time.
  expect(await serverLists(request, token)).toHaveLength(1);
});
