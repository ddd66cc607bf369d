import { type Page, type Route } from '@playwright/test';
import { expect, test } from './portal';
import {
  addToCart,
  apiToken,
  approvedSalon,
  catalogueReady,
  inStockCards,
  signInAs,
} from './helpers';

const COMPANY_ADDRESS = {
  companyAddress: 'Strada Florilor 12',
  companyCity: 'Cluj-Napoca',
  companyZipCode: '400001',
  companyCountry: 'Romania',
  companyPhone: '+40 264 555 123',
};

async function addFirstProductAndCheckOut(page: Page) {
  const cards = inStockCards(page);
  await addToCart(cards, 0);
  await expect(page.getByTestId('cart-badge')).toHaveText('1');
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  return page.getByRole('form', { name: 'Shipping address' });
}

/** How many companies the device keeps (read from IndexedDB as only a test may). */
function storedCompanies(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const opened = indexedDB.open('hair-care-portal');
        opened.onsuccess = () => {
          const counted = opened.result.transaction('companies').objectStore('companies').count();
          counted.onsuccess = () => resolve(counted.result);
          counted.onerror = () => reject(counted.error!);
        };
        opened.onerror = () => reject(opened.error!);
      }),
  );
}

test('a checkout taken offline is prefilled with the company’s address kept on the device', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'fair', COMPANY_ADDRESS);
  await signInAs(page, salon.email);
  await catalogueReady(page);
  // One visit of the cart online reads the company onto the device.
  const companyRead = page.waitForResponse('**/api/companies/me');
  await page.goto('/cart?lng=en');
  await companyRead;
  await expect(page.getByRole('heading', { name: 'Cart', exact: true })).toBeVisible();
  // Stored, not only answered: leaving the page sooner would lose the write.
  await expect.poll(() => storedCompanies(page)).toBe(1);

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
  const salon = await approvedSalon(request, 'slow', COMPANY_ADDRESS);
  // As on a first visit: the device has no company yet, and the server's answer is slow.
  // Held from the sign-in on: the company read that signing in starts must not land after
  // the device's copy was cleared below.
  const held: Route[] = [];
  let holding = true;
  await page.route('**/api/companies/me', (route) =>
    holding ? void held.push(route) : route.continue(),
  );
  await signInAs(page, salon.email);
  await catalogueReady(page);
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const opened = indexedDB.open('hair-care-portal');
        opened.onsuccess = () => {
          const cleared = opened.result.transaction('companies', 'readwrite');
          cleared.objectStore('companies').clear();
          cleared.oncomplete = () => resolve();
          cleared.onerror = () => reject(cleared.error ?? new Error('the transaction failed'));
        };
        opened.onerror = () => reject(opened.error!);
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

test('a company registered in another country types the country to ship to', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'abroad', {
    ...COMPANY_ADDRESS,
    companyCountry: 'Other',
  });
  await signInAs(page, salon.email);
  await catalogueReady(page);
  const form = await addFirstProductAndCheckOut(page);
  await expect(form.getByLabel('City')).toHaveValue('Cluj-Napoca');
  // "Other" is the wizard's choice, not a place to ship to.
  await expect(form.getByLabel('Country')).toHaveValue('');
  await form.getByRole('button', { name: 'Place order' }).click();
  await expect(form.getByLabel('Country')).toHaveAccessibleDescription(/required/i);
  // The focus goes to the field to fix, so that its message is read out.
  await expect(form.getByLabel('Country')).toBeFocused();
});
