/**
 * A salon orders again in seconds (docs/product.md#orders, docs/product.md#quick-order): a
 * past order put back into the cart offline and sent once back online; five SKUs pasted on
 * the quick order page; the pro-forma of one of its orders, made on the device offline.
 */
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { readPdf } from '../unit/pdf-text';
import {
  apiToken,
  approvedSalon,
  cachedPaths,
  catalogueReady,
  fillShipping,
  orderThroughApi,
  serverOrders,
  signInAs,
} from './helpers';
import { expect, test } from './portal';

interface ApiProduct {
  id: number;
  sku: string;
  name: string;
  stock: number;
}

/** Products of the catalogue with at least `stock` units, as the salon reads them. */
async function productsInStock(
  request: APIRequestContext,
  token: string,
  count: number,
  stock = 5,
): Promise<ApiProduct[]> {
  const response = await request.get('/api/products', {
    headers: { authorization: `Bearer ${token}` },
    params: { limit: 50 },
  });
  const { products } = (await response.json()) as { products: ApiProduct[] };
  const found = products.filter((product) => product.stock >= stock).slice(0, count);
  expect(found, `${count} products with ${stock} in stock`).toHaveLength(count);
  return found;
}

const linesOf = (order: { orderItems: { productId: number; quantity: number }[] }) =>
  order.orderItems
    .map(({ productId, quantity }) => ({ productId, quantity }))
    .sort((a, b) => a.productId - b.productId);

test('a past order is ordered again offline and reaches the server once, with its lines', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'again');
  const token = await apiToken(request, salon.email);
  const [first, second] = await productsInStock(request, token, 2);
  const lines = [
    { productId: first!.id, quantity: 2 },
    { productId: second!.id, quantity: 1 },
  ];
  const past = await orderThroughApi(request, token, lines);

  await signInAs(page, salon.email);
  await catalogueReady(page);
  await page.goto('/orders?lng=en');
  const card = page.getByTestId('order-card').filter({ hasText: past.orderNumber });
  await expect(card).toBeVisible();

  await context.setOffline(true);
  await card.getByRole('button', { name: 'Order again' }).click();
  const dialog = page.getByRole('dialog', { name: 'Added to your cart' });
  await expect(dialog.getByTestId('reorder-summary')).toHaveText(
    `2 lines of order ${past.orderNumber} are in your cart now, at today’s prices.`,
  );
  await expect(dialog.getByTestId('reorder-missed')).toHaveCount(0);
  await dialog.getByRole('link', { name: 'Go to the cart' }).click();

  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-line')).toHaveCount(2);
  await expect(page.getByTestId('cart-waiting')).toContainText('2 changes');
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  await fillShipping(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/orders$/);
  await expect(page.getByTestId('order-card').first()).toContainText('Waiting to sync');
  expect(await serverOrders(request, salon.email)).toHaveLength(1);

  await context.setOffline(false);
  await expect
    .poll(async () => (await serverOrders(request, salon.email)).length, { timeout: 20_000 })
    .toBe(2);
  await expect(page.getByTestId('order-card').first()).toContainText(/Order FP-\d{4}-\d{6}/, {
    timeout: 15_000,
  });
  const orders = await serverOrders(request, salon.email);
  expect(orders).toHaveLength(2);
  const again = orders.find((order) => order.id !== past.id);
  expect(again && linesOf(again)).toEqual(linesOf({ orderItems: lines }));
});

