import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium } from '@playwright/test';
import { withCheckDigit } from '../../src/contracts/barcodes';
import { DB_NAME } from '../../src/contracts/storage-names';
import { CHROME_ARGS, CHROME_PATH } from './chromium';
import { writeBarcodeVideo } from './fake-camera';
import { expect, test } from './portal';
import { STAFF } from './staff';
import { fillDeliveryAddress, repWithCustomers, signInAsRep, signOnPad } from './reps';
import {
  apiToken,
  approvedSalon,
  cachedPaths,
  catalogueReady,
  openedBefore,
  signInAs,
  staffHeaders,
  untilControlled,
} from './helpers';

test('a sales rep finds its customers offline and orders for one, named on every page', async ({
  page,
  context,
  request,
}) => {
  const rep = await repWithCustomers(request, ['Atelier Ștefan Beauty', 'Studio Lumière']);
  // The tablet kept the catalogue, without prices, before the rep signed in.
  await openedBefore(page);
  await page.goto('/products?lng=en');
  await untilControlled(page);
  await expect(page.getByText('Catalogue saved on this device')).toBeVisible();
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toHaveCount(0);
  await signInAsRep(page, rep);
  // A rep sees the prices it quotes, on the device's copy of the catalogue too.
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
  await expect(page.getByText('Catalogue saved on this device')).toBeVisible();

  // The salon's own links are not a rep's; its customers are.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: /^Cart/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Victor' }).click();
  await page.getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My customers' })).toBeVisible();
  await expect(page.getByText('Up to date with the server.')).toBeVisible();
  await expect(page.getByTestId('rep-customer')).toHaveCount(2);
  await expect(page.getByRole('region', { name: 'Customer' })).toContainText(
    'You are not ordering for a customer yet.',
  );

  // Offline, the list is the device's, and searching it ignores accents and case.
  await context.setOffline(true);
  await page.reload();
  await expect(
    page.getByText(/You are offline: this is the list kept on this device/),
  ).toBeVisible();
  await page.getByLabel('Search customers').fill('stefan');
  await expect(page.getByTestId('rep-customer')).toHaveCount(1);
  await page.getByRole('button', { name: 'Order for Atelier Ștefan Beauty' }).click();

  await expect(page).toHaveURL(/\/products$/);
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
  const bar = page.getByRole('region', { name: 'Customer' });
  await expect(bar).toContainText('Ordering for Atelier Ștefan Beauty');
  await page.goto('/support/faq?lng=en');
  await expect(bar).toContainText('Ordering for Atelier Ștefan Beauty');
  await bar.getByRole('link', { name: 'Switch customer' }).click();
  await expect(page.getByText('You are ordering for this customer.')).toBeVisible();
  await context.setOffline(false);

  // A salon's own pages say where a rep works instead.
  await page.goto('/cart?lng=en');
  await expect(page.getByRole('link', { name: 'Go to my customers' })).toBeVisible();
});

test("a salon that opens field sales is told it is for the maker's sales reps", async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'notrep');
  await signInAs(page, salon.email);
  await page.goto('/rep?lng=en');
  await expect(
    page.getByRole('heading', { name: "Only for the maker's sales reps" }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Customer' })).toHaveCount(0);
});

test('signing out leaves none of the rep’s customers on the device', async ({ page, request }) => {
  const rep = await repWithCustomers(request, ['Salon Privat']);
  await signInAsRep(page, rep);
  await page.goto('/rep?lng=en');
  await expect(page.getByTestId('rep-customer')).toHaveCount(1);
  await page.getByRole('button', { name: 'Victor' }).click();
  // Nothing waits to be sent: no question asked.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Victor' })).toHaveCount(0);
  // The session ends first; the data leaves the device right after.
  const kept = () =>
    page.evaluate(
      (name) =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(open.error!);
          open.onsuccess = () => {
            const store = open.result.transaction('repCustomers').objectStore('repCustomers');
            const count = store.count();
            count.onsuccess = () => {
              resolve(count.result);
              open.result.close();
            };
          };
        }),
      DB_NAME,
    );
  await expect.poll(kept).toBe(0);
});

