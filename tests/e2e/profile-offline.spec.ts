import { type Page } from '@playwright/test';
import { expect, test } from './portal';
import { approvedSalon, catalogueReady, signInAs } from './helpers';

const COMPANY_ADDRESS = {
  companyAddress: 'Strada Florilor 12',
  companyCity: 'Cluj-Napoca',
  companyZipCode: '400001',
  companyCountry: 'Romania',
  companyPhone: '+40 264 555 123',
};
const ADDRESS = 'Strada Florilor 12, 400001, Cluj-Napoca, Romania';
const DOCUMENTS_NOT_ON_DEVICE =
  'The list of documents is not kept on this device. It is shown, and documents can be uploaded, once the server can be reached.';

/** Opens the profile online, which also keeps the company on the device. */
async function profileOnline(page: Page) {
  const companyRead = page.waitForResponse('**/api/companies/me');
  await page.goto('/profile?lng=en');
  await companyRead;
  await expect(companyCard(page).getByText(ADDRESS)).toBeVisible();
  await expect(companyCard(page).getByRole('note')).toHaveCount(0);
}

const companyCard = (page: Page) => page.getByRole('region', { name: 'Company data' });
const documentsCard = (page: Page) => page.getByRole('region', { name: /^Documents/ });

test('offline, the profile shows the company kept on the device and says it is that copy', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'profile', COMPANY_ADDRESS);
  await signInAs(page, salon.email);
  await catalogueReady(page);
  await profileOnline(page);

  await context.setOffline(true);
  await page.reload();
  const card = companyCard(page);
  await expect(card.getByText('Salon profile', { exact: true })).toBeVisible();
  await expect(card.getByText(ADDRESS)).toBeVisible();
  await expect(card.getByText('+40 264 555 123')).toBeVisible();
  await expect(card.getByRole('note')).toHaveText(
    /^You are offline\. This is the copy of your company's details kept on this device, as of .+\.$/,
  );
  // Nothing is said of documents the device has no list of, and none can be uploaded.
  await expect(documentsCard(page).getByRole('note')).toHaveText(DOCUMENTS_NOT_ON_DEVICE);
  await expect(documentsCard(page).getByText('Missing')).toHaveCount(0);
  await expect(documentsCard(page).locator('input[type=file]')).toHaveCount(0);

  // Back online, the server's copy is shown again, without the note.
  await context.setOffline(false);
  await page.reload();
  await expect(companyCard(page).getByText(ADDRESS)).toBeVisible();
  await expect(companyCard(page).getByRole('note')).toHaveCount(0);
  await expect(documentsCard(page).getByRole('note')).toHaveCount(0);
});

test.describe('with a server that fails', () => {
  // The page alone: the route below answers for the server.
  test.use({ serviceWorkers: 'block' });

  test('the profile shows the company kept on the device and says the server failed', async ({
    page,
    request,
  }) => {
    const salon = await approvedSalon(request, 'profile', COMPANY_ADDRESS);
    await signInAs(page, salon.email);
    await profileOnline(page);

    await page.route('**/api/companies/me', (route) =>
      route.fulfill({ status: 500, json: { message: 'Something went wrong on our side.' } }),
    );
    await page.reload();
    const card = companyCard(page);
    await expect(card.getByText(ADDRESS)).toBeVisible();
    await expect(card.getByRole('note')).toHaveText(
      /^The server could not answer\. This is the copy of your company's details kept on this device, as of .+\.$/,
    );
  });
});