test('a salon pastes five SKUs on the quick order page and finds them in its cart', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'quick');
  const token = await apiToken(request, salon.email);
  const products = await productsInStock(request, token, 5, 3);
  await signInAs(page, salon.email);
  await catalogueReady(page);
  await page.goto('/cart?lng=en');
  await page.getByRole('link', { name: 'Quick order by SKU' }).click();
  await expect(page.getByRole('heading', { name: 'Quick order', level: 1 })).toBeVisible();

  const [a, b, c, d, e] = products.map((product) => product.sku);
  await page
    .getByLabel('Lines to paste')
    .fill(`SKU\tQty\n${a}\t2\n${b};1\n${c},3\n${d} 1\nNO-SUCH-SKU 4\n${e}   2\n`);
  await page.getByRole('button', { name: 'Add these lines' }).click();
  await expect(page.getByText('6 lines read: check them below')).toBeVisible();
  await expect(page.getByTestId('quick-order-row')).toHaveCount(6);

  // A wrong line: nothing is added, and the line says why, at its field.
  const wrong = page.getByRole('combobox', { name: 'SKU or name (row 5)' });
  await expect(wrong).toHaveValue('NO-SUCH-SKU');
  await expect(wrong).toHaveAttribute('aria-invalid', 'true');
  await expect(wrong).toHaveAccessibleDescription('No product has the SKU “NO-SUCH-SKU”.');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('alert')).toContainText(
    '1 line needs fixing before anything is added to the cart.',
  );
  await expect(wrong).toBeFocused();
  expect(await page.getByTestId('cart-badge').count()).toBe(0);
  // The rows and their errors as assistive technology reads them.
  const audit = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);

  await page.getByRole('button', { name: 'Remove row 5' }).click();
  await expect(page.getByTestId('quick-order-row')).toHaveCount(5);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('5 lines added to the cart.')).toBeVisible();
  await expect(page.getByTestId('cart-badge')).toHaveText('9');

  await page.getByRole('link', { name: 'Go to the cart' }).last().click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-line')).toHaveCount(5);
  for (const product of products) {
    await expect(page.getByTestId('cart-line').filter({ hasText: product.sku })).toHaveCount(1);
  }
  // The server's cart holds them once the outbox is sent.
  const serverCart = async () => {
    const response = await request.get('/api/cart', {
      headers: { authorization: `Bearer ${token}` },
    });
    const cart = (await response.json()) as { items: { quantity: number }[] };
    return cart.items.map((item) => item.quantity).reduce((sum, n) => sum + n, 0);
  };
  await expect.poll(serverCart, { timeout: 15_000 }).toBe(9);
});

test('the pro-forma of a salon’s order is made on the device, offline too, as a PDF', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'proforma');
  const token = await apiToken(request, salon.email);
  const [product] = await productsInStock(request, token, 1);
  const order = await orderThroughApi(request, token, [{ productId: product!.id, quantity: 3 }]);
  await signInAs(page, salon.email);
  await catalogueReady(page);
  // The salon's device keeps the pro-forma's files with its screens.
  await expect
    .poll(async () =>
      (await cachedPaths(page))
        .filter((path) => /^\/assets\/(pdf-lib|fontkit|NotoSans-(Regular|Bold))/.test(path))
        .map((path) => path.replace(/^\/assets\//, '').replace(/(\.es)?-[\w-]{8}\.\w+$/, ''))
        .sort(),
    )
    .toEqual(['NotoSans-Bold', 'NotoSans-Regular', 'fontkit', 'pdf-lib']);
  await page.goto('/orders?lng=en');
  await expect(page.getByTestId('order-card').filter({ hasText: order.orderNumber })).toBeVisible();

  await context.setOffline(true);
  await page
    .getByTestId('order-card')
    .filter({ hasText: order.orderNumber })
    .getByRole('button', { name: 'View Details' })
    .click();
  const dialog = page.getByRole('dialog', { name: `Order ${order.orderNumber}` });
  await expect(dialog.getByLabel('Language of the pro-forma')).toHaveValue('en');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Pro-forma (PDF)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`proforma-${order.orderNumber}.pdf`);
  const bytes = Buffer.concat(await (await file.createReadStream()).toArray());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const text = (await readPdf(new Uint8Array(bytes))).pages.flat().join(' ');
  expect(text).toContain('Pro-forma invoice');
  expect(text).toContain(order.orderNumber);
  expect(text).toContain('Salon proforma');
  expect(text).toContain(product!.sku);
  await expect(dialog.getByRole('status').filter({ hasText: 'is ready' })).toHaveText(
    `The pro-forma proforma-${order.orderNumber}.pdf is ready.`,
  );
  await context.setOffline(false);
});
