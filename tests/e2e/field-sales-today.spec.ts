/**
 * A sales rep's day (docs/product.md#field-sales) in a real browser: the orders taken today
 * for two customers, one sent at once and one taken offline, per customer with their totals
 * and the day's, what still waits to be sent, a pro-forma of the waiting order, and both
 * sent once the connection returns.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './portal';
import { apiToken, cachedPaths, catalogueReady } from './helpers';
import { fillDeliveryAddress, repWithCustomers, signInAsRep } from './reps';

/**
 * Takes an order for `customer` from its cart: `code` typed in quick entry, `quantity` units
 * of it, the address completed, no signature (it is optional).
 */
async function takeOrder(page: Page, customer: string, code: string, quantity: number) {
  await page.goto('/rep?lng=en');
  await page.getByRole('button', { name: `Order for ${customer}` }).click();
  await expect(page).toHaveURL(/\/products$/);
  await page.goto('/rep/cart?lng=en');
  await expect(page.getByRole('heading', { level: 1, name: `Cart of ${customer}` })).toBeVisible();
  const quickEntry = page.getByRole('region', { name: 'Quick entry' });
  await quickEntry.getByRole('combobox', { name: 'SKU, name or barcode' }).fill(code);
  await quickEntry.getByLabel('Quantity', { exact: true }).fill(String(quantity));
  await quickEntry.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByTestId('rep-cart-line')).toHaveCount(1);
  const checkout = page.getByRole('form', { name: 'Place the order' });
  await fillDeliveryAddress(checkout);
  await checkout.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/rep\/orders$/);
}

test('a rep’s day lists the orders taken for each customer with the totals, what waits, and the pro-formas', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const rep = await repWithCustomers(request, ['Salon Aurora Azi', 'Studio Brâncuși Azi']);
  const [aurora, studio] = rep.customers;
  if (!aurora || !studio) throw new Error('The rep has two customers');
  await signInAsRep(page, rep);
  await catalogueReady(page);
  // The day's screen is kept on the device, for offline use, with the rep's other screens.
  await expect
    .poll(() => cachedPaths(page), { timeout: 15_000 })
    .toEqual(expect.arrayContaining([expect.stringMatching(/^\/assets\/today-page-.*\.js$/)]));

  // Online, the first customer's order reaches the server at once.
  await takeOrder(page, aurora.name, 'SH-HYD-1000', 2);
  const headers = { authorization: `Bearer ${await apiToken(request, rep.email, rep.password)}` };
  const since = new Date(Date.now() - 60 * 60 * 1000).toISOString();
  const onServer = async () => {
    const response = await request.get('/api/rep/orders', { headers, params: { since } });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { orders: { customer: { name: string } }[] }).orders;
  };
  await expect
    .poll(async () => (await onServer()).map((order) => order.customer.name), { timeout: 20_000 })
    .toEqual([aurora.name]);

  // Offline, the second customer's order waits on the device.
  await context.setOffline(true);
  await takeOrder(page, studio.name, 'CO-VOL-1000', 1);
  // The bar leads to the day, between the customer's orders and the sync centre.
  const bar = page.getByRole('region', { name: 'Customer' });
  await expect(bar.getByRole('navigation').getByRole('link')).toHaveText([
    /^Cart/,
    'Orders',
    'Today',
    /^Sync/,
  ]);
  await bar.getByRole('link', { name: 'Today', exact: true }).click();
  await expect(page).toHaveURL(/\/rep\/today$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Today');
  await expect(
    page.getByText(/^You are offline: these are the orders on this device\./),
  ).toBeVisible();

  // Per customer, the one ordered for last first: 2 × 18.90 and 1 × 20.50.
  const customers = page.getByTestId('rep-today-customer');
  await expect(customers).toHaveCount(2);
  await expect(customers.nth(0).getByRole('heading', { level: 2 })).toHaveText(studio.name);
  await expect(customers.nth(0)).toContainText('1 order, €20.50');
  await expect(customers.nth(1).getByRole('heading', { level: 2 })).toHaveText(aurora.name);
  await expect(customers.nth(1)).toContainText('1 order, €37.80');
  const total = page.getByTestId('rep-today-total');
  await expect(total).toContainText('Orders2');
  await expect(total).toContainText('Total€58.30');
  await expect(page.getByTestId('rep-today-waiting')).toHaveText(
    '1 change is waiting to be sent. It goes when there is a connection.',
  );
  await expect(page.getByRole('link', { name: 'Open the sync centre' })).toHaveAttribute(
    'href',
    '/rep/sync',
  );

  const waitingOrder = customers.nth(0).getByTestId('rep-today-order');
  await expect(waitingOrder.getByRole('heading', { level: 3 })).toHaveText(
    /^Order L-[0-9A-F]{8} \(not sent yet\)$/,
  );
  await expect(waitingOrder).toContainText('Waiting to be sent');
  const sentOrder = customers.nth(1).getByTestId('rep-today-order');
  await expect(sentOrder.getByRole('heading', { level: 3 })).toHaveText(/^Order [A-Z0-9-]+$/);
  await expect(sentOrder).toContainText('Sent');
  await expect(sentOrder).toContainText('Pending');

  // The waiting order's pro-forma is made on the device, offline: a real PDF.
  const download = page.waitForEvent('download');
  await waitingOrder.getByRole('button', { name: 'Pro-forma (PDF)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^proforma-L-[0-9A-F]{8}\.pdf$/);
  const bytes = await readFile(await file.path());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(waitingOrder.getByRole('status')).toHaveText(
    `The pro-forma ${file.suggestedFilename()} is ready.`,
  );

  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual(
    [],
  );

  // Back online, the waiting order is sent; the server's and the device's orders are listed
  // once each, both sent.
  await context.setOffline(false);
  await expect(page.getByTestId('rep-today-waiting')).toHaveText(
    'Everything taken on this device has been sent.',
    { timeout: 20_000 },
  );
  await expect(page.getByText(/^Up to date with the server/)).toBeVisible({ timeout: 20_000 });
  const orders = page.getByTestId('rep-today-order');
  await expect(orders).toHaveCount(2);
  for (const order of await orders.all()) {
    await expect(order.getByText('Sent', { exact: true })).toBeVisible();
    await expect(order).not.toContainText('Waiting to be sent');
  }
  await expect(total).toContainText('Orders2');
  await expect(total).toContainText('Total€58.30');
  expect((await onServer()).map((order) => order.customer.name)).toEqual([
    studio.name,
    aurora.name,
  ]);
});
