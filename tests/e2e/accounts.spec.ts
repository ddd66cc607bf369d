import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './portal';
import { STAFF } from './staff';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const unique = (prefix: string) =>
  `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

async function approveCompanyOf(request: APIRequestContext, email: string) {
  const login = await request.post('/api/auth/login', { data: STAFF });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}` };
  const list = await request.get('/api/admin/companies?status=PENDING', { headers });
  const { companies } = (await list.json()) as { companies: { id: number; email: string }[] };
  const company = companies.find((c) => c.email === email);
  expect(company, `pending company of ${email}`).toBeTruthy();
  const approved = await request.post(`/api/admin/companies/${company?.id}/approve`, {
    headers,
    data: {},
  });
  expect(approved.ok()).toBe(true);
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a company registers in four steps, is approved by staff, signs in, sees prices and logs out', async ({
  page,
  request,
}) => {
  const email = unique('wizard');
  await page.goto('/company-register?lng=en');

  // Step 1: every rule is checked before moving on.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  // The first field to fix takes the focus, its message read out with it.
  await expect(page.getByLabel('First name')).toBeFocused();
  await page.getByLabel('First name').fill('Giulia');
  await expect(page.getByText('First name is required')).toBeHidden();
  await page.getByLabel('Last name').fill('Verdi');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret1');
  await page.getByLabel('Confirm password').fill('secret2');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm password').fill('secret1');
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 2
  await expect(page.getByRole('heading', { name: /Step 2 of 4/ })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Company name is required')).toBeVisible();
  await page.getByLabel('Company name').fill('Salone Verdi SRL');
  await page.getByLabel('VAT/CUI').fill('IT09876543210');
  await page.getByLabel('Registration number').fill('TO-998877');
  await page.getByLabel('Company e-mail').fill('not-an-email');
  await page.getByLabel('Company phone').fill('+39 011 555 1234');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Invalid email format')).toBeVisible();
  await page.getByLabel('Company e-mail').fill('ufficio@salone-verdi.example');
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 3, and back is free.
  await expect(page.getByRole('heading', { name: /Step 3 of 4/ })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Required field').first()).toBeVisible();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByLabel('Company name')).toHaveValue('Salone Verdi SRL');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Address', { exact: true }).fill('Via Po 10');
  await page.getByLabel('City').fill('Torino');
  await page.getByLabel('Postal code').fill('10121');
  await page.getByLabel('Country').selectOption('Italy');
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 4: a document, and a file that is refused before it is sent.
  await expect(page.getByRole('heading', { name: /Step 4 of 4/ })).toBeVisible();
  await page
    .getByLabel('Trade register certificate')
    .setInputFiles({ name: 'visura.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page
    .getByLabel('Identity document')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(
    page.getByText(
      'File notes.txt is not a supported format. Please upload PDF, JPG, or PNG files.',
    ),
  ).toBeVisible();
  const files = page.getByRole('list', { name: 'Chosen files' });
  await expect(files).toContainText('visura.pdf');
  await expect(files).not.toContainText('notes.txt');
  // Named a PDF, but not one: the server refuses it, the page says which file, and keeps
  // everything chosen and typed.
  await page
    .getByLabel('Identity document')
    .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('no') });
  await page.getByRole('button', { name: 'Submit Registration' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'File scan.pdf is not a supported format. Please upload PDF, JPG, or PNG files.',
  );
  await expect(files).toContainText('visura.pdf');
  await page.getByRole('button', { name: 'Remove scan.pdf' }).click();
  // A field the server refuses takes the wizard back to its step, the focus on it.
  await page.route('**/api/auth/register-company', (route) =>
    route.fulfill({
      status: 400,
      json: {
        message: 'Validation failed',
        details: [{ field: 'companyName', message: 'Required field', code: 'required' }],
      },
    }),
  );
  await page.getByRole('button', { name: 'Submit Registration' }).click();
  await expect(page.getByRole('heading', { name: /Step 2 of 4/ })).toBeVisible();
  await expect(page.getByLabel('Company name')).toBeFocused();
  await page.unroute('**/api/auth/register-company');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Submit Registration' }).click();
  await expect(page.getByText(/Company registration submitted successfully/)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  // A signed-out visit to the profile asks to sign in, then returns there.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughForm(page, email, 'secret1');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Giulia Verdi' })).toBeVisible();
  await expect(page.getByText('Pending verification').first()).toBeVisible();
  await expect(page.getByText('visura.pdf')).toBeVisible();

  await page.goto('/products');
  await expect(
    page.getByText('Prices are available only for verified companies').first(),
  ).toBeVisible();

  await approveCompanyOf(request, 'ufficio@salone-verdi.example');
  await page.reload();
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
  await expect(page.getByText('Prices are available only for verified companies')).toHaveCount(0);
  await page.getByTestId('product-card').first().getByRole('heading').getByRole('link').click();
  await expect(page.locator('.product-detail__price')).toContainText('€');

  await page.getByRole('button', { name: 'Giulia' }).click();
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  await page.goto('/products');
  await expect(
    page.getByText('Prices are available only for verified companies').first(),
  ).toBeVisible();
  await expect(page.getByTestId('product-card').first().getByText(/€/)).toHaveCount(0);
});

test('after five wrong passwords the sixth attempt is told to wait 15 minutes', async ({
  page,
}) => {
  const email = unique('locked');
  await page.goto('/login?lng=en');
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await signInThroughForm(page, email, `Wrong-password-${attempt}`);
    await expect(page.getByRole('alert')).toHaveText(
      'Invalid email or password. Please check your credentials.',
    );
  }
  await signInThroughForm(page, email, 'Wrong-password-6');
  await expect(page.getByRole('alert')).toHaveText(
    'Too many login attempts. Please try again in 15 minutes.',
  );
});

test('the quick registration shows its rules, then succeeds and goes to sign-in', async ({
  page,
}) => {
  await page.goto('/register?lng=en');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('You must accept the terms and conditions')).toBeVisible();
  await expect(page.getByText('VAT/CUI is required')).toBeVisible();
  await page.getByLabel('First name').fill('Elena');
  await page.getByLabel('Last name').fill('Marin');
  await page.getByLabel('E-mail', { exact: true }).fill(unique('quick'));
  await page.getByLabel('Company name').fill('Salon Elena');
  await page.getByLabel('VAT/CUI').fill('RO998877');
  await page.getByLabel('Password', { exact: true }).fill('weakpassword');
  await page.getByLabel('Confirm password').fill('weakpassword');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(
    page.getByText('Password must include uppercase, lowercase and a number'),
  ).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('Strong-Pass1');
  await page.getByLabel('Confirm password').fill('Strong-Pass1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(/Registration successful! Please check your email/)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 8_000 });
});

test('the quick registration answers an e-mail already registered like a new one', async ({
  page,
  request,
}) => {
  const email = unique('taken');
  const first = await request.post('/api/auth/register', {
    data: {
      email,
      password: 'Strong-Pass1',
      firstName: 'Elena',
      lastName: 'Marin',
      companyName: 'Salon Elena',
      taxNumber: 'RO998877',
    },
  });
  expect(first.status()).toBe(201);
  await page.goto('/register?lng=en');
  await page.getByLabel('First name').fill('Someone');
  await page.getByLabel('Last name').fill('Else');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Company name').fill('Another Salon');
  await page.getByLabel('VAT/CUI').fill('RO112233');
  await page.getByLabel('Password', { exact: true }).fill('Other-Pass2');
  await page.getByLabel('Confirm password').fill('Other-Pass2');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  // The same words as for a new e-mail: the form does not tell whose e-mail it is.
  await expect(page.getByText(/Registration successful! Please check your email/)).toBeVisible();
  await expect(page.getByText(/already exists/)).toHaveCount(0);
});
