/**
 * The back office (docs/product.md#back-office) in a real browser: staff verify a salon
 * from its registration to its first prices, decisions are recorded, and the guard keeps
 * everyone else out.
 */
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expect, test } from './portal';
import {
  apiToken,
  approvedSalon,
  registeredSalon,
  signInAs,
  staffHeaders,
  unique,
  untilControlled,
} from './helpers';
import { repWithCustomers, signInAsRep } from './reps';
import { STAFF } from './staff';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const DEMO = { email: 'salon.verified@example.com', password: 'Verified-Salon-2026' };

/** A word no other test's company carries, to find this test's companies by. */
const token = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Signs in through the form, in English; `firstName` names the user menu that then shows. */
async function signIn(page: Page, email: string, password: string, firstName: string) {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: firstName })).toBeVisible();
}

const signInAsStaff = (page: Page) => signIn(page, STAFF.email, STAFF.password, 'Staff');

async function companyIdOf(request: APIRequestContext, name: string): Promise<number> {
  const list = await request.get('/api/admin/companies', {
    headers: await staffHeaders(request),
    params: { search: name },
  });
  const { companies } = (await list.json()) as { companies: { id: number; name: string }[] };
  const company = companies.find((c) => c.name === name);
  expect(company, `company ${name}`).toBeTruthy();
  return company?.id ?? 0;
}

/** The company wizard with a trade register certificate, as a salon fills it in. */
async function registerWithDocument(page: Page, email: string, companyName: string) {
  await page.goto('/company-register?lng=en');
  await page.getByLabel('First name').fill('Giulia');
  await page.getByLabel('Last name').fill('Verdi');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret1');
  await page.getByLabel('Confirm password').fill('secret1');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Company name').fill(companyName);
  await page.getByLabel('VAT/CUI').fill('IT09876543210');
  await page.getByLabel('Registration number').fill('TO-998877');
  await page.getByLabel('Company e-mail').fill(email);
  await page.getByLabel('Company phone').fill('+39 011 555 1234');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Address', { exact: true }).fill('Via Po 10');
  await page.getByLabel('City').fill('Torino');
  await page.getByLabel('Postal code').fill('10121');
  await page.getByLabel('Country').selectOption('Italy');
  await page.getByRole('button', { name: 'Next' }).click();
  await page
    .getByLabel('Trade register certificate')
    .setInputFiles({ name: 'visura.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Submit Registration' }).click();
  await expect(page.getByText(/Company registration submitted successfully/)).toBeVisible();
}

/**
 * The accessibility sweep (accessibility.spec.ts) opens the back office on the demo data;
 * here its pages are checked again with what a day's work puts on them.
 */
async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);
}

/** Another browser, for a second person (the salon, a visitor). */
async function otherBrowser(browser: Browser) {
  const context = await browser.newContext();
  return { page: await context.newPage(), close: () => context.close() };
}

