import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import { apiToken, catalogueReady, inStockCards, PASSWORD, signInAs, unique } from './helpers';
import { STAFF } from './staff';

const COMPANY_ADDRESS = {
  companyAddress: 'Strada Florilor 12',
  companyCity: 'Cluj-Napoca',
  companyZipCode: '400001',
  companyCountry: 'Romania',
  companyPhone: '+40 264 555 123',
};

/** An approved salon whose company was registered with its address (the quick form's fields). */
async function approvedSalonWithAddress(request: APIRequestContext, prefix: string) {
  const email = unique(prefix);
  const registered = await request.post('/api/auth/register', {
    // An address of its own, as behind the fair's proxy: registrations are limited per address.
    headers: { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
    data: {
      email,
      password: PASSWORD,
      firstName: 'Mara',
      lastName: 'Stan',
      companyName: `Salon ${prefix}`,
      taxNumber: 'RO1234567',
      ...COMPANY_ADDRESS,
    },
  });
  expect(registered.status()).toBe(201);
  const me = await request.get('/api/auth/me', {
    headers: { authorization: `Bearer ${await apiToken(request, email)}` },
  });
  const { user } = (await me.json()) as { user: { companyId: number } };
  const approved = await request.post(`/api/admin/companies/${user.companyId}/approve`, {
    headers: { authorization: `Bearer ${await apiToken(request, STAFF.email, STAFF.password)}` },
    data: {},
  });
  expect(approved.ok()).toBe(true);
  return { email };
}

async function addFirstProductAndCheckOut(page: Page) {
  const cards = await inStockCards(page);
  await cards
    .nth(0)
    .getByRole('button', { name: /^Add to cart/ })
    .click();
  await expect(page.getByTestId('cart-badge')).toHaveText('1');
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  return page.getByRole('form', { name: 'Shipping address' });
}

test('a checkout taken offline is prefilled with the company’s address kept on the device', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalonWithAddress(request, 'fair');
  await signInAs(page, salon.email);
  await catalogueReady(page);
  // One visit of the cart online reads the company onto the device.
  const companyRead = page.waitForResponse('**/api/companies/me');
  await page.goto('/cart?lng=en');
  await companyRead;
  await expect(page.getByRole('heading', { name: 'Cart', exact: true })).toBeVisible();

  await context.setOffline(true);
  await page.goto('/products?lng=en');
  await page.reload();
  const form = await addFirstProductAndCheckOut(page);
  await expect(form.getByLabel('Street and number')).toHaveValue('Strada Florilor 12');
  await expect(form.getByLabel('City')).toHaveValue('Cluj-Napoca');
  await expect(form.getByLabel('Zip code')).toHaveValue('400001');
  await expect(form.getByLabel('Country')).toHaveValue('Romania');
  await expect(form.getByLabel('Phone')).toHaveValue('+40 264 555 123');
  await form.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/orders$/);
  await expect(page.getByTestId('order-card').first()).toContainText('Waiting to sync');

  await context.setOffline(false);
  const token = await apiToken(request, salon.email);
  const shippedTo = async () => {
    const response = await request.get('/api/orders', {
      headers: { authorization: `Bearer ${token}` },
    });
    const { orders } = (await response.json()) as {
      orders: { shippingAddress: Record<string, string> }[];
    };
    return orders.map((order) => order.shippingAddress);
  };
  await expect.poll(shippedTo, { timeout: 15_000 }).toEqual([
    {
      firstName: 'Mara',
      lastName: 'Stan',
      street: 'Strada Florilor 12',
      city: 'Cluj-Napoca',
      zipCode: '400001',
      country: 'Romania',
      phone: '+40 264 555 123',
    },
  ]);
});

test('online, the order cannot be placed with an empty address while the company is still loading', async ({
  page,
  request,
}) => {
  const salon = await approvedSalonWithAddress(request, 'slow');
  await signInAs(page, salon.email);
  await catalogueReady(page);
  // As on a first visit: the device has no company yet, and the server's answer is slow.
  const held: Route[] = [];
  let holding = true;
  await page.route('**/api/companies/me', (route) =>
    holding ? void held.push(route) : route.continue(),
  );
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const opened = indexedDB.open('hair-care-portal');
        opened.onsuccess = () => {
          const cleared = opened.result.transaction('companies', 'readwrite');
          cleared.objectStore('companies').clear();
          cleared.oncomplete = () => resolve();
          cleared.onerror = () => reject(cleared.error);
        };
        opened.onerror = () => reject(opened.error);
      }),
  );
  const form = await addFirstProductAndCheckOut(page);

  const loading = form.getByRole('button', { name: 'Loading your company’s address…' });
  await expect(loading).toBeDisabled();
  await expect(loading).toHaveAttribute('aria-busy', 'true');
  await expect(form.getByRole('button', { name: 'Place order' })).toHaveCount(0);
  await expect(form.getByLabel('Street and number')).toHaveValue('');

  holding = false;
  for (const route of held.splice(0)) await route.continue();
  await expect(form.getByLabel('Street and number')).toHaveValue('Strada Florilor 12');
  await expect(form.getByLabel('City')).toHaveValue('Cluj-Napoca');
  await expect(form.getByRole('button', { name: 'Place order' })).toBeEnabled();
});
