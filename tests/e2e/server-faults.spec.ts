import { type Page } from '@playwright/test';
import { expect, test } from './portal';
import { apiToken, approvedSalon, openedBefore, signInAs, unique } from './helpers';

// The page alone: the routes below answer for the server, which a service worker's own
// fetch would not reach.
test.use({ serviceWorkers: 'block' });

const SERVER_FAILED = 'The server could not answer. Nothing was lost; try again in a moment.';
const LOST = 'The connection dropped before the server answered. Please try again.';

/** Answers every call to `path` with a server fault. */
const failWith = (page: Page, path: string, status = 500) =>
  page.route(`**/api/${path}`, (route) =>
    route.fulfill({ status, json: { message: 'Something went wrong on our side.' } }),
  );

test.describe('signing in', () => {
  const fill = async (page: Page) => {
    await page.getByLabel('E-mail', { exact: true }).fill('salon@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Some-Pass-1');
  };
  const submit = (page: Page) => page.getByRole('button', { name: 'Sign in' }).click();

  test('says the server failed on a 5xx, offline only when it cannot be reached, and keeps what was typed', async ({
    page,
    context,
  }) => {
    await page.goto('/login?lng=en');
    await fill(page);
    await failWith(page, 'auth/login', 503);
    await submit(page);
    await expect(page.getByRole('alert')).toHaveText(SERVER_FAILED);
    await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue('salon@example.com');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('Some-Pass-1');

    // Only this request is lost: the server can still be reached.
    await page.unroute('**/api/auth/login');
    await page.route('**/api/auth/login', (route) => route.abort('connectionreset'));
    await submit(page);
    await expect(page.getByRole('alert')).toHaveText(LOST);

    await context.setOffline(true);
    await submit(page);
    await expect(page.getByRole('alert')).toHaveText(
      'You are offline. Signing in needs a connection: please try again when you are connected.',
    );
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('Some-Pass-1');
  });
});

test.describe('the quick registration', () => {
  const fill = async (page: Page, email: string) => {
    await page.getByLabel('First name').fill('Elena');
    await page.getByLabel('Last name').fill('Marin');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Company name').fill('Salon Elena');
    await page.getByLabel('VAT/CUI').fill('RO998877');
    await page.getByLabel('Password', { exact: true }).fill('Strong-Pass1');
    await page.getByLabel('Confirm password').fill('Strong-Pass1');
    await page.getByRole('checkbox').check();
  };
  const submit = (page: Page) => page.getByRole('button', { name: 'Create account' }).click();

  test('says the server failed on a 5xx, or that it is busy, and keeps the form', async ({
    page,
  }) => {
    const email = unique('fault');
    await page.goto('/register?lng=en');
    await fill(page, email);
    await failWith(page, 'auth/register');
    await submit(page);
    await expect(page.getByRole('alert')).toHaveText(SERVER_FAILED);
    await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
    await expect(page.getByLabel('Company name')).toHaveValue('Salon Elena');
    await expect(page.getByLabel('Confirm password')).toHaveValue('Strong-Pass1');

    // The server's own 503 (busy receiving documents) says so.
    await page.unroute('**/api/auth/register');
    await page.route('**/api/auth/register', (route) =>
      route.fulfill({
        status: 503,
        json: { message: 'Busy', code: 'UPLOADS_BUSY', retryAfter: 30 },
      }),
    );
    await submit(page);
    await expect(page.getByRole('alert')).toHaveText(
      'We are receiving many documents right now. Please send the form again in a minute: your data is kept here.',
    );

    // Once the server answers again, the same form goes through.
    await page.unroute('**/api/auth/register');
    await submit(page);
    await expect(page.getByText(/Registration successful! Please check your email/)).toBeVisible();
  });

  test('says offline only when the server cannot be reached', async ({ page, context }) => {
    await page.goto('/register?lng=en');
    await fill(page, unique('offline'));
    await context.setOffline(true);
    await submit(page);
    await expect(page.getByRole('alert')).toHaveText(
      'You are offline. Registration needs a connection: your data is kept here, please send it again when you are connected.',
    );
    await expect(page.getByLabel('First name')).toHaveValue('Elena');
  });
});