test('a salon sees the order its rep placed for it, named as the rep’s', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'byrep');
  const token = await apiToken(request, salon.email);
  const me = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  const { user } = (await me.json()) as { user: { companyId: number } };
  const headers = await staffHeaders(request);
  const rep = await repWithCustomers(request, []);
  await request.put(`/api/admin/companies/${user.companyId}/sales-rep`, {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: { salesRepId: rep.id },
  });
  const repToken = await apiToken(request, rep.email, rep.password);
  const products = await request.get('/api/products?limit=20', {
    headers: { authorization: `Bearer ${repToken}` },
  });
  const { products: list } = (await products.json()) as {
    products: { id: number; stock: number }[];
  };
  const product = list.find((p) => p.stock > 2);
  const placed = await request.post(`/api/rep/customers/${user.companyId}/orders`, {
    headers: { authorization: `Bearer ${repToken}`, 'idempotency-key': crypto.randomUUID() },
    data: {
      items: [{ productId: product?.id, quantity: 2 }],
      shippingAddress: {
        firstName: 'Mara',
        lastName: 'Stan',
        street: 'Strada Florilor 12',
        city: 'Cluj-Napoca',
        zipCode: '400001',
        country: 'Romania',
        phone: '+40 721 000 000',
      },
    },
  });
  expect(placed.status()).toBe(201);

  await signInAs(page, salon.email);
  await page.goto('/orders?lng=en');
  await expect(page.getByText(/^Victor Rep, your sales rep, on /)).toBeVisible();
});

/** The demo product's barcode: its place in the demo range after the maker's prefix. */
const demoEan = (place: number) => withCheckDigit(`5941234${String(place).padStart(5, '0')}`);

