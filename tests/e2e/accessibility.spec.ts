import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './portal';
import { PAGES } from '../../src/contracts/staff-routes';
import { placedOrder, staffHeaders } from './helpers';
import { repWithCustomers, signInAsRep } from './reps';
import { STAFF } from './staff';

/** A page's address, with a product that exists for its `:id`. */
function address(path: string, id: number): string {
  const filled = path.replace(':id', String(id));
  if (filled.includes(':')) throw new Error(`Give ${path} a value for its parameter here`);
  return filled;
}

const PUBLIC = [
  ...PAGES.filter((route) => !route.signedIn).map((route) => address(route.path, 1)),
  // The reset page with a link's token shows its form (the token is checked when it is sent).
  '/account/reset-password?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  '/no-such-page',
];
/**
 * The signed-in pages, the public ones that show more to a signed-in user, and what a salon
 * is told at a back-office page and at field sales'.
 */
const SIGNED_IN = [
  '/products',
  '/products/2',
  ...PAGES.filter((route) => route.signedIn && !route.staff && !route.rep).map((route) =>
    address(route.path, 2),
  ),
  '/admin',
  '/rep',
];
/** The back office, swept as staff (company 2 is a demo company waiting for verification). */
const STAFF_PAGES = PAGES.filter((route) => route.staff).map((route) => address(route.path, 2));
/** Field sales, swept as a rep ordering for a customer, and the catalogue with its prices. */
const REP_PAGES = ['/products', ...PAGES.filter((route) => route.rep).map((route) => route.path)];

const PUBLIC_SMOKE = ['/', '/products', '/products/1', '/company-register'];
const SIGNED_IN_SMOKE = ['/products', '/cart', '/profile'];
const STAFF_SMOKE = [
  '/admin',
  '/admin/companies/2',
  '/admin/products/new',
  '/admin/people',
  '/admin/mail',
];
const REP_SMOKE = ['/rep', '/rep/cart', '/rep/customers/new'];

interface Viewport {
  name: string;
  width: number;
  height: number;
}
const PHONE: Viewport = { name: 'narrow', width: 375, height: 800 };
const DESK: Viewport = { name: 'wide', width: 1280, height: 900 };
const TABLET: Viewport = { name: 'tablet', width: 800, height: 1280 };

