import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './portal';
import { PAGES } from '../../src/contracts/staff-routes';
import { placedOrder, staffHeaders } from './helpers';
import { STAFF } from './staff';

/** A page's address, with a product that exists for its `:id`. */
function address(path: string, id: number): string {
  const filled = path.replace(':id', String(id));
  if (filled.includes(':')) throw new Error(`Give ${path} a value for its parameter here`);
  return filled;
}

const PUBLIC = [
  ...PAGES.filter((route) => !route.signedIn).map((route) => address(route.path, 1)),
  '/no-such-page',
];
/**
 * The signed-in pages, the public ones that show more to a signed-in user, and what a salon
 * is told at a back-office page.
 */
const SIGNED_IN = [
  '/products',
  '/products/2',
  ...PAGES.filter((route) => route.signedIn && !route.staff).map((route) => address(route.path, 2)),
  '/admin',
];
/** The back office, swept as staff (company 2 is a demo company waiting for verification). */
const STAFF_PAGES = PAGES.filter((route) => route.staff).map((route) => address(route.path, 2));
/**
 * The back office is for the maker's staff, in Romania: swept in Romanian, and in English on
 * a few pages (as the storefront's other languages are).
 */
const STAFF_LANGUAGES = ['ro', 'en'] as const;
/**
 * Every page is swept in the default language; the others, whose texts have the same keys
 * and no empty one (tests/unit/i18n-keys.test.ts), on a few pages: what differs between
 * languages is the words, and each page's structure is the same in all three.
 */
const LANGUAGES = ['ro', 'en', 'it'] as const;
const EVERY_PAGE_IN = 'ro';
const PUBLIC_SMOKE = ['/', '/products', '/products/1', '/company-register'];
const SIGNED_IN_SMOKE = ['/products', '/cart', '/profile'];
const STAFF_SMOKE = ['/admin', '/admin/companies/2', '/admin/products/new', '/admin/people'];
function pagesIn(lng: string, every: string[], smoke: string[]): string[] {
  const missing = smoke.filter((path) => !every.includes(path));
  if (missing.length > 0) throw new Error(`Not pages of the sweep: ${missing.join(', ')}`);
  return lng === EVERY_PAGE_IN ? every : smoke;
}
const VIEWPORTS = [
  { name: 'narrow', width: 375, height: 800 },
  { name: 'wide', width: 1280, height: 900 },
];
const DEMO = { email: 'salon.verified@example.com', password: 'Verified-Salon-2026' };

async function violations(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('.loading')).toHaveCount(0);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations.map(
    (v) => `${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

// Each sweep opens up to dozens of pages and runs axe on each: more than the default minute.
const SWEEP_TIMEOUT_MS = 180_000;

// The sweeps are independent: the workers share them out.
test.describe.configure({ mode: 'parallel' });

async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * The demo data has no orders: one of the verified demo salon's, shipped, with its history,
 * and the list that finds it.
 */
async function shippedOrderPages(request: APIRequestContext): Promise<string[]> {
  const order = await placedOrder(request, DEMO.email, DEMO.password);
  const headers = await staffHeaders(request);
  for (const change of [
    { status: 'CONFIRMED' },
    { status: 'PROCESSING' },
    { status: 'SHIPPED', trackingNumber: 'RO-AWB 1' },
  ]) {
    const moved = await request.post(`/api/admin/orders/${order.id}/status`, {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: change,
    });
    expect(moved.ok()).toBe(true);
  }
  return [`/admin/orders/${order.id}`, `/admin/orders?search=${order.orderNumber}`];
}

const SWEEPS = [
  {
    who: 'public',
    languages: LANGUAGES,
    pages: (lng: string) => pagesIn(lng, PUBLIC, PUBLIC_SMOKE),
  },
  {
    who: 'signed-in',
    account: DEMO,
    languages: LANGUAGES,
    pages: (lng: string) => pagesIn(lng, SIGNED_IN, SIGNED_IN_SMOKE),
  },
  {
    who: 'back-office',
    account: STAFF,
    languages: STAFF_LANGUAGES,
    pages: (lng: string) => pagesIn(lng, STAFF_PAGES, STAFF_SMOKE),
    // A phone held by a clerk on the move, and the desk's screen.
    viewports: [
      { name: 'narrow, 390 px', width: 390, height: 844 },
      { name: 'wide', width: 1280, height: 900 },
    ],
    more: shippedOrderPages,
  },
];

for (const sweep of SWEEPS) {
  for (const viewport of sweep.viewports ?? VIEWPORTS) {
    for (const lng of sweep.languages) {
      test(`every ${sweep.who} page has no accessibility violations (${viewport.name}, ${lng})`, async ({
        page,
        request,
      }) => {
        test.setTimeout(SWEEP_TIMEOUT_MS);
        const more = sweep.more ? await sweep.more(request) : [];
        await page.setViewportSize(viewport);
        if (sweep.account) await signIn(page, sweep.account);
        await page.goto(`/?lng=${lng}`);
        const found: string[] = [];
        for (const path of [...sweep.pages(lng), ...more])
          found.push(...(await violations(page, path)));
        expect(found).toEqual([]);
      });
    }
  }
}

test('the mobile menu and the language switcher work from the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/?lng=en');
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(
    page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Products' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Italiano' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('naturalmente');
});

test('a confirmation dialog keeps the focus inside and gives it back when closed', async ({
  page,
}) => {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/profile');
  const logout = page.getByRole('main').getByRole('button', { name: 'Log out' });
  await logout.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Log out?' });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 4; i += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(logout).toBeFocused();
});

test('every page names itself, the organisation and, on products, the product — without a price for visitors', async ({
  page,
}) => {
  await page.goto('/products/1?lng=en');
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/products\/1$/);
  const data = (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
    (text) => JSON.parse(text) as { '@type': string },
  );
  const product = data.find((d) => d['@type'] === 'Product');
  expect(product).toMatchObject({ name: expect.any(String), sku: expect.any(String) });
  expect(product).not.toHaveProperty('offers');
  await page.goto('/support/faq?lng=en');
  await expect(page).toHaveTitle('Frequently asked questions | Floravia Professional');
  await page.getByText('How long does verification take?').click();
  await expect(page.getByText(/usually within 24–48 hours/).first()).toBeVisible();
});
