/**
 * A day at the fair, in Chromium: the rep prepares the tablet, loses the network, takes
 * an order for a customer, registers a new salon with a photographed document and takes
 * its order too, makes a pro-forma of an order still waiting, and comes back in range:
 * each order reaches the server once, on the right company, with the rep and the
 * signature; the new salon's order waits for verification until staff approve it.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, cachedPaths, staffHeaders } from './helpers';
import { expect, test } from './portal';
import { readPdf } from '../unit/pdf-text';
import { repWithCustomers, signInAsRep, signOnPad } from './reps';

/** A small real PNG: a photo of a document, as far as the server can tell. */
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Adds a product to the cart of the customer the rep orders for, by its SKU. */
async function addBySku(page: Page, sku: string) {
  const quickEntry = page.getByRole('region', { name: 'Quick entry' });
  await quickEntry.getByRole('combobox', { name: 'SKU, name or barcode' }).fill(sku);
  await quickEntry.getByRole('combobox', { name: 'SKU, name or barcode' }).press('Enter');
  await expect(quickEntry.getByRole('status')).toHaveText(/^Added 1 × /);
}

interface ServerOrder {
  id: number;
  status: string;
  clientReference: string;
  placedBy: { id: number } | null;
  orderItems: { productSku: string }[];
}

async function ordersOf(request: APIRequestContext, token: string, customerId: number) {
  const response = await request.get(`/api/rep/customers/${customerId}/orders`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { orders: ServerOrder[] }).orders;
}