const DEMO = { email: 'salon.verified@example.com', password: 'Verified-Salon-2026' };

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const described = (where: string, results: AxeResults) =>
  results.violations.map(
    (v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );

/**
 * A page's violations, and those of each e-mail it shows (the back office's copy of a
 * message, in a frame without scripts). axe cannot look into such a frame: it waits 30 s
 * for it, then leaves it out. So the e-mail is checked as a document of its own, against
 * WCAG; a web page's best practice (one main landmark, one h1) is not an e-mail's.
 */
async function violations(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('.loading')).toHaveCount(0);
  const results = await new AxeBuilder({ page })
    .withTags([...WCAG, 'best-practice'])
    .exclude('iframe[srcdoc]')
    .analyze();
  const found = described(path, results);
  const mails = await page
    .locator('iframe[srcdoc]')
    .evaluateAll((frames) => frames.map((frame) => frame.getAttribute('srcdoc') ?? ''));
  for (const html of mails) {
    const mail = await page.context().newPage();
    try {
      await mail.setContent(html);
      found.push(
        ...described(
          `${path} (e-mail)`,
          await new AxeBuilder({ page: mail }).withTags(WCAG).analyze(),
        ),
      );
    } finally {
      await mail.close();
    }
  }
  return found;
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
  // Signed in: a salon lands on the home page, staff in the back office.
  await expect(page).toHaveURL(/\/(admin)?$/);
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

/** The order's pages, and the last message it caused, with its HTML in a frame. */
async function staffPagesMade(request: APIRequestContext): Promise<string[]> {
  const orderPages = await shippedOrderPages(request);
  const listed = await request.get('/api/admin/mail?limit=1', {
    headers: await staffHeaders(request),
  });
  expect(listed.ok()).toBe(true);
  const { messages } = (await listed.json()) as { messages: { id: number }[] };
  return [...orderPages, ...messages.map((message) => `/admin/mail/${message.id}`)];
}

/** A rep signed in, ordering for a customer whose cart holds a line. */
async function repOrdering(page: Page, request: APIRequestContext) {
  const rep = await repWithCustomers(request, ['Salon Aurora']);
  await signInAsRep(page, rep);
  await page.goto('/rep?lng=en');
  await page.getByRole('button', { name: 'Order for Salon Aurora' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await page.goto('/rep/cart');
  const quickEntry = page.getByRole('region', { name: 'Quick entry' });
  await quickEntry.getByRole('combobox', { name: 'SKU, name or barcode' }).fill('sh-hyd-1000');
  await quickEntry.getByRole('combobox', { name: 'SKU, name or barcode' }).press('Enter');
  await expect(quickEntry.getByRole('status')).toHaveText(/^Added 1 ×/);
}

interface Sweep {
  who: string;
  /** Signs the sweep's user in (in English), leaving the page where it can switch language. */
  signIn?: (page: Page, request: APIRequestContext) => Promise<void>;
  /** Every page of the sweep, and the few its other screens and languages are checked on. */
  every: string[];
  smoke: string[];
  /** Pages made for the sweep (e.g. an order's), swept with every page. */
  more?: (request: APIRequestContext) => Promise<string[]>;
  /** The screen its users hold most: every page is swept on it, in the default language. */
  main: Viewport;
  /** The other screen they use: the few pages only. */
  other: Viewport;
  /** The other languages it is offered in: the few pages only, on the main screen. */
  otherLanguages: readonly string[];
}

/**
 * Every page is swept once, in the default language on the screen its users hold most.
 * What the other screen size changes is layout, and what the other languages change is
 * words (their texts have the same keys and no empty one, tests/unit/i18n-keys.test.ts):
 * each is checked on a few pages.
 */
const DEFAULT_LANGUAGE = 'ro';
const SWEEPS: Sweep[] = [
  // Salons open the portal on their phones and install it to the home screen.
  {
    who: 'public',
    every: PUBLIC,
    smoke: PUBLIC_SMOKE,
    main: PHONE,
    other: DESK,
    otherLanguages: ['en', 'it'],
  },
  {
    who: 'signed-in',
    signIn: (page) => signIn(page, DEMO),
    every: SIGNED_IN,
    smoke: SIGNED_IN_SMOKE,
    main: PHONE,
    other: DESK,
    otherLanguages: ['en', 'it'],
  },
  {
    // The desk's screen, and a phone held by a clerk on the move; the maker is in Romania.
    who: 'back-office',
    signIn: (page) => signIn(page, STAFF),
    every: STAFF_PAGES,
    smoke: STAFF_SMOKE,
    more: staffPagesMade,
    main: DESK,
    other: { name: 'narrow, 390 px', width: 390, height: 844 },
    otherLanguages: ['en'],
  },
  {
    // A rep's tablet at the fair, and its phone.
    who: 'field sales',
    signIn: repOrdering,
    every: REP_PAGES,
    smoke: REP_SMOKE,
    main: TABLET,
    other: PHONE,
    otherLanguages: ['en'],
  },
];

for (const sweep of SWEEPS) {
  const missing = sweep.smoke.filter((path) => !sweep.every.includes(path));
  if (missing.length > 0)
    throw new Error(`Not pages of the ${sweep.who} sweep: ${missing.join(', ')}`);
  const runs = [
    { viewport: sweep.main, lng: DEFAULT_LANGUAGE, every: true },
    { viewport: sweep.other, lng: DEFAULT_LANGUAGE, every: false },
    ...sweep.otherLanguages.map((lng) => ({ viewport: sweep.main, lng, every: false })),
  ];
  for (const { viewport, lng, every } of runs) {
    const which = every ? `every ${sweep.who} page has` : `the main ${sweep.who} pages have`;
    test(`${which} no accessibility violations (${viewport.name}, ${lng})`, async ({
      page,
      request,
    }) => {
      test.setTimeout(SWEEP_TIMEOUT_MS);
      const more = every && sweep.more ? await sweep.more(request) : [];
      await sweep.signIn?.(page, request);
      await page.setViewportSize(viewport);
      await page.goto(`/?lng=${lng}`);
      const found: string[] = [];
      for (const path of [...(every ? sweep.every : sweep.smoke), ...more])
        found.push(...(await violations(page, path)));
      expect(found).toEqual([]);
    });
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