test('a rep fills a customer’s cart offline by quick entry, and the signed order reaches the server once', async ({
  page,
  context,
  request,
}) => {
  // A long flow (quick entry, offline, signing, replay): about 35 s alone, a minute in full runs.
  test.setTimeout(120_000);
  const rep = await repWithCustomers(request, ['Salon Aurora', 'Studio Brâncuși']);
  await signInAsRep(page, rep);
  await catalogueReady(page);
  await page.goto('/rep?lng=en');
  await page.getByRole('button', { name: 'Order for Salon Aurora' }).click();
  await expect(page).toHaveURL(/\/products$/);
  // The cart, the scanner and its barcode reader are kept on the device for offline use.
  await expect
    .poll(() => cachedPaths(page), { timeout: 15_000 })
    .toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/assets\/cart-page-.*\.js$/),
        expect.stringMatching(/^\/assets\/barcode-scanner-.*\.js$/),
        expect.stringMatching(/^\/assets\/zxing_reader-.*\.wasm$/),
      ]),
    );

  await context.setOffline(true);
  await page.goto('/rep/cart?lng=en');
  await expect(page.getByRole('heading', { level: 1, name: 'Cart of Salon Aurora' })).toBeVisible();
  await expect(
    page.getByText('The cart of Salon Aurora is empty.', { exact: false }),
  ).toBeVisible();

  const quickEntry = page.getByRole('region', { name: 'Quick entry' });
  const code = quickEntry.getByRole('combobox', { name: 'SKU, name or barcode' });
  const said = quickEntry.getByRole('status');
  // An exact SKU is added at once on Enter.
  await code.fill('sh-hyd-1000');
  await code.press('Enter');
  await expect(said).toHaveText('Added 1 × Hydra Balance Shampoo 1000 ml.');
  await expect(code).toHaveValue('');
  // A product picked from the suggestions, with a quantity.
  await code.fill('volume lift cond');
  const suggestion = quickEntry.getByRole('option', { name: /Volume Lift Conditioner 1000 ml/ });
  await expect(suggestion).toBeVisible();
  // The page with a line, the checkout and the open suggestions passes the accessibility checks.
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await suggestion.click();
  await expect(code).toHaveValue('CO-VOL-1000');
  await quickEntry.getByLabel('Quantity', { exact: true }).fill('2');
  await quickEntry.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(said).toHaveText('Added 2 × Volume Lift Conditioner 1000 ml.');
  // A barcode as printed under it, in groups; then taken out again.
  const ean = demoEan(3);
  await code.fill(`${ean.slice(0, 1)} ${ean.slice(1, 7)} ${ean.slice(7)}`);
  await code.press('Enter');
  await expect(said).toHaveText('Added 1 × Volume Lift Shampoo 1000 ml.');
  // What cannot be added is said in words.
  await code.fill('SH-COL-250');
  await code.press('Enter');
  await expect(said).toHaveText('Color Shield Shampoo 250 ml is out of stock.');
  await code.fill('NOPE-1');
  await code.press('Enter');
  await expect(said).toContainText('No product with the code “NOPE-1” is on this device');
  // Without a camera, scanning says so; quick entry still works.
  await quickEntry.getByRole('button', { name: 'Scan a barcode' }).click();
  const scanner = page.getByRole('dialog', { name: 'Scan a barcode' });
  await expect(scanner.getByRole('alert')).toHaveText(
    /^(No camera was found on this device|The camera may not be used)/,
  );
  await scanner.getByRole('button', { name: 'Close' }).click();
  await expect(scanner).toBeHidden();

  const lines = page.getByTestId('rep-cart-line');
  await expect(lines).toHaveCount(3);
  await page
    .getByRole('button', { name: 'Remove Volume Lift Shampoo 1000 ml from the cart' })
    .click();
  await expect(lines).toHaveCount(2);
  await page.getByLabel('Quantity of Hydra Balance Shampoo 1000 ml').fill('3');
  await page.getByLabel('Quantity of Hydra Balance Shampoo 1000 ml').press('Tab');
  // 3 × 18.90 and 2 × 20.50.
  await expect(page.getByTestId('rep-cart-total')).toHaveText(/97\.70/);

  // Another customer has a cart of its own; back to the first, its lines are there.
  const bar = page.getByRole('region', { name: 'Customer' });
  await bar.getByRole('link', { name: 'Switch customer' }).click();
  await page.getByRole('button', { name: 'Order for Studio Brâncuși' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await page.goto('/rep/cart?lng=en');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Cart of Studio Brâncuși' }),
  ).toBeVisible();
  await expect(
    page.getByRole('note').filter({
      hasText: 'Studio Brâncuși is not verified yet: you can take its order',
    }),
  ).toBeVisible();
  await expect(lines).toHaveCount(0);
  await bar.getByRole('link', { name: 'Switch customer' }).click();
  await page.getByRole('button', { name: 'Order for Salon Aurora' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await page.goto('/rep/cart?lng=en');
  await expect(lines).toHaveCount(2);
  await expect(page.getByLabel('Quantity of Hydra Balance Shampoo 1000 ml')).toHaveValue('3');

  // The address starts from the customer's record; the rep completes it with the customer.
  const checkout = page.getByRole('form', { name: 'Place the order' });
  await expect(checkout.getByLabel('First name')).toHaveValue('Mara');
  await expect(checkout.getByLabel('Last name')).toHaveValue('Stan');
  await fillDeliveryAddress(checkout);
  await checkout.getByLabel('Notes for the order (optional)').fill('Livrare marți.');
  await signOnPad(page);
  await checkout.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/rep\/orders$/);
  const saved = page.getByText(
    /^Order L-[0-9A-F]{8} is saved on this device and will be sent when there is a connection\.$/,
  );
  await expect(saved).toBeVisible();
  const localRef = /L-[0-9A-F]{8}/.exec((await saved.textContent()) ?? '')?.[0];

  // Back online, the order reaches the server once, with its lines and the signature.
  await context.setOffline(false);
  const headers = { authorization: `Bearer ${await apiToken(request, rep.email, rep.password)}` };
  const { customers } = (await (await request.get('/api/rep/customers', { headers })).json()) as {
    customers: { id: number; name: string }[];
  };
  const customerId = customers.find((customer) => customer.name === 'Salon Aurora')?.id;
  const orders = async () => {
    const response = await request.get(`/api/rep/customers/${customerId}/orders`, { headers });
    return (
      (await response.json()) as {
        orders: {
          id: number;
          orderNumber: string;
          notes: string;
          orderItems: { productSku: string; quantity: number }[];
        }[];
      }
    ).orders;
  };
  await expect.poll(async () => (await orders()).length, { timeout: 20_000 }).toBe(1);
  const [order] = await orders();
  expect(order?.notes).toBe('Livrare marți.');
  expect(order?.orderItems.map((item) => [item.productSku, item.quantity]).sort()).toEqual([
    ['CO-VOL-1000', 2],
    ['SH-HYD-1000', 3],
  ]);
  // The page says so, with the number the server gave it, also after a reload.
  const sent = `Order ${localRef} has reached the server as ${order?.orderNumber}.`;
  await expect(page.getByText(sent)).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(page.getByText(sent)).toBeVisible();
  await expect(page.getByText(/will be sent when there is a connection/)).toHaveCount(0);
  const signature = await request.get(`/api/orders/${order?.id}/signature`, { headers });
  expect(signature.status()).toBe(200);
  expect(signature.headers()['content-type']).toContain('image/png');
  // Nothing is left in the customer's cart, and nothing is sent twice.
  await page.goto('/rep/cart?lng=en');
  await expect(
    page.getByText('The cart of Salon Aurora is empty.', { exact: false }),
  ).toBeVisible();
  expect(await orders()).toHaveLength(1);
});

