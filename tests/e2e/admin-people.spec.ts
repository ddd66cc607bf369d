/**
 * People (docs/product.md#back-office) in a real browser: staff add a colleague, see the
 * temporary password once, the colleague signs in with it to the back office, and is shut
 * out the moment staff deactivate the account. Staff add a sales rep and assign it a
 * company on the company's page (docs/product.md#field-sales). Staff see none of a
 * salon's links.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './portal';
import { apiToken, registeredSalon, staffHeaders, unique } from './helpers';
import { STAFF } from './staff';

/** Signs in through the form, in English; `firstName` names the user menu that then shows. */
async function signIn(page: Page, email: string, password: string, firstName: string) {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: firstName })).toBeVisible();
}

test('staff add a colleague who signs in with the temporary password, until deactivated', async ({
  page,
  browser,
  request,
}) => {
  const email = unique('colleague');
  await signIn(page, STAFF.email, STAFF.password, 'Staff');
  await page.goto('/admin?lng=en');
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'People' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();

  // One's own account cannot be deactivated, and the page says why.
  const own = page.getByRole('row', { name: /Staff Admin/ });
  await expect(own.getByRole('button', { name: /^Deactivate/ })).toBeDisabled();
  await expect(own).toContainText('another staff member must deactivate it');

  await page.getByRole('button', { name: 'Add account' }).click();
  await expect(page.getByRole('radio', { name: 'Staff (back office)' })).toBeChecked();
  await page.getByLabel('First name').fill('Bianca');
  await page.getByLabel('Last name').fill('Dumitru');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Create account' }).click();

  const shown = page.getByRole('dialog', { name: 'Temporary password for Bianca Dumitru' });
  await expect(shown).toContainText('it will not be shown again');
  await expect(shown.getByRole('button', { name: 'Copy password' })).toBeVisible();
  const password = await shown.getByLabel('Temporary password').inputValue();
  expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
  // Shown once, so a stray Escape does not take it away: only its button does.
  await shown.getByLabel('Temporary password').press('Escape');
  await page.keyboard.press('Escape');
  await expect(shown.getByLabel('Temporary password')).toHaveValue(password);
  await shown.getByRole('button', { name: 'I have noted it' }).click();
  await expect(shown).toBeHidden();
  const row = page.getByRole('row', { name: /Bianca Dumitru/ });
  await expect(row).toContainText('Active');
  await expect(row.getByRole('cell', { name: 'Staff (back office)', exact: true })).toBeVisible();
  // Shown once: the list and the page no longer carry it.
  await expect(page.locator('body')).not.toContainText(password);

  // The colleague signs in with it, in a browser of their own, and finds the back office.
  const theirs = await browser.newContext();
  const colleague = await theirs.newPage();
  await signIn(colleague, email, password, 'Bianca');
  await colleague.goto('/admin?lng=en');
  await expect(colleague.getByRole('heading', { level: 1, name: 'Back office' })).toBeVisible();
  const login = await request.post('/api/auth/login', { data: { email, password } });
  const { accessToken } = (await login.json()) as { accessToken: string };

  await row.getByRole('button', { name: /^Deactivate/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Deactivate Bianca Dumitru?' });
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row).toContainText('Deactivated');

  // Their next request is refused, and they cannot sign in again.
  const next = await request.get('/api/admin/summary', {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(next.status()).toBe(401);
  const again = await request.post('/api/auth/login', { data: { email, password } });
  expect(again.status()).toBe(401);
  await colleague.goto('/admin/companies?lng=en');
  await expect(colleague.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // With the right password, the sign-in page says why instead of "Invalid email or password".
  await colleague.getByLabel('E-mail', { exact: true }).fill(email);
  await colleague.getByLabel('Password', { exact: true }).fill(password);
  await colleague.getByRole('button', { name: 'Sign in' }).click();
  await expect(colleague.getByRole('alert')).toHaveText(
    'This account has been deactivated. Ask the back office to reactivate it.',
  );
  await theirs.close();
});

test('staff add a sales rep, assign it to a company, then leave the company without one', async ({
  page,
  request,
}) => {
  const { email: salonEmail } = await registeredSalon(request, 'rep-customer');
  const me = await request.get('/api/auth/me', {
    headers: { authorization: `Bearer ${await apiToken(request, salonEmail)}` },
  });
  const { user } = (await me.json()) as { user: { companyId: number } };
  const email = unique('rep');
  await signIn(page, STAFF.email, STAFF.password, 'Staff');
  await page.goto('/admin/people?lng=en');

  await page.getByRole('button', { name: 'Add account' }).click();
  const form = page.getByRole('form', { name: 'Add an account' });
  await form.getByRole('radio', { name: 'Sales rep' }).check();
  await form.getByLabel('First name').fill('Rita');
  await form.getByLabel('Last name').fill('Rusu');
  await form.getByLabel('E-mail', { exact: true }).fill(email);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(
    page.getByText('Rita Rusu can now sign in to take orders for their customers.'),
  ).toBeVisible();
  const shown = page.getByRole('dialog', { name: 'Temporary password for Rita Rusu' });
  await shown.getByRole('button', { name: 'I have noted it' }).click();
  const row = page.getByRole('row', { name: /Rita Rusu/ });
  await expect(row.getByRole('cell', { name: 'Sales rep', exact: true })).toBeVisible();
  await expect(row).toContainText('Active');
  const own = page.getByRole('row', { name: /Staff Admin/ });
  await expect(own.getByRole('cell', { name: 'Staff (back office)', exact: true })).toBeVisible();

  await page.goto(`/admin/companies/${user.companyId}?lng=en`);
  const fieldSales = page.getByRole('region', { name: 'Field sales' });
  const current = fieldSales.getByRole('definition');
  await expect(current).toHaveText('None');
  const choice = fieldSales.getByLabel('Sales rep');
  await choice.selectOption({ label: `Rita Rusu (${email})` });
  await fieldSales.getByRole('button', { name: 'Save sales rep' }).click();
  await expect(
    page.getByText('Rita Rusu is now the sales rep of Salon rep-customer.'),
  ).toBeVisible();

  // Saved on the server: the page read afresh names the rep, and the choice starts there.
  await page.reload();
  await expect(current).toContainText('Rita Rusu');
  await expect(current).toContainText(email);
  await expect(choice.locator('option:checked')).toHaveText(`Rita Rusu (${email})`);
  await expect(page.getByRole('table', { name: 'History' })).toContainText('Sales rep assigned');

  await choice.selectOption({ label: 'None' });
  await fieldSales.getByRole('button', { name: 'Save sales rep' }).click();
  await expect(page.getByText('Salon rep-customer no longer has a sales rep.')).toBeVisible();
  await page.reload();
  await expect(current).toHaveText('None');
  await expect(choice.locator('option:checked')).toHaveText('None');
});

test("staff see no salon's links, and a salon's page sends them to the back office", async ({
  page,
}) => {
  await signIn(page, STAFF.email, STAFF.password, 'Staff');
  await page.goto('/products?lng=en');
  const main = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(main.getByRole('link', { name: 'Products' })).toBeVisible();
  await expect(main.getByRole('link', { name: /^Cart/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Staff' }).click();
  await expect(page.getByRole('link', { name: 'Back office' })).toBeVisible();
  for (const name of ['Cart', 'Orders', 'Sync centre']) {
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
  }
  for (const path of ['/cart', '/orders', '/sync']) {
    await page.goto(`${path}?lng=en`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'This page is for salons' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the back office' })).toBeVisible();
  }
});

test('a company changed by someone else meanwhile: the refusal is said and the page is current', async ({
  page,
  request,
}) => {
  const { email } = await registeredSalon(request, 'conflict');
  const me = await request.get('/api/auth/me', {
    headers: { authorization: `Bearer ${await apiToken(request, email)}` },
  });
  const { user } = (await me.json()) as { user: { companyId: number } };
  await signIn(page, STAFF.email, STAFF.password, 'Staff');
  await page.goto(`/admin/companies/${user.companyId}?lng=en`);
  const verification = page.getByRole('region', { name: 'Verification' });
  await expect(verification.getByRole('button', { name: 'Approve' })).toBeVisible();

  // A colleague approves it first.
  const approved = await request.post(`/api/admin/companies/${user.companyId}/approve`, {
    headers: await staffHeaders(request),
    data: {},
  });
  expect(approved.ok()).toBe(true);

  await verification.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(verification.getByRole('alert')).toContainText(
    'Someone changed this company meanwhile.',
  );
  await expect(verification.getByText('Approved', { exact: true })).toBeVisible();
  await expect(verification.getByRole('button', { name: 'Suspend' })).toBeVisible();
  await expect(verification.getByRole('button', { name: 'Approve' })).toHaveCount(0);
});

test('a list opened past its last page goes to its last page, never "Page 9 of 2"', async ({
  page,
}) => {
  await signIn(page, STAFF.email, STAFF.password, 'Staff');
  await page.goto('/admin/audit?page=9999&lng=en');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page).not.toHaveURL(/page=9999/);
  await expect(page.getByRole('table', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByText(/Page 9999 of/)).toHaveCount(0);

  // Every list, filtered to nothing on a page that no longer exists: the filter stays.
  for (const [list, nothing] of [
    ['companies', 'No companies match these filters.'],
    ['orders', 'No orders match these filters.'],
    ['products', 'No products match these filters.'],
  ] as const) {
    await page.goto(`/admin/${list}?search=no-such-thing-anywhere&page=3&lng=en`);
    await expect(page).not.toHaveURL(/page=3/);
    await expect(page).toHaveURL(/search=no-such-thing-anywhere/);
    await expect(page.getByText(nothing)).toBeVisible();
  }
});