test('staff verify a new salon from the dashboard: document preview, approvals, audit log; the salon then sees prices', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const name = `Salone ${token('verifica')} SRL`;
  const email = unique('verifica');
  const salon = await otherBrowser(browser);
  await registerWithDocument(salon.page, email, name);

  await signInAsStaff(page);
  await page.getByRole('button', { name: 'Staff' }).click();
  await page.getByRole('link', { name: 'Back office' }).click();
  await expect(page.getByRole('heading', { name: 'Back office', level: 1 })).toBeVisible();
  // Its document waits for review: the dashboard's tile lists the companies with one.
  await page.getByRole('link', { name: /Documents to review/ }).click();
  await expect(page).toHaveURL(/\/admin\/companies\?documents=PENDING$/);
  await expect(page.getByLabel('Documents')).toHaveValue('PENDING');
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await page.getByRole('link', { name: /Companies waiting for verification/ }).click();
  await expect(page).toHaveURL(/\/admin\/companies\?status=PENDING$/);
  await expect(page.getByLabel('Status')).toHaveValue('PENDING');
  await page.getByRole('link', { name, exact: true }).click();

  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const companyId = new URL(page.url()).pathname.split('/').pop();
  const document = page.getByRole('listitem').filter({ hasText: 'visura.pdf' });
  await document.getByRole('button', { name: 'Preview' }).click();
  const preview = page.locator('iframe[title="Preview of visura.pdf"]');
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute('src', /^blob:/);
  // Shown, not refused: a frame the page's policy refuses becomes Chromium's error page.
  await expect
    .poll(() => page.frames().map((frame) => frame.url()), {
      message: 'the PDF is shown in its frame',
    })
    .toContainEqual(await preview.getAttribute('src'));
  await expect(document.getByRole('link', { name: 'Open in a new tab' })).toBeVisible();

  await document.getByRole('button', { name: 'Approve document' }).click();
  const review = page.getByRole('dialog', { name: 'Approve visura.pdf?' });
  await review.getByLabel('Note').fill('Trade register certificate checked.');
  await review.getByRole('button', { name: 'Approve document' }).click();
  await expect(review).toBeHidden();
  await expect(page.getByText('visura.pdf is approved.')).toBeVisible();
  await expect(document.getByText('Note: Trade register certificate checked.')).toBeVisible();

  const verification = page.getByRole('region', { name: 'Verification' });
  // The message lasts a few seconds from the server's answer, which a busy machine delays.
  const approved = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      response.url().endsWith(`/api/admin/companies/${companyId}/approve`),
  );
  // Approving e-mails the salon at once: it asks first, and Cancel sends nothing.
  const decisions: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/admin/companies/')) {
      decisions.push(request.url());
    }
  });
  const confirm = page.getByRole('dialog', { name: `Approve ${name}?` });
  await verification.getByRole('button', { name: 'Approve' }).click();
  await expect(confirm).toContainText(
    'Its people are e-mailed at once, and it sees prices and can order',
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(verification.getByText('Pending', { exact: true })).toBeVisible();
  expect(decisions).toEqual([]);
  await verification.getByRole('button', { name: 'Approve' }).click();
  await confirm.getByRole('button', { name: 'Approve' }).click();
  expect((await approved).status()).toBe(200);
  await expect(confirm).toBeHidden();
  expect(decisions).toHaveLength(1);
  await expect(page.getByText(`${name} is approved.`)).toBeVisible();
  await expect(verification.getByRole('button', { name: 'Suspend' })).toBeVisible();
  const history = page.getByRole('table', { name: 'History' });
  await expect(history.getByRole('row').filter({ hasText: 'Company approved' })).toBeVisible();
  await expect(
    history.getByRole('row').filter({ hasText: 'Document approved' }).filter({
      hasText: 'Trade register certificate checked.',
    }),
  ).toBeVisible();
  await expectAccessible(page);

  await signIn(salon.page, email, 'secret1', 'Giulia');
  await salon.page.goto('/products?lng=en');
  await expect(salon.page.getByTestId('product-card').first().getByText(/€/)).toBeVisible();
  await salon.close();

  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Audit log' })
    .click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const log = page.getByRole('table', { name: 'Audit log' });
  // Entries name the company, the document by its file name, and link the company's page.
  const ofCompany = log.getByRole('row').filter({ hasText: `Company ${name}` });
  await expect(ofCompany.filter({ hasText: 'Company approved' })).toBeVisible();
  await page.getByLabel('Action').selectOption({ label: 'Document approved' });
  await expect(page).toHaveURL(/action=document\.approve/);
  const approvedDocument = log
    .getByRole('row')
    .filter({ hasText: 'Trade register certificate checked.' })
    .first();
  await expect(approvedDocument).toContainText('Document visura.pdf');
  await expect(approvedDocument.getByRole('link', { name: `Open ${name}` })).toHaveAttribute(
    'href',
    `/admin/companies/${companyId}`,
  );
  await expect(log.getByRole('row').filter({ hasText: 'Company approved' })).toHaveCount(0);
  await expectAccessible(page);
});

