/**
 * A sales rep's orders page and the "Ordering for" bar (docs/product.md#field-sales) in a
 * real browser: the orders of the customer it orders for, from the server and the device,
 * online and offline, each with its pro-forma as a PDF; and what of field sales the
 * service worker keeps, on a rep's device and on a salon's.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DB_NAME } from '../../src/contracts/storage-names';
import { readPdf } from '../unit/pdf-text';
import { expect, test } from './portal';
import {
  apiToken,
  approvedSalon,
  cachedPaths,
  placedOrder,
  signInAs,
  untilControlled,
} from './helpers';
import { repWithCustomers, signInAsRep, type TestRep } from './reps';

/** The customer's signature as the tablet's pad sends it: a small PNG, in base64. */
const SIGNATURE =
  'iVBORw0KGgoAAAANSUhEUgAAADAAAAAQCAYAAABQrvyxAAAAXUlEQVR42mNgGAUjA/zHg4e04we1R/6TgQet46mldtA5Hpc+siwcKIdTbAY1oo+ayYBksyi1nBZpmG4xQevMR1FsDJaSg+IkNRjKbpLtH6wVD0luGKw15pBrS+EFANQEj3FJUzrrAAAAAElFTkSuQmCC';

const ADDRESS = {
  firstName: 'Ștefania',
  lastName: 'Ionescu',
  street: 'Strada Florilor 12',
  city: 'Cluj-Napoca',
  zipCode: '400001',
  country: 'Romania',
  phone: '+40 721 000 000',
};

/** An order the rep took for its first customer on another device, sent through the API. */
async function orderTakenElsewhere(request: APIRequestContext, rep: TestRep) {
  const headers = { authorization: `Bearer ${await apiToken(request, rep.email, rep.password)}` };
  const list = await request.get('/api/products', { headers, params: { limit: 50 } });
  const { products } = (await list.json()) as { products: { id: number; stock: number }[] };
  const product = products.find((p) => p.stock > 5);
  expect(product, 'a product in stock').toBeTruthy();
  const placed = await request.post(`/api/rep/customers/${rep.customers[0]?.id}/orders`, {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: {
      items: [{ productId: product?.id, quantity: 3 }],
      shippingAddress: ADDRESS,
      notes: 'Livrare după ora 14.',
      signature: SIGNATURE,
    },
  });
  expect(placed.status()).toBe(201);
  return ((await placed.json()) as { order: ServerOrder }).order;
}

/** An order as the server sends it, with what the tests read of it. */
type ServerOrder = { id: number; orderNumber: string; createdAt: string } & Record<string, unknown>;

/**
 * An order the rep took on this device and that still waits to be sent, as the cart keeps
 * it (lib/sync/rep-cart: queueRepOrder).
 */
function waitingOrder(rep: TestRep, localRef: string) {
  const now = new Date().toISOString();
  return {
    ref: `local:${localRef}`,
    userId: rep.id,
    state: 'waiting',
    createdAt: now,
    localRef,
    customerId: rep.customers[0]?.id,
    signature: SIGNATURE,
    order: {
      id: 0,
      orderNumber: '',
      status: 'PENDING',
      paymentStatus: 'PENDING',
      paymentMethod: 'BANK_TRANSFER',
      subtotal: 49.6,
      total: 49.6,
      currency: 'EUR',
      notes: '',
      clientReference: localRef,
      shippingAddress: ADDRESS,
      orderItems: [
        {
          id: -1,
          productId: 1,
          quantity: 4,
          unitPrice: 12.4,
          totalPrice: 49.6,
          productName: 'Șampon reparator cu argan',
          productSku: 'FL-E2E-1',
          product: { id: 1, name: 'Șampon reparator cu argan', sku: 'FL-E2E-1', images: [] },
        },
      ],
      itemCount: 4,
      cancellationReason: '',
      trackingNumber: '',
      placedBy: { id: rep.id, firstName: 'Victor', lastName: 'Rep' },
      createdAt: now,
      updatedAt: now,
    },
  };
}

/** An order taken on this device and sent, as the outbox leaves it once the server took it. */
function sentOrder(rep: TestRep, order: ServerOrder, localRef: string) {
  return {
    ref: `order:${order.id}`,
    userId: rep.id,
    state: 'synced',
    createdAt: order.createdAt,
    order,
    localRef,
    customerId: rep.customers[0]?.id,
    signature: SIGNATURE,
    // The server priced it higher than the tablet showed (staff changed the price meanwhile).
    changes: [{ productName: 'Keratin Shampoo', kind: 'price', before: 10, after: 12.5 }],
  };
}

/**
 * Writes records straight into a table of the device's database (`orders`, `repCarts`), as
 * the rep's cart leaves them; the page reads them once reloaded.
 */
