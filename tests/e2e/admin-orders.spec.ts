/**
 * The back office's orders in a real browser: staff find a salon's order from the
 * dashboard, move it along to SHIPPED with a tracking number, and the salon sees both on
 * its orders page; a move made meanwhile by someone else is said and the page put right;
 * the filtered list downloads as CSV; staff find the orders a sales rep placed, and the
 * companies a rep registered at a booth with the orders waiting for their verification.
 */
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './portal';
import {
  apiToken,
  approvedSalon,
  placedOrder as placeOrder,
  signInAs,
  staffHeaders,
  unique,
  untilControlled,
} from './helpers';
import { repWithCustomers, type TestRep } from './reps';
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
async function placedOrder(
  request: APIRequestContext,
  prefix: string,
  options: { notes?: string } = {},
) {
  const salon = await approvedSalon(request, prefix);
  return { salon, order: await placeOrder(request, salon.email, undefined, options) };
}

test('staff ship a salon’s order with a tracking number, and the salon sees it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const notes = 'Livrare marți, după ora 10.\nSunați la intrarea din spate.';
  const { salon, order } = await placedOrder(request, 'ships', { notes });

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
  // The salon's note, in the lines it was typed in.
  expect(await page.getByText('Livrare marți').innerText()).toBe(notes);
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
  // A character the carrier's numbers never hold is named before anything is sent.
  await dialog.getByLabel('Tracking number').fill('AWB#778899');
  await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(dialog.getByLabel('Tracking number')).toHaveAccessibleDescription(
    /Use only letters, digits, spaces and - \. \/ _, starting with a letter or a digit\./,
  );
  await expect(dialog.getByLabel('Tracking number')).toHaveValue('AWB#778899');
  await dialog.getByLabel('Tracking number').fill('  RO-AWB 778899  ');
  await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(dialog).toBeHidden();
  // The button clicked went with its step: focus moves on to the next one, not to the top.
  await expect(next.getByRole('button', { name: 'Mark as delivered' })).toBeFocused();
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
  await card.getByRole('button', { name: 'View Details' }).click();
  const details = salonPage.getByRole('dialog', { name: `Order ${order.orderNumber}` });
  expect(await details.getByText('Livrare marți').innerText()).toBe(notes);
  await details.getByRole('button', { name: 'Close' }).first().click();

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

test('dates the wrong way round are said to match no order, until one is changed', async ({
  page,
}) => {
  await signInAsStaff(page);
  await page.goto('/admin/orders?lng=en&from=2026-05-10&to=2026-05-01');
  const reversed = '“Placed from” is after “Placed until”: no order can be in between.';
  await expect(page.getByRole('alert').filter({ hasText: reversed })).toBeVisible();
  const from = page.getByLabel('Placed from');
  await expect(from).toHaveAccessibleDescription(`Days in Bucharest time. ${reversed}`);
  await from.fill('2026-04-30');
  await expect(page.getByText(reversed)).toHaveCount(0);
  await expect(from).toHaveAccessibleDescription('Days in Bucharest time.');
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

const REP_ADDRESS = {
  firstName: 'Mara',
  lastName: 'Stan',
  street: 'Strada Florilor 12',
  city: 'Cluj-Napoca',
  zipCode: '400001',
  country: 'Romania',
  phone: '+40 721 000 000',
};

/** A salon the rep registers at its booth, through the API: waiting for verification. */
async function boothSalon(request: APIRequestContext, rep: TestRep, name: string) {
  const headers = { authorization: `Bearer ${await apiToken(request, rep.email, rep.password)}` };
  const registered = await request.post('/api/rep/customers', {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: {
      companyName: name,
      taxNumber: `RO${Date.now()}`.slice(0, 14),
      registrationNumber: 'J12/345/2021',
      companyEmail: unique('booth'),
      companyPhone: '+40 264 000 111',
      address: 'Strada Horea 1',
      city: 'Cluj-Napoca',
      postalCode: '400174',
      country: 'Romania',
    },
  });
  expect(registered.status()).toBe(201);
  return ((await registered.json()) as { customer: { id: number } }).customer;
}

/** An order the rep takes for one of its customers, through the API. */
async function repOrder(request: APIRequestContext, rep: TestRep, companyId: number) {
  const headers = { authorization: `Bearer ${await apiToken(request, rep.email, rep.password)}` };
  const list = await request.get('/api/products', { headers, params: { limit: 50 } });
  const { products } = (await list.json()) as { products: { id: number; stock: number }[] };
  const product = products.find((p) => p.stock > 5);
  expect(product, 'a product in stock').toBeTruthy();
  const placed = await request.post(`/api/rep/customers/${companyId}/orders`, {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: { items: [{ productId: product?.id, quantity: 1 }], shippingAddress: REP_ADDRESS },
  });
  expect(placed.status()).toBe(201);
  return ((await placed.json()) as { order: { id: number; orderNumber: string; status: string } })
    .order;
}

test('staff filter the orders by the sales rep who placed them, and verify its booth salon', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const rep = await repWithCustomers(request, ['Salon Rep Filter']);
  const customer = rep.customers[0]!;
  const boothName = `Salon la Stand ${Date.now()}`;
  const booth = await boothSalon(request, rep, boothName);
  const own = await placeOrder(request, customer.email);
  const taken = await repOrder(request, rep, customer.id);
  const awaiting = await repOrder(request, rep, booth.id);
  expect(awaiting.status).toBe('AWAITING_VERIFICATION');

  await signInAsStaff(page);
  await page.goto('/admin/orders?lng=en');
  await page.getByLabel('Sales rep').selectOption({ label: `Victor Rep (${rep.email})` });
  await expect(page).toHaveURL(new RegExp(`[?&]salesRepId=${rep.id}(&|$)`));
  await expect(page.getByText('2 orders', { exact: true })).toBeVisible();
  const rows = page.getByRole('table', { name: /^Orders/ }).getByRole('row');
  await expect(rows.filter({ hasText: own.orderNumber })).toHaveCount(0);
  for (const order of [taken, awaiting]) {
    await expect(rows.filter({ hasText: order.orderNumber })).toContainText('Victor Rep');
  }
  await expectAccessible(page);

  // The salon's own order beside the rep's, for the same company.
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('Sales rep')).toHaveValue('');
  await page.goto(`/admin/orders?lng=en&companyId=${customer.id}`);
  await expect(page.getByText('2 orders', { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: own.orderNumber }).getByRole('cell').nth(1)).toHaveText(
    'Salon',
  );
  await expect(rows.filter({ hasText: taken.orderNumber })).toContainText('Victor Rep');

  // The order taken for the salon registered at the booth waits for its verification.
  await page.goto(`/admin/orders?lng=en&salesRepId=${rep.id}`);
  await page.getByLabel('Status').selectOption('AWAITING_VERIFICATION');
  await expect(page.getByText('1 order', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: awaiting.orderNumber }).click();
  await expect(page.getByRole('heading', { name: `Order ${awaiting.orderNumber}` })).toBeVisible();
  await expect(page.getByText('Victor Rep, sales rep', { exact: false }).first()).toBeVisible();
  const next = page.getByRole('region', { name: 'Next step' });
  await expect(next).toContainText(
    "Waits for the company's verification: approving the company makes it Pending; rejecting it cancels it.",
  );
  await expect(next.getByRole('button')).toHaveText([
    'Cancel order',
    'Mark as paid',
    'Mark payment as failed',
  ]);
  await expectAccessible(page);

  // Staff see who registered it, and what waits for their decision.
  await page.goto(`/admin/companies?lng=en&search=${encodeURIComponent(boothName)}`);
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: boothName })
      .getByText('Registered at the booth by Victor Rep'),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: boothName }).click();
  const status = page.getByRole('region', { name: 'Verification' });
  await expect(status.getByText('Registered at the booth by Victor Rep')).toBeVisible();
  await expect(
    status.getByRole('link', { name: '1 order waits for this decision.' }),
  ).toHaveAttribute('href', `/admin/orders?status=AWAITING_VERIFICATION&companyId=${booth.id}`);
  await expectAccessible(page);
  await status.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(status.getByText('Approved', { exact: true })).toBeVisible();
  await expect(status.getByText(/waits for this decision/)).toHaveCount(0);

  await page.goto(`/admin/orders/${awaiting.id}?lng=en`);
  await expect(next.getByRole('button', { name: 'Confirm order' })).toBeVisible();
});
