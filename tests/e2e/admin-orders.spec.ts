/**
 * The back office's orders in a real browser: staff find a salon's order from the
 * dashboard, move it along to SHIPPED with a tracking number, and the salon sees both on
 * its orders page; a move made meanwhile by someone else is said and the page put right;
 * the filtered list downloads as CSV.
 */
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './portal';
import {
  approvedSalon,
  placedOrder as placeOrder,
  signInAs,
  staffHeaders,
  untilControlled,
} from './helpers';
import { STAFF } from './staff';

async function signInAsStaff(page: Page) {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(STAFF.email);
  await page.getByLabel('Password', { exact: true }).fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Staff' })).toBeVisible();
}

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);
}

/** An order of a newly approved salon, placed through the API. */
async function placedOrder(request: APIRequestContext, prefix: string) {
  const salon = await approvedSalon(request, prefix);
  return { salon, order: await placeOrder(request, salon.email) };
}

test('staff ship a salon’s order with a tracking number, and the salon sees it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { salon, order } = await placedOrder(request, 'ships');

  await signInAsStaff(page);
  await page.goto('/admin?lng=en');
  await page.getByRole('link', { name: /Orders to confirm/ }).click();
  await expect(page).toHaveURL(/\/admin\/orders\?status=PENDING$/);
  await expect(page.getByLabel('Status')).toHaveValue('PENDING');

  await page.getByLabel('Order number').fill(order.orderNumber.toLowerCase());
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('1 order', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: order.orderNumber }).click();

  await expect(page.getByRole('heading', { name: `Order ${order.orderNumber}` })).toBeVisible();
  // Only the steps the order allows.
  const next = page.getByRole('region', { name: 'Next step' });
  await expect(next.getByRole('button', { name: 'Mark as shipped' })).toHaveCount(0);
  await next.getByRole('button', { name: 'Confirm order' }).click();
  await next.getByRole('button', { name: 'Start processing' }).click();
  await expect(next.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await next.getByRole('button', { name: 'Mark as shipped' }).click();

  const dialog = page.getByRole('dialog', { name: `Ship order ${order.orderNumber}` });
  await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(dialog.getByText('Required field')).toBeVisible();
  await dialog.getByLabel('Tracking number').fill('  RO-AWB 778899  ');
  await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(dialog).toBeHidden();
  await expect(next.getByRole('button', { name: 'Mark as delivered' })).toBeVisible();
  await expect(page.getByText('RO-AWB 778899', { exact: true }).first()).toBeVisible();
  const history = page.getByRole('region', { name: 'History' });
  await expect(history.getByText('Status: Processing → Shipped')).toBeVisible();
  await expect(history.getByText('The salon')).toBeVisible();
  await expectAccessible(page);
  // The audit log lists the move, naming the order.
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Audit log' })
    .click();
  await expect(
    page
      .getByRole('table', { name: 'Audit log' })
      .getByRole('row')
      .filter({ hasText: 'Order status changed' })
      .filter({ hasText: order.orderNumber })
      .filter({ hasText: 'SHIPPED' })
      .first(),
  ).toBeVisible();

  const salonContext = await browser.newContext();
  const salonPage = await salonContext.newPage();
  await signInAs(salonPage, salon.email);
  await salonPage.goto('/orders?lng=en');
  const card = salonPage.getByTestId('order-card').filter({ hasText: order.orderNumber });
  await expect(card.getByText('Shipped', { exact: true })).toBeVisible();
  await expect(card.getByText('RO-AWB 778899')).toBeVisible();

  // Offline, as of the last sync: from the device.
  await untilControlled(salonPage);
  await salonContext.setOffline(true);
  await salonPage.reload();
  await expect(salonPage.getByText(/these are the orders saved on this device/)).toBeVisible();
  await expect(card.getByText('Shipped', { exact: true })).toBeVisible();
  await expect(card.getByText('RO-AWB 778899')).toBeVisible();

  // A copy the device kept from before orders had a tracking number still shows.
  await salonPage.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const opened = indexedDB.open('hair-care-portal');
        opened.onerror = () => reject(opened.error!);
        opened.onsuccess = () => {
          const tx = opened.result.transaction('orders', 'readwrite');
          const store = tx.objectStore('orders');
          const cursor = store.openCursor();
          cursor.onsuccess = () => {
            const at = cursor.result;
            if (!at) return;
            const stored = at.value as { order: { trackingNumber?: string } };
            delete stored.order.trackingNumber;
            at.update(stored);
            at.continue();
          };
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error!);
        };
      }),
  );
  await salonPage.reload();
  await expect(card.getByText('Shipped', { exact: true })).toBeVisible();
  await expect(card.getByText('Tracking number')).toHaveCount(0);
  await salonContext.close();
});

test('a move made meanwhile is said, and the order shown as it now is', async ({
  page,
  request,
}) => {
  const { order } = await placedOrder(request, 'meanwhile');
  await signInAsStaff(page);
  await page.goto(`/admin/orders/${order.id}?lng=en`);
  const next = page.getByRole('region', { name: 'Next step' });
  await expect(next.getByRole('button', { name: 'Confirm order' })).toBeVisible();

  // A colleague cancels it first.
  const cancelled = await request.post(`/api/admin/orders/${order.id}/status`, {
    headers: { ...(await staffHeaders(request)), 'idempotency-key': crypto.randomUUID() },
    data: { status: 'CANCELLED', reason: 'Asked by phone' },
  });
  expect(cancelled.ok()).toBe(true);

  await next.getByRole('button', { name: 'Confirm order' }).click();
  await expect(next.getByRole('alert')).toContainText(
    `Order ${order.orderNumber} changed meanwhile and cannot become Confirmed.`,
  );
  await expect(next.getByText('This order is Cancelled')).toBeVisible();
  await expect(next.getByRole('button', { name: 'Confirm order' })).toHaveCount(0);
  await expect(page.getByText('Asked by phone').first()).toBeVisible();
});

test('the filtered list downloads as CSV', async ({ page, request }) => {
  const { order } = await placedOrder(request, 'csv');
  await signInAsStaff(page);
  await page.goto(`/admin/orders?lng=en&search=${encodeURIComponent(order.orderNumber)}`);
  await expect(page.getByText('1 order', { exact: true })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const lines = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(order.orderNumber);
});