async function keptOnDevice(page: Page, table: string, records: object[]) {
  await page.evaluate(
    ({ name, store, values }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error ?? new Error('The database did not open'));
        open.onsuccess = () => {
          const tx = open.result.transaction(store, 'readwrite');
          for (const value of values) tx.objectStore(store).put(value);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error ?? new Error(`Nothing was written to ${store}`));
        };
      }),
    { name: DB_NAME, store: table, values: records },
  );
}

/**
 * Clicks "Pro-forma (PDF)" on `card` and reads back the PDF downloaded; `preparing`: checks
 * the button while it is made.
 */
async function proFormaOf(page: Page, card: Locator, { preparing = false } = {}) {
  const download = page.waitForEvent('download');
  const button = card.getByRole('button', { name: 'Pro-forma (PDF)' });
  await button.click();
  if (preparing) {
    await expect(card.getByRole('button', { name: 'Preparing the PDF…' })).toBeDisabled();
  }
  const file = await download;
  const pdf = await readPdf(new Uint8Array(await readFile(await file.path())));
  await expect(button).toBeEnabled();
  return { fileName: file.suggestedFilename(), text: pdf.pages.flat().join('\n'), pdf };
}

test('a rep lists the orders of the customer it orders for, online and offline, each with its pro-forma', async ({
  page,
  context,
  request,
}) => {
  const rep = await repWithCustomers(request, ['Salon Ștefania Orders']);
  const customer = rep.customers[0]!;
  const taken = await orderTakenElsewhere(request, rep);
  const bySalon = await placedOrder(request, customer.email);

  await signInAsRep(page, rep);
  await page.goto('/rep/orders?lng=en');
  await untilControlled(page);
  await expect(page.getByText('You are not ordering for a customer yet: choose one')).toBeVisible();
  await page.getByRole('link', { name: 'Choose a customer' }).first().click();
  await page.getByRole('button', { name: `Order for ${customer.name}` }).click();
  await expect(page).toHaveURL(/\/products$/);

  // The bar leads to the customer's orders.
  const bar = page.getByRole('region', { name: 'Customer' });
  await expect(bar.getByRole('link', { name: 'Cart', exact: true })).toHaveAttribute(
    'href',
    '/rep/cart',
  );
  await expect(bar.getByRole('link', { name: 'Sync', exact: true })).toHaveAttribute(
    'href',
    '/rep/sync',
  );
  await bar.getByRole('link', { name: 'Orders' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Orders of ${customer.name}`);
  await expect(page.getByText(/^Up to date with the server/)).toBeVisible();

  // Online, the server's orders: the one taken on another device, the salon's own.
  const cards = page.getByTestId('rep-order');
  await expect(cards).toHaveCount(2);
  const takenCard = cards.filter({ hasText: `Order ${taken.orderNumber}` });
  await expect(takenCard).toContainText('Victor Rep (sales rep)');
  await expect(takenCard).toContainText('Pending');
  await takenCard.getByText('1 line').click();
  await expect(takenCard.getByRole('row')).toHaveCount(2);
  await expect(cards.filter({ hasText: `Order ${bySalon.orderNumber}` })).toContainText(
    'The salon itself',
  );

  // Its pro-forma names the customer and the order, with the signature the server keeps
  // (slowed down here, to see the button while the PDF is prepared).
  await context.route('**/api/orders/*/signature', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  const online = await proFormaOf(page, takenCard, { preparing: true });
  await context.unrouteAll();
  expect(online.fileName).toBe(`proforma-${taken.orderNumber}.pdf`);
  expect(online.text).toContain(customer.name);
  expect(online.text).toContain(taken.orderNumber);
  expect(online.pdf.images).toEqual([{ width: 48, height: 16 }]);
  await expect(takenCard.getByRole('status')).toHaveText(
    `The pro-forma proforma-${taken.orderNumber}.pdf is ready.`,
  );

  // The orders this device holds: one waiting to be sent, listed with its reference, and
  // one it sent, listed once, as the server has it, with the reference it was taken under.
  await keptOnDevice(page, 'orders', [
    waitingOrder(rep, 'L-E2E0RDER'),
    sentOrder(rep, taken, 'L-E2ESENT1'),
  ]);
  // And the customer's cart holds five units, which the bar counts.
  await keptOnDevice(page, 'repCarts', [
    {
      userId: rep.id,
      customerId: customer.id,
      lines: [{ productId: 1, quantity: 5 }],
      updatedAt: new Date().toISOString(),
    },
  ]);
  await page.reload();
  await expect(bar.getByRole('link', { name: 'Cart, 5 items' })).toBeVisible();
  await expect(cards).toHaveCount(3);
  const waiting = cards.filter({ hasText: 'Order L-E2E0RDER (not sent yet)' });
  await expect(waiting).toContainText('Waiting to be sent');
  await expect(waiting).toContainText('Saved on this device with the reference L-E2E0RDER');
  await expect(takenCard).toContainText('Taken on this device as L-E2ESENT1');
  // The rep is told what the server changed of the order it took, as the salon would be.
  await expect(takenCard.getByRole('note')).toHaveText(
    /^The confirmed order differs from what you saw when you placed it:\s*Keratin Shampoo: price €10\.00 → €12\.50$/,
  );
  await waiting.getByText('1 line').click();
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual(
    [],
  );

  // Offline, the list is what this device holds: the salon's order waits for the network,
  // and a pro-forma is still made, with the fonts the device keeps.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Orders of ${customer.name}`);
  await expect(
    page.getByText(/^You are offline: the list shows what this device holds/),
  ).toBeVisible();
  await expect(cards).toHaveCount(2);
  await expect(takenCard).toBeVisible();
  await expect(waiting).toBeVisible();
  const offline = await proFormaOf(page, waiting);
  expect(offline.fileName).toBe('proforma-L-E2E0RDER.pdf');
  expect(offline.text).toContain(customer.name);
  expect(offline.text).toContain('L-E2E0RDER');
  expect(offline.text).toContain('Reference on the device (not sent yet)');
  expect(offline.pdf.images).toHaveLength(1);
  // The order it sent keeps its number and the signature the device holds.
  const sent = await proFormaOf(page, takenCard);
  expect(sent.text).toContain(taken.orderNumber);
  expect(sent.pdf.images).toHaveLength(1);

  // Arriving from the cart after placing an order, the page says where the order is.
  await page.evaluate(() =>
    history.replaceState({ usr: { placed: 'L-E2E0RDER' }, key: 'placed', idx: 0 }, ''),
  );
  await page.reload();
  await expect(
    page.getByText(
      'Order L-E2E0RDER is saved on this device and will be sent when there is a connection.',
    ),
  ).toBeVisible();
  await context.setOffline(false);
});

/** Field sales' own files: its screens, the bar, the PDF library and the pro-forma's fonts. */
const FIELD_SALES_FILES =
  /^\/assets\/(customers-page|ordering-for|pdf-lib|fontkit[.a-z]*|NotoSans-(Regular|Bold))-[\w-]+\.(js|css|ttf)$/;

test('a salon’s device keeps none of field sales’ screens; a rep’s keeps them; both keep the PDF library and the fonts', async ({
  browser,
  portal,
  request,
}) => {
  const salonDevice = await browser.newContext({ baseURL: portal.url });
  const salonPage = await salonDevice.newPage();
  const salon = await approvedSalon(request, 'keeps');
  await signInAs(salonPage, salon.email);
  await untilControlled(salonPage);
  // Once the salon's screens are kept, nothing of field sales' own is: only the PDF library
  // and the fonts, for the pro-formas of the salon's own orders.
  await expect
    .poll(async () =>
      (await cachedPaths(salonPage)).filter((path) =>
        /^\/assets\/(cart|orders|sync|profile)-page-/.test(path),
      ),
    )
    .toHaveLength(4);
  expect(
    (await cachedPaths(salonPage))
      .filter((path) => FIELD_SALES_FILES.test(path))
      .map((path) => path.replace(/^\/assets\//, '').replace(/(\.es)?-[\w-]{8}\.\w+$/, ''))
      .sort(),
  ).toEqual(['NotoSans-Bold', 'NotoSans-Regular', 'fontkit', 'pdf-lib']);
  await salonDevice.close();

  const repDevice = await browser.newContext({ baseURL: portal.url });
  const repPage = await repDevice.newPage();
  const rep = await repWithCustomers(request, ['Salon Kept Files']);
  await signInAsRep(repPage, rep);
  await untilControlled(repPage);
  // Each file by its name, without the build's hash.
  const kept = async () =>
    (await cachedPaths(repPage))
      .filter((path) => FIELD_SALES_FILES.test(path))
      .map((path) => path.replace(/^\/assets\//, '').replace(/(\.es)?-[\w-]{8}\.\w+$/, ''))
      .sort();
  await expect
    .poll(kept)
    .toEqual([
      'NotoSans-Bold',
      'NotoSans-Regular',
      'customers-page',
      'fontkit',
      'ordering-for',
      'pdf-lib',
    ]);
  // Both orders pages are kept on a rep's device: the salon's (as for any signed-in user)
  // and field sales'.
  expect(
    (await cachedPaths(repPage)).filter((path) => /^\/assets\/orders-page-[\w-]+\.js$/.test(path)),
  ).toHaveLength(2);
  await repDevice.close();
});
