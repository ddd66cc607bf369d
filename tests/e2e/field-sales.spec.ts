import type { APIRequestContext, Page } from '@playwright/test';
import { DB_NAME } from '../../src/contracts/storage-names';
import { expect, test } from './portal';
import {
  apiToken,
  approvedSalon,
  openedBefore,
  registeredSalon,
  signInAs,
  staffHeaders,
  unique,
  untilControlled,
} from './helpers';

/** A sales rep made by staff, with its temporary password, and companies assigned to it. */
async function repWithCustomers(request: APIRequestContext, customers: string[]) {
  const headers = await staffHeaders(request);
  const email = unique('rep');
  const created = await request.post('/api/admin/staff', {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: { firstName: 'Victor', lastName: 'Rep', email, role: 'SALES_REP' },
  });
  expect(created.status()).toBe(201);
  const { member, temporaryPassword } = (await created.json()) as {
    member: { id: number };
    temporaryPassword: string;
  };
  for (const [i, name] of customers.entries()) {
    const salon =
      i === 0
        ? await approvedSalon(request, `cust${i}`, { companyName: name })
        : await registeredSalon(request, `cust${i}`, { companyName: name });
    const me = await request.get('/api/auth/me', {
      headers: { authorization: `Bearer ${await apiToken(request, salon.email)}` },
    });
    const { user } = (await me.json()) as { user: { companyId: number } };
    const assigned = await request.put(`/api/admin/companies/${user.companyId}/sales-rep`, {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: { salesRepId: member.id },
    });
    expect(assigned.ok()).toBe(true);
  }
  return { id: member.id, email, password: temporaryPassword };
}

async function signInAsRep(page: Page, rep: { email: string; password: string }) {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(rep.email);
  await page.getByLabel('Password', { exact: true }).fill(rep.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Victor' })).toBeVisible();
}

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