test('a day at the fair: orders and a new salon taken offline reach the server once each', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  const rep = await repWithCustomers(request, ['Salon Aurora']);
  const [aurora] = rep.customers;
  await signInAsRep(page, rep);

  // Prepare for the fair: customers, catalogue and pictures on the device in one go.
  await page.goto('/rep/sync?lng=en');
  await page.getByRole('button', { name: 'Prepare for the fair' }).click();
  await expect(
    page.getByText(
      'Ready for the fair: your customers, the whole catalogue and its pictures are on this device.',
    ),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('customers-kept')).toHaveText('1 customer kept on this device.');
  // Ready means ready: the rep's screens, the PDF library and the barcode reader are kept.
  expect(await cachedPaths(page)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^\/assets\/customers-page-.*\.js$/),
      expect.stringMatching(/^\/assets\/new-customer-page-.*\.js$/),
      expect.stringMatching(/^\/assets\/pdf-lib-.*\.js$/),
      expect.stringMatching(/^\/assets\/zxing_reader-.*\.wasm$/),
    ]),
  );

  await context.setOffline(true);
  // An order for the customer the rep already has.
  await page.goto('/rep?lng=en');
  await page.getByRole('button', { name: 'Order for Salon Aurora' }).click();
  // Chosen once the app has gone on to the catalogue.
  await expect(page).toHaveURL(/\/products$/);
  await page.goto('/rep/cart?lng=en');
  await addBySku(page, 'SH-HYD-1000');
  // The test's salon registered without an address: the rep completes it with the customer.
  const auroraCheckout = page.getByRole('form', { name: 'Place the order' });
  await auroraCheckout.getByLabel('Street and number').fill('Strada Teiului 7');
  await auroraCheckout.getByLabel('City').fill('Sibiu');
  await auroraCheckout.getByLabel('Zip code').fill('550001');
  await auroraCheckout.getByLabel('Phone').fill('+40 269 555 777');
  await signOnPad(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/rep\/orders$/);

  // A new salon at the booth, with its trade register photographed.
  await page.goto('/rep?lng=en');
  await page.getByRole('link', { name: 'New salon' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New salon' })).toBeVisible();
  await page.getByLabel('Company name').fill('Salon Ștefănia');
  await page.getByLabel('VAT/CUI').fill(`RO${Date.now()}`);
  await page.getByLabel('Registration number').fill('J08/123/2026');
  await page.getByLabel('Company e-mail').fill('stefania@example.com');
  await page.getByLabel('Company phone').fill('+40 268 111 222');
  await page.getByLabel('Address', { exact: true }).fill('Strada Lungă 12');
  await page.getByLabel('City').fill('Brașov');
  await page.getByLabel('Postal code').fill('500035');
  await page
    .getByLabel('Trade register certificate')
    .setInputFiles({ name: 'registru.png', mimeType: 'image/png', buffer: PHOTO });
  await expect(page.getByText(/registru\.png/)).toBeVisible();
  await page.getByRole('button', { name: 'Register the salon' }).click();
  await expect(
    page.getByText(/^Salon Ștefănia is saved on this device and will be registered/),
  ).toBeVisible();
  const newSalon = page.getByTestId('rep-customer').filter({ hasText: 'Salon Ștefănia' });
  await expect(newSalon.getByText('Not registered yet: waiting to be sent')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Customer' })).toContainText(
    'Ordering for Salon Ștefănia',
  );

  // Its order is taken at once, and waits for the maker's verification.
  await page.goto('/rep/cart?lng=en');
  await expect(page.getByRole('note')).toContainText('Salon Ștefănia is not verified yet');
  await addBySku(page, 'CO-VOL-1000');
  const checkout = page.getByRole('form', { name: 'Place the order' });
  await checkout.getByLabel('First name').fill('Ștefania');
  await checkout.getByLabel('Last name').fill('Pop');
  // The rest comes from what the rep typed at registration.
  await expect(checkout.getByLabel('Street and number')).toHaveValue('Strada Lungă 12');
  await expect(checkout.getByLabel('Phone')).toHaveValue('+40 268 111 222');
  await signOnPad(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/rep\/orders$/);

  // A pro-forma of the order still waiting, made on the device: a real PDF.
  // In the customer's language, though the app is in English: the fair's preparation kept
  // the texts of every language on the device.
  const card = page.getByTestId('rep-order').filter({ hasText: 'Waiting to be sent' }).first();
  await card.getByLabel('Language of the pro-forma').selectOption({ label: 'Italiano' });
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Pro-forma (PDF)' }).click();
  const pdf = await download;
  const bytes = Buffer.concat(await (await pdf.createReadStream()).toArray());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const text = (await readPdf(new Uint8Array(bytes))).pages.flat().join(' ');
  expect(text).toContain('La fattura pro forma non è un documento fiscale.');
  expect(text).toContain('Salon Ștefănia');

  // Back in range: every entry goes, in order, each once.
  await context.setOffline(false);
  const token = await apiToken(request, rep.email, rep.password);
  const customers = async () =>
    (
      (await (
        await request.get('/api/rep/customers', { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { customers: { id: number; name: string; status: string }[] }
    ).customers;
  await expect
    .poll(async () => (await customers()).map((c) => c.name).sort(), { timeout: 30_000 })
    .toEqual(['Salon Aurora', 'Salon Ștefănia']);
  const registered = (await customers()).find((c) => c.name === 'Salon Ștefănia');
  expect(registered?.status).toBe('PENDING');
  await expect
    .poll(async () => (await ordersOf(request, token, registered!.id)).length, {
      timeout: 30_000,
    })
    .toBe(1);
  await expect.poll(async () => (await ordersOf(request, token, aurora!.id)).length).toBe(1);

  const [auroraOrder] = await ordersOf(request, token, aurora!.id);
  expect(auroraOrder).toMatchObject({ status: 'PENDING', placedBy: { id: rep.id } });
  expect(auroraOrder?.orderItems.map((item) => item.productSku)).toEqual(['SH-HYD-1000']);
  const [boothOrder] = await ordersOf(request, token, registered!.id);
  expect(boothOrder).toMatchObject({ status: 'AWAITING_VERIFICATION', placedBy: { id: rep.id } });
  expect(boothOrder?.orderItems.map((item) => item.productSku)).toEqual(['CO-VOL-1000']);
  for (const order of [auroraOrder, boothOrder]) {
    const signature = await request.get(`/api/orders/${order?.id}/signature`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(signature.headers()['content-type']).toContain('image/png');
  }

  // Staff see the new salon with its document, registered by the rep, and approve it: its
  // order becomes a normal pending order.
  const staff = await staffHeaders(request);
  const detail = (await (
    await request.get(`/api/admin/companies/${registered!.id}`, { headers: staff })
  ).json()) as {
    registeredBy: { id: number } | null;
    documents: { originalName: string }[];
  };
  expect(detail.registeredBy?.id).toBe(rep.id);
  expect(detail.documents.map((d) => d.originalName)).toEqual(['registru.png']);
  const approved = await request.post(`/api/admin/companies/${registered!.id}/approve`, {
    headers: staff,
    data: {},
  });
  expect(approved.ok()).toBe(true);
  const [afterApproval] = await ordersOf(request, token, registered!.id);
  expect(afterApproval?.status).toBe('PENDING');
});