test('a signature drawn just before “Place order” goes with the order', async ({
  page,
  request,
}) => {
  // A slow tablet: making the picture of a stroke takes a second.
  await page.addInitScript(() => {
    const canvas = HTMLCanvasElement.prototype;
    const toDataURL = Object.getOwnPropertyDescriptor(canvas, 'toDataURL')
      ?.value as typeof canvas.toDataURL;
    canvas.toDataURL = function (...args) {
      const until = Date.now() + 1000;
      while (Date.now() < until);
      return toDataURL.apply(this, args);
    };
  });
  const rep = await repWithCustomers(request, ['Salon Aurora']);
  await signInAsRep(page, rep);
  await catalogueReady(page);
  await page.goto('/rep?lng=en');
  await page.getByRole('button', { name: 'Order for Salon Aurora' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await page.goto('/rep/cart?lng=en');
  const code = page
    .getByRole('region', { name: 'Quick entry' })
    .getByRole('combobox', { name: 'SKU, name or barcode' });
  await code.fill('SH-HYD-1000');
  await code.press('Enter');
  await expect(page.getByTestId('rep-cart-line')).toHaveCount(1);
  const checkout = page.getByRole('form', { name: 'Place the order' });
  await fillDeliveryAddress(checkout);
  await signOnPad(page);
  await checkout.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/rep\/orders$/);

  const headers = { authorization: `Bearer ${await apiToken(request, rep.email, rep.password)}` };
  const customerId = rep.customers[0]?.id;
  const orders = async () =>
    (
      (await (
        await request.get(`/api/rep/customers/${customerId}/orders`, { headers })
      ).json()) as { orders: { id: number }[] }
    ).orders;
  await expect.poll(async () => (await orders()).length, { timeout: 20_000 }).toBe(1);
  const [order] = await orders();
  const signature = await request.get(`/api/orders/${order?.id}/signature`, { headers });
  expect(signature.status()).toBe(200);
  expect(signature.headers()['content-type']).toContain('image/png');
});

test('a rep scans a pack’s barcode with the tablet’s camera, offline, and it is added once', async ({
  portal,
  request,
}) => {
  // A camera that shows the barcode of the demo range's first product, over and over.
  const folder = mkdtempSync(join(tmpdir(), 'fake-camera-'));
  const video = join(folder, 'barcode.y4m');
  await writeBarcodeVideo(video, demoEan(1));
  const browser = await chromium.launch({
    executablePath: CHROME_PATH,
    args: [
      ...CHROME_ARGS,
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const context = await browser.newContext({ baseURL: portal.url, permissions: ['camera'] });
    const page = await context.newPage();
    const rep = await repWithCustomers(request, ['Salon Aurora']);
    await signInAsRep(page, rep);
    await catalogueReady(page);
    await page.goto('/rep?lng=en');
    await page.getByRole('button', { name: 'Order for Salon Aurora' }).click();
    await expect(page).toHaveURL(/\/products$/);
    await expect
      .poll(() => cachedPaths(page), { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/assets\/cart-page-.*\.js$/),
          expect.stringMatching(/^\/assets\/zxing-reader-.*\.js$/),
          expect.stringMatching(/^\/assets\/zxing_reader-.*\.wasm$/),
        ]),
      );

    await context.setOffline(true);
    await page.goto('/rep/cart?lng=en');
    await page.getByRole('button', { name: 'Scan a barcode' }).click();
    const scanner = page.getByRole('dialog', { name: 'Scan a barcode' });
    await expect(scanner.getByRole('status')).toHaveText(
      'Added 1 × Hydra Balance Shampoo 1000 ml.',
      { timeout: 15_000 },
    );
    // The pack stays in view: it is the same pack, not another one.
    await page.waitForTimeout(2_000);
    await scanner.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('rep-cart-line')).toHaveCount(1);
    await expect(page.getByLabel('Quantity of Hydra Balance Shampoo 1000 ml')).toHaveValue('1');
    await context.close();
  } finally {
    await browser.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('details typed at the booth for a salon that was the rep’s already stay on its card and reach staff', async ({
  page,
  request,
  browser,
  portal,
}) => {
  const rep = await repWithCustomers(request, ['Salon Aurora']);
  const token = await apiToken(request, rep.email, rep.password);
  const listed = await request.get('/api/rep/customers', {
    headers: { authorization: `Bearer ${token}` },
  });
  const [aurora] = (
    (await listed.json()) as {
      customers: { id: number; taxNumber: string; email: string }[];
    }
  ).customers;
  if (!aurora) throw new Error('The rep has no customer');
  await signInAsRep(page, rep);

  // At the booth, the salon gives its tax number and a phone and address the maker lacks.
  await page.goto('/rep/customers/new?lng=en');
  await page.getByLabel('Company name').fill('Salon Aurora');
  await page.getByLabel('VAT/CUI').fill(aurora.taxNumber);
  await page.getByLabel('Registration number').fill('J32/77/2026');
  await page.getByLabel('Company e-mail').fill(aurora.email.toUpperCase());
  await page.getByLabel('Company phone').fill('+40 269 999 000');
  await page.getByLabel('Address', { exact: true }).fill('Strada Nouă 3');
  await page.getByLabel('City').fill('Sibiu');
  await page.getByLabel('Postal code').fill('550002');
  await page.getByRole('button', { name: 'Register the salon' }).click();
  await expect(
    page.getByText(
      /was already your customer .*The details you typed that its record does not hold went to the maker's staff to check, and are on its card under Customers\./,
    ),
  ).toBeVisible();

  await page.goto('/rep?lng=en');
  const card = page.getByTestId('rep-customer').filter({ hasText: 'Salon Aurora' });
  await expect(card).toHaveCount(1);
  const kept = card.getByTestId('booth-details');
  await expect(kept).toContainText("Typed at the booth, not in the maker's record:");
  await expect(kept).toContainText('Company phone+40 269 999 000');
  await expect(kept).toContainText('Registration numberJ32/77/2026');
  // The same e-mail in capitals is the maker's already.
  await expect(kept).not.toContainText('Company e-mail');

  // Passed on: dismissed, and gone after a reload too.
  await kept.getByRole('button', { name: 'Dismiss' }).click();
  await expect(card.getByTestId('booth-details')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('rep-customer').filter({ hasText: 'Salon Aurora' })).toHaveCount(1);
  await expect(page.getByTestId('booth-details')).toHaveCount(0);

  // Staff find them on the company's page, and apply them through the record's form.
  const staffContext = await browser.newContext({ baseURL: portal.url });
  const staff = await staffContext.newPage();
  await signInAs(staff, STAFF.email, STAFF.password, 'Staff');
  await staff.goto('/admin?lng=en');
  await staff.getByRole('link', { name: /Booth details to review/ }).click();
  await staff.getByRole('link', { name: 'Salon Aurora' }).click();
  const typed = staff.getByRole('region', { name: 'Typed at a booth' });
  await expect(typed).toContainText('Typed by Victor Rep on');
  await expect(typed).toContainText('Phone+40 269 999 000');
  await expect(typed).toContainText('Registration numberJ32/77/2026');
  await expect(typed).not.toContainText('Company e-mail');
  await typed.getByRole('button', { name: 'Apply to the record' }).click();
  const form = staff.getByRole('form', { name: 'Edit company data' });
  await expect(form.getByRole('heading', { name: 'Edit company data' })).toBeFocused();
  await expect(form.getByLabel('Phone')).toHaveValue('+40 269 999 000');
  await expect(form.getByLabel('Address')).toHaveValue('Strada Nouă 3');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(staff.getByText('Company data saved.')).toBeVisible();
  await expect(typed).toHaveCount(0);
  const data = staff.getByRole('region', { name: 'Company data' });
  await expect(data).toContainText('+40 269 999 000');
  await staffContext.close();
});