test('staff remove a document the company no longer needs; its people no longer see it', async ({
  page,
  request,
}) => {
  const name = `Salone ${token('documenti')} SRL`;
  const { email } = await registeredSalon(request, 'documenti', { companyName: name });
  const salonHeaders = { authorization: `Bearer ${await apiToken(request, email)}` };
  const uploaded = await request.post('/api/companies/me/documents', {
    headers: salonHeaders,
    multipart: {
      otherDocument: { name: 'vecchio.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  expect(uploaded.status()).toBe(201);

  await signInAsStaff(page);
  await page.goto(`/admin/companies/${await companyIdOf(request, name)}?lng=en`);
  const document = page.getByRole('listitem').filter({ hasText: 'vecchio.pdf' });
  await document.getByRole('button', { name: 'Remove document' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove vecchio.pdf?' });
  await expect(confirm).toContainText('The file is deleted for good');
  await confirm.getByRole('button', { name: 'Remove document' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('vecchio.pdf is removed.')).toBeVisible();
  await expect(page.getByText('This company has not uploaded any documents.')).toBeVisible();
  // The company's history says who removed what.
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: 'Document removed' })
      .filter({ hasText: 'vecchio.pdf' }),
  ).toBeVisible();

  const list = await request.get('/api/companies/me/documents', { headers: salonHeaders });
  expect(((await list.json()) as { documents: unknown[] }).documents).toEqual([]);
});

test("a salon that opens the back office is told it is only for the maker's staff; a visitor is asked to sign in", async ({
  page,
  browser,
}) => {
  await signIn(page, DEMO.email, DEMO.password, 'Ioana');
  await page.getByRole('button', { name: 'Ioana' }).click();
  await expect(page.getByRole('link', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back office' })).toHaveCount(0);

  for (const path of ['/admin', '/admin/companies/1', '/admin/audit']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: "Only for the maker's staff" })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the catalogue' })).toBeVisible();
  }

  const visitor = await otherBrowser(browser);
  await visitor.page.goto('/admin/companies?lng=en');
  await expect(visitor.page).toHaveURL(/\/login$/);
  await visitor.close();
});

test('rejecting a company asks for a reason, which the salon then reads on its profile', async ({
  page,
  request,
  browser,
}) => {
  const name = `Salon ${token('respins')}`;
  const { email } = await registeredSalon(request, 'backoffice', { companyName: name });
  const companyId = await companyIdOf(request, name);

  await signInAsStaff(page);
  await page.goto(`/admin/companies/${companyId}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const verification = page.getByRole('region', { name: 'Verification' });
  await verification.getByRole('button', { name: 'Reject' }).click();
  const dialog = page.getByRole('dialog', { name: `Reject ${name}?` });
  await expect(dialog.getByText('The salon sees this reason on its profile.')).toBeVisible();
  const reason = 'The VAT number does not match the trade register.';
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${name} is rejected.`)).toBeVisible();
  await expect(verification.getByText('Rejected')).toBeVisible();
  await expect(verification.getByText(reason)).toBeVisible();
  await expect(verification.getByRole('button', { name: 'Approve' })).toBeVisible();
  await expect(verification.getByRole('button', { name: 'Reject' })).toHaveCount(0);

  const salon = await otherBrowser(browser);
  await signInAs(salon.page, email);
  await salon.page.goto('/profile');
  await expect(salon.page.getByText('Your company registration was not approved.')).toBeVisible();
  await expect(salon.page.getByText(`Reason given by our team: ${reason}`)).toBeVisible();
  await salon.close();
});

test('a company registered with a tax number already known says so, linking the other', async ({
  page,
  request,
}) => {
  const taxNumber = `RO${Math.floor(Math.random() * 1e9)}`;
  const first = `Salon ${token('primul')}`;
  const second = `Salon ${token('doilea')}`;
  await registeredSalon(request, 'tax-first', { companyName: first, taxNumber });
  // Written otherwise, the same number.
  await registeredSalon(request, 'tax-second', {
    companyName: second,
    taxNumber: taxNumber.replace('RO', 'ro '),
  });

  await signInAsStaff(page);
  await page.goto(`/admin/companies/${await companyIdOf(request, second)}`);
  const verification = page.getByRole('region', { name: 'Verification' });
  const note = verification.getByRole('note', {
    name: 'Another company has registered with this tax number:',
  });
  await expect(note.getByText('Pending')).toBeVisible();
  await note.getByRole('link', { name: first }).click();
  await expect(page.getByRole('heading', { name: first, level: 1 })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Verification' }).getByRole('note').getByRole('link'),
  ).toHaveText(second);
});

test('reactivating a suspended company asks first, and Cancel leaves it suspended', async ({
  page,
  request,
}) => {
  const name = `Salon ${token('reactivate')}`;
  await approvedSalon(request, 'reactivate', { companyName: name });
  const companyId = await companyIdOf(request, name);

  await signInAsStaff(page);
  await page.goto(`/admin/companies/${companyId}?lng=en`);
  const verification = page.getByRole('region', { name: 'Verification' });
  await verification.getByRole('button', { name: 'Suspend' }).click();
  const suspend = page.getByRole('dialog', { name: `Suspend ${name}?` });
  await suspend.getByLabel('Reason').fill('Unpaid invoices.');
  await suspend.getByRole('button', { name: 'Suspend' }).click();
  await expect(verification.getByText('Suspended', { exact: true })).toBeVisible();

  const reactivate = page.getByRole('dialog', { name: `Reactivate ${name}?` });
  await verification.getByRole('button', { name: 'Reactivate' }).click();
  await expect(reactivate).toContainText(
    'Its people are e-mailed at once, and it can order again.',
  );
  // Only confirmed: no reason is asked for.
  await expect(reactivate.getByRole('textbox')).toHaveCount(0);
  await reactivate.getByRole('button', { name: 'Cancel' }).click();
  await expect(reactivate).toBeHidden();
  await page.reload();
  await expect(verification.getByText('Suspended', { exact: true })).toBeVisible();

  await verification.getByRole('button', { name: 'Reactivate' }).click();
  await reactivate.getByRole('button', { name: 'Reactivate' }).click();
  await expect(reactivate).toBeHidden();
  await expect(verification.getByText('Approved', { exact: true })).toBeVisible();
  await expect(verification.getByRole('button', { name: 'Suspend' })).toBeVisible();
});

test('staff correct a company’s data: broken rules are said at their fields, then it is saved', async ({
  page,
  request,
}) => {
  const name = `Salon ${token('corect')}`;
  await registeredSalon(request, 'backoffice', { companyName: name });
  const companyId = await companyIdOf(request, name);

  await signInAsStaff(page);
  await page.goto(`/admin/companies/${companyId}?lng=en`);
  const data = page.getByRole('region', { name: 'Company data' });
  await data.getByRole('button', { name: 'Edit company data' }).click();
  const form = data.getByRole('form', { name: 'Edit company data' });
  await form.getByLabel('Company name').fill('  ');
  await form.getByLabel('Company e-mail').fill('not-an-address');
  await form.getByLabel('City').fill('Cluj-Napoca');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText('Please review the highlighted fields and try again.')).toBeVisible();
  await expect(form.getByLabel('Company name')).toHaveAccessibleDescription(/required/i);
  await expect(form.getByLabel('Company e-mail')).toHaveAccessibleDescription(
    'Invalid email format',
  );
  // What was typed stays; typing in a field clears its message alone.
  await expect(form.getByLabel('City')).toHaveValue('Cluj-Napoca');
  await form.getByLabel('Company e-mail').fill(`office@${token('corect')}.example`);
  await expect(form.getByLabel('Company e-mail')).toHaveAccessibleDescription('');
  await expect(form.getByLabel('Company name')).toHaveAccessibleDescription(/required/i);

  const renamed = `${name} Srl`;
  await form.getByLabel('Company name').fill(renamed);
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Company data saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();
  await expect(data.getByText('Cluj-Napoca')).toBeVisible();
});

test('staff who sign in land in the back office, a sales rep among its customers', async ({
  page,
  request,
  browser,
}) => {
  await signInAsStaff(page);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('navigation', { name: 'Back office' })).toBeVisible();

  const rep = await repWithCustomers(request, [`Salon ${token('sosire')}`]);
  const repBrowser = await otherBrowser(browser);
  await signInAsRep(repBrowser.page, rep);
  await expect(repBrowser.page).toHaveURL(/\/rep$/);
  await repBrowser.close();
});

test('the companies search and status filter narrow the list, live in the address and survive a reload', async ({
  page,
  request,
}) => {
  const word = token('filtru');
  const [alfa, beta] = [`Salon ${word} Alfa`, `Salon ${word} Beta`];
  await registeredSalon(request, 'backoffice', { companyName: alfa });
  await registeredSalon(request, 'backoffice', { companyName: beta });
  const approved = await request.post(
    `/api/admin/companies/${await companyIdOf(request, alfa)}/approve`,
    { headers: await staffHeaders(request), data: {} },
  );
  expect(approved.ok()).toBe(true);

  await signInAsStaff(page);
  await page.goto('/admin/companies');
  const table = page.getByRole('table', { name: 'Companies' });
  await page.getByLabel('Search companies').fill(word);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`search=${word}`));
  await expect(page.getByText('2 companies')).toBeVisible();
  await expect(table.getByRole('link', { name: alfa })).toBeVisible();
  await expect(table.getByRole('link', { name: beta })).toBeVisible();

  await page.getByLabel('Status').selectOption({ label: 'Approved' });
  await expect(page).toHaveURL(/status=APPROVED/);
  await expect(page.getByText('1 company')).toBeVisible();
  await expect(table.getByRole('link', { name: alfa })).toBeVisible();
  await expect(table.getByRole('link', { name: beta })).toHaveCount(0);

  await page.reload();
  await expect(page.getByLabel('Search companies')).toHaveValue(word);
  await expect(page.getByLabel('Status')).toHaveValue('APPROVED');
  await expect(page.getByText('1 company')).toBeVisible();
  await expect(table.getByRole('link', { name: beta })).toHaveCount(0);

  await page.goBack();
  await expect(page.getByLabel('Status')).toHaveValue('');
  await expect(page.getByText('2 companies')).toBeVisible();

  await table.getByRole('button', { name: 'Company' }).click();
  await expect(page).toHaveURL(/sortBy=name&sortOrder=asc/);
  await expect(table.getByRole('columnheader', { name: 'Company' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(table.getByRole('row').nth(1)).toContainText(alfa);
  await table.getByRole('button', { name: 'Company' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText(beta);
});

test('offline, the back office says it needs a connection and shows nothing kept on the device', async ({
  page,
  context,
}) => {
  await signInAsStaff(page);
  await page.goto('/admin/companies');
  await untilControlled(page);
  // Staff keep the back office's screens, as every signed-in user keeps theirs.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const paths: string[] = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys()) {
            paths.push(new URL(request.url).pathname);
          }
        }
        return paths.filter((path) =>
          /^\/assets\/(dashboard|companies|company|audit)-page-/.test(path),
        ).length;
      }),
    )
    .toBe(4);
  const table = page.getByRole('table', { name: 'Companies' });
  await expect(table.getByRole('link', { name: 'Salon Bella Vista SRL' })).toBeVisible();

  // What is on screen stays, marked as read earlier.
  await context.setOffline(true);
  await expect(
    page.getByRole('status').filter({ hasText: 'You are offline. What is shown was read at' }),
  ).toBeVisible();

  // A new page offline has nothing to show: nothing of it is kept on the device.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Companies', level: 1 })).toBeVisible();
  await expect(
    page.getByText(
      'You are offline. The back office needs a connection: nothing is shown until the server can be reached.',
    ),
  ).toBeVisible();
  await expect(table).toHaveCount(0);

  // Back online, the page reads again.
  await context.setOffline(false);
  await expect(table.getByRole('link', { name: 'Salon Bella Vista SRL' })).toBeVisible({
    timeout: 20_000,
  });
});