test.describe('the profile', () => {
  test('says the server failed when a password change or an upload meets a 5xx', async ({
    page,
    request,
  }) => {
    const salon = await approvedSalon(request, 'faults');
    await signInAs(page, salon.email);
    await page.goto('/profile?lng=en');
    await expect(page.getByRole('heading', { name: 'Company data' })).toBeVisible();

    await failWith(page, 'companies/me/documents');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'licence.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
      });
    await expect(page.getByRole('alert')).toHaveText(SERVER_FAILED);

    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByLabel('Current password', { exact: true }).fill('Order-Pass-2026');
    await page.getByLabel('New password', { exact: true }).fill('New-Order-Pass-1');
    await page.getByLabel('Confirm new password', { exact: true }).fill('New-Order-Pass-1');
    await failWith(page, 'users/password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toHaveText(SERVER_FAILED);
    await expect(page.getByLabel('New password', { exact: true })).toHaveValue('New-Order-Pass-1');

    // A refusal is said in the user's words, with the wait the server asks for.
    await page.unroute('**/api/users/password');
    await page.route('**/api/users/password', (route) =>
      route.fulfill({
        status: 429,
        json: {
          message: 'Too many login attempts. Please try again in 10 minutes.',
          retryAfter: 600,
        },
      }),
    );
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Too many attempts. Please try again in 10 minutes.',
    );
  });
});

test.describe('a document uploaded from the profile', () => {
  test('whose answer was lost is stored once when sent again; one too large is not sent', async ({
    page,
    request,
  }) => {
    const salon = await approvedSalon(request, 'upload');
    await signInAs(page, salon.email);
    await page.goto('/profile?lng=en');
    await expect(page.getByRole('heading', { name: 'Company data' })).toBeVisible();
    const picker = page.locator('input[type=file]').first();
    const licence = {
      name: 'licence.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
    };

    // The server stores the first upload, and the connection drops before its answer.
    const keys: (string | undefined)[] = [];
    await page.route('**/api/companies/me/documents', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key']);
      if (keys.length > 1) return route.continue();
      await route.fetch();
      return route.abort('connectionreset');
    });
    await picker.setInputFiles(licence);
    await expect(page.getByRole('alert')).toHaveText(LOST);
    await picker.setInputFiles(licence);
    await expect(page.getByText('Document licence.pdf uploaded successfully.')).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    const token = await apiToken(request, salon.email);
    const documents = async () =>
      (
        (await (
          await request.get('/api/companies/me/documents', {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as { documents: { originalName: string }[] }
      ).documents.map((document) => document.originalName);
    expect(await documents()).toEqual(['licence.pdf']);

    // Past 5 MB: said at once, and nothing is sent.
    await picker.setInputFiles({
      name: 'scan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 0x25),
    });
    await expect(page.getByRole('alert')).toHaveText(
      'File scan.pdf is too large. Maximum size is 5MB.',
    );
    expect(keys).toHaveLength(2);
    expect(await documents()).toEqual(['licence.pdf']);
  });
});

test.describe('the catalogue', () => {
  test('kept on the device is not said to be offline when the server fails to refresh it', async ({
    page,
  }) => {
    await openedBefore(page);
    await page.goto('/products?lng=en');
    const notice = page.getByTestId('catalogue-source');
    await expect(notice).toHaveText(/^Catalogue saved on this device/, { timeout: 20_000 });

    await failWith(page, 'products/mirror*', 503);
    const failed = page.waitForResponse(
      (response) => response.url().includes('/api/products/mirror') && response.status() === 503,
    );
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Products', exact: true })
      .click();
    await failed;
    // The answer of the failed refresh has been taken in.
    await page.waitForTimeout(1_000);
    await expect(notice).toHaveText(/^Catalogue saved on this device/);
    await expect(page.getByText(/You are offline/)).toHaveCount(0);
  });
});
