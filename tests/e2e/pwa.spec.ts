import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { CACHE_NAMES } from '../../src/contracts/storage-names';
import { expect, test, type Portal } from './portal';
import { CHROME_ARGS, CHROME_PATH } from './chromium';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { cachedPaths, openedBefore, untilControlled } from './helpers';
import { repWithCustomers, signInAsRep } from './reps';

/** The product page's code failed to download: the message shows, and its reload works once it can. */
async function reloadsOnceDownloadable(page: Page) {
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible();
  await page.unroute('**/assets/product-page-*.js');
  await page.getByRole('button', { name: 'Refresh Page' }).click();
  await expect(page.getByRole('button', { name: 'Add to cart' })).toBeVisible();
}

test.describe('without the service worker', () => {
  test.use({ serviceWorkers: 'block' });

  test('a page whose code cannot be downloaded says so and offers a reload', async ({ page }) => {
    await page.goto('/products?lng=en');
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await page.route('**/assets/product-page-*.js', (route) => route.abort('internetdisconnected'));
    await page.getByTestId('product-card').first().getByRole('heading').getByRole('link').click();
    await reloadsOnceDownloadable(page);
  });

  test('a screen opened from the server whose code cannot be downloaded offers a reload that works', async ({
    page,
  }) => {
    await page.route('**/assets/product-page-*.js', (route) => route.abort('internetdisconnected'));
    await page.goto('/products/1?lng=en');
    await reloadsOnceDownloadable(page);
  });

  test('a salon’s screens open offline right after signing in, before the service worker keeps anything', async ({
    page,
    context,
  }) => {
    await signInDemo(page);
    // Once the page was idle, the signed-in screens loaded into it.
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            performance
              .getEntriesByType('resource')
              .filter((entry) => /\/assets\/(cart|orders|sync|profile)-page-/.test(entry.name))
              .length,
        ),
      )
      .toBe(4);
    await context.setOffline(true);
    for (const [link, heading] of [
      ['Cart', 'Cart'],
      ['Orders', 'Orders'],
      ['Sync centre', 'Sync centre'],
      ['Profile', 'Ioana Popescu'],
    ] as const) {
      await page.getByRole('button', { name: 'Ioana' }).click();
      await page.locator('#user-menu-panel').getByRole('link', { name: link, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    }
  });
});

const controlled = untilControlled;

test('the portal meets Chromium’s install criteria', async ({ request, baseURL }) => {
  // A real profile: an incognito window can never install an app.
  const profile = mkdtempSync(join(tmpdir(), 'portal-install-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROME_PATH,
    args: CHROME_ARGS,
    ...(baseURL === undefined ? {} : { baseURL }),
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  try {
    await openedBefore(page);
    await page.goto('/?lng=en');
    await controlled(page);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await request.get(href ?? '')).json()) as {
      icons: { src: string; sizes: string; purpose: string }[];
      screenshots: { src: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Floravia Professional',
      short_name: 'Floravia Pro',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: expect.any(String),
      background_color: expect.any(String),
      description: expect.any(String),
    });
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    for (const { src } of [...manifest.icons, ...manifest.screenshots]) {
      const response = await request.get(src);
      expect(response.status(), src).toBe(200);
      expect(response.headers()['content-type']).toBe('image/png');
    }
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: unknown[];
    };
    expect(installabilityErrors).toEqual([]);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

/**
 * Runs `work` while the server sends the next version of the worker, as a deployment writes
 * it: the worker's script without the compressed copies of the version before (the server
 * would send those as they are). Written in this worker's own copy of the build, which only
 * its server sends.
 */
async function withNextWorker(portal: Portal, work: () => Promise<void>): Promise<void> {
  const worker = join(portal.staticDir, 'sw.js');
  const copies = ['.br', '.gz'].map((extension) => `${worker}${extension}`);
  const original = readFileSync(worker, 'utf8');
  const originalCopies = copies.map((copy) => (existsSync(copy) ? readFileSync(copy) : null));
  try {
    for (const copy of copies) rmSync(copy, { force: true });
    writeFileSync(worker, `${original}\n// next version ${Date.now()}\n`);
    await work();
  } finally {
    writeFileSync(worker, original);
    copies.forEach((copy, i) => {
      const content = originalCopies[i];
      if (content) writeFileSync(copy, content);
    });
  }
}

/** The "new version" prompt. */
const newVersionPrompt = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'A new version of the portal is ready.' });

/** The page looks for a new version, as it does when it opens, and shows the prompt. */
async function updatePrompt(page: Page) {
  await page.evaluate(async () => {
    await (await navigator.serviceWorker.getRegistration())?.update();
  });
  const prompt = newVersionPrompt(page);
  await expect(prompt).toBeVisible({ timeout: 20_000 });
  return prompt;
}

test('a new version becomes a prompt and is applied after a click', async ({ page, portal }) => {
  await openedBefore(page);
  await page.goto('/?lng=en');
  await controlled(page);
  await withNextWorker(portal, async () => {
    const prompt = await updatePrompt(page);
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await page.waitForLoadState('load');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(prompt).toBeHidden();
    expect(
      await page.evaluate(
        async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null,
      ),
    ).toBeNull();
  });
});

test('a new version applied in one tab is applied by “Reload” in another', async ({
  page,
  context,
  portal,
}) => {
  await openedBefore(page);
  await page.goto('/?lng=en');
  await controlled(page);
  const other = await context.newPage();
  await other.goto('/products?lng=en');
  await controlled(other);
  await withNextWorker(portal, async () => {
    const here = await updatePrompt(page);
    const there = await updatePrompt(other);
    await here.getByRole('button', { name: 'Reload' }).click();
    await expect(here).toBeHidden();
    // The other tab still shows the prompt and runs the version before: its button reloads.
    const reloaded = other.waitForEvent('load');
    await there.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect(other.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    await expect(there).toBeHidden();
  });
});

test('an app left open finds a new version when the connection returns and when shown again', async ({
  page,
  context,
  portal,
}) => {
  await openedBefore(page);
  await page.goto('/?lng=en');
  await controlled(page);
  const prompt = newVersionPrompt(page);
  await withNextWorker(portal, async () => {
    // Nothing is loaded again: the app looks by itself once back in range.
    await context.setOffline(true);
    await context.setOffline(false);
    await expect(prompt).toBeVisible({ timeout: 20_000 });
  });
  await prompt.getByRole('button', { name: 'Reload' }).click();
  await expect(prompt).toBeHidden();

  // Shown again after a while (the clock moved on by an hour), it looks too.
  await withNextWorker(portal, async () => {
    await page.evaluate(() => {
      const now = Date.now.bind(Date);
      Date.now = () => now() + 60 * 60 * 1000;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect(prompt).toBeVisible({ timeout: 20_000 });
  });
});

test('an iPad, whose Safari says it is a Mac, is told how to install the portal; a Mac is not', async ({
  browser,
}) => {
  const safari =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
  // An iPad's touch screen takes five fingers; a Mac's has none.
  for (const [touchPoints, shown] of [
    [5, 1],
    [0, 0],
  ] as const) {
    const context = await browser.newContext({ userAgent: safari });
    await context.addInitScript((points) => {
      Object.defineProperty(Navigator.prototype, 'maxTouchPoints', { get: () => points });
    }, touchPoints);
    const page = await context.newPage();
    await page.goto('/?lng=en');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Install on iPhone or iPad')).toHaveCount(shown);
    await context.close();
  }
});

test('the app’s scripts and the service worker are sent compressed at the build’s best level', async ({
  page,
  request,
  portal,
}) => {
  await page.goto('/?lng=en');
  const entry = await page.locator('script[type="module"][src]').first().getAttribute('src');
  for (const path of [entry ?? '', '/sw.js']) {
    const response = await request.get(path, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.headers()['content-encoding'], path).toBe('br');
    // The very copy the build wrote, not one compressed quickly on the way out.
    expect(Number(response.headers()['content-length']), path).toBe(
      statSync(join(portal.staticDir, `${path}.br`)).size,
    );
  }
});

test('a first screen downloads what it shows; a second screen keeps the app and the catalogue on the device', async ({
  page,
  context,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.goto('/products?lng=en');
  await expect(page.getByTestId('product-card')).toHaveCount(12);
  // The page is up and idle (whatever waits for that has had its 2 s): still no service
  // worker, sync engine or catalogue copy.
  await page.waitForFunction(() => performance.getEntriesByName('first-screen').length > 0);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(2_500);
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration())).toBeUndefined();
  expect(
    asked.filter((path) => /^\/(sw\.js|api\/products\/mirror|assets\/db-)/.test(path)),
  ).toEqual([]);
  await expect(page.getByText('Catalogue saved on this device')).toBeHidden();

  // The visitor stays: a second screen.
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByLabel('Sort by').selectOption({ label: 'Price' });
  await controlled(page);
  await expect(page.getByText('Catalogue saved on this device')).toBeVisible();
  await context.setOffline(true);
  await page.goto('/products?lng=en&sort=newest');
  await expect(
    page.getByText(/You are offline: showing the catalogue saved on this device/),
  ).toBeVisible();
  await expect(page.getByTestId('product-card')).toHaveCount(12);
});

test('a device that comes back keeps the app from its first screen on', async ({ page }) => {
  await page.goto('/?lng=en');
  await page.waitForFunction(() => performance.getEntriesByName('first-screen').length > 0);
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration())).toBeUndefined();
  // The same device, another day.
  await page.goto('/support/faq?lng=en');
  await controlled(page);
});

test('a kept app holds what it needs offline, not the icons the browser installs with', async ({
  page,
  request,
}) => {
  await openedBefore(page);
  await page.goto('/?lng=en');
  await controlled(page);
  const cached = await cachedPaths(page);
  expect(cached).toContain('/index.html');
  expect(cached.filter((path) => path.startsWith('/icons/'))).toEqual([]);
  // They are still there for the browser to fetch when the portal is installed.
  expect((await request.get('/icons/icon-512.png')).status()).toBe(200);
});

test('the service worker is a classic script, registered through workbox-window, and keeps the app offline', async ({
  page,
  context,
  request,
}) => {
  // What the page asks the browser to register, as it asks it.
  await page.addInitScript(() => {
    // Read off the prototype with Reflect.get: it is called below on the page's container.
    const register = Reflect.get(ServiceWorkerContainer.prototype, 'register');
    ServiceWorkerContainer.prototype.register = function (url, options) {
      sessionStorage.setItem(
        'registered',
        JSON.stringify({ url: String(url), scope: options?.scope, type: options?.type }),
      );
      return register.call(this, url, options);
    };
  });
  await openedBefore(page);
  await page.goto('/products?lng=en');
  await controlled(page);
  await expect(page.getByText('Catalogue saved on this device')).toBeVisible();
  const registered = await page.evaluate(() => sessionStorage.getItem('registered'));
  // No type: a classic worker, which every browser with service workers runs.
  expect(JSON.parse(registered ?? 'null')).toEqual({ url: '/sw.js', scope: '/' });
  const loaded = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
  );
  expect(loaded).toContainEqual(expect.stringMatching(/^\/assets\/workbox-window[\w.-]*\.js$/));

  // The script parses as a classic one (no import or export, no import.meta) and loads
  // nothing more (import() is refused in a classic worker): it carries what it runs.
  const worker = await (await request.get('/sw.js')).text();
  expect(() => new Script(worker, { filename: 'sw.js' })).not.toThrow();
  expect(worker).not.toMatch(/\bimport\s*\(|\bimportScripts\s*\(/);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await page.goto('/products/1');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hydra Balance Shampoo 1000 ml');
});

test('a kept app holds the texts of its own language, not of the other two', async ({ page }) => {
  await openedBefore(page);
  await page.goto('/products?lng=en');
  await controlled(page);
  const texts = (await cachedPaths(page)).flatMap(
    (path) => /^\/assets\/texts-([a-z]{2}-(?:first|home|rest))-/.exec(path)?.[1] ?? [],
  );
  expect(texts.sort()).toEqual(['en-first', 'en-home', 'en-rest']);
});

test('a language used once online is there offline; one never used says it needs a connection', async ({
  page,
  context,
}) => {
  const languages = page.getByRole('group', { name: /Language|Lingua|Limbă/ });
  await openedBefore(page);
  await page.goto('/products?lng=en');
  await controlled(page);
  await languages.getByRole('button', { name: 'Italiano' }).click();
  await expect(page.getByRole('heading', { name: 'Prodotti', level: 1 })).toBeVisible();

  await context.setOffline(true);
  await page.goto('/support/faq');
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await expect(page.getByRole('heading', { name: 'Domande frequenti', level: 1 })).toBeVisible();
  await languages.getByRole('button', { name: 'English' }).click();
  await expect(
    page.getByRole('heading', { name: 'Frequently asked questions', level: 1 }),
  ).toBeVisible();

  await languages.getByRole('button', { name: 'Română' }).click();
  await expect(page.getByText('This language is not on this device yet.')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await context.setOffline(false);
  await languages.getByRole('button', { name: 'Română' }).click();
  await expect(page.getByRole('heading', { name: 'Întrebări frecvente', level: 1 })).toBeVisible();
});

const DEMO = { email: 'salon.verified@example.com', password: 'Verified-Salon-2026' };

async function signInDemo(page: import('@playwright/test').Page) {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** The signed-in screens' own chunks among what the service worker keeps. */
const accountScreens = async (page: Page) =>
  (await cachedPaths(page)).filter((path) =>
    /^\/assets\/(cart|orders|sync|profile)-page-/.test(path),
  );
/** The back office's screens among what the service worker keeps: staff only. */
const staffScreens = async (page: Page) =>
  (await cachedPaths(page)).filter((path) =>
    /^\/assets\/(dashboard|companies|company|audit)-page-/.test(path),
  );
/**
 * Field sales' own files among what the service worker keeps: reps only. (The pro-forma's PDF
 * library and fonts are kept for salons too, whose orders have pro-formas as well.)
 */
const fieldSalesFiles = async (page: Page) =>
  (await cachedPaths(page)).filter((path) => /^\/assets\/(customers-page|ordering-for)/.test(path));

test('the signed-in screens are kept once someone signs in, not for a visitor; the back office’s and field sales’ not for a salon', async ({
  page,
  context,
}) => {
  await openedBefore(page);
  await page.goto('/products?lng=en');
  await controlled(page);
  expect(await accountScreens(page)).toEqual([]);
  expect(await staffScreens(page)).toEqual([]);
  expect(await fieldSalesFiles(page)).toEqual([]);

  await signInDemo(page);
  await expect.poll(async () => (await accountScreens(page)).length).toBe(4);
  expect(await staffScreens(page)).toEqual([]);
  expect(await fieldSalesFiles(page)).toEqual([]);
  await context.setOffline(true);
  for (const [path, heading] of [
    ['/cart', 'Cart'],
    ['/orders', 'Orders'],
    ['/sync', 'Sync centre'],
    ['/profile', 'Ioana Popescu'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  }
});

/**
 * Writes the next version of the app into `dir` as a deployment does when every file
 * changed: each file of assets/ under a new name (a new hash), every reference to it
 * rewritten, new revisions in the worker's precache list. The files of the version before
 * stay, as on a server that keeps them for pages still open. Returns what undoes it.
 */
function publishNextVersion(dir: string): () => void {
  const assets = join(dir, 'assets');
  const renamed = new Map<string, string>();
  for (const name of readdirSync(assets)) {
    const next = name.replace(/-([\w-]{8})(\.[a-z0-9]+)$/, '-$1n$2');
    if (next !== name && !/\.(br|gz)$/.test(name)) renamed.set(name, next);
  }
  const names = new RegExp(
    [...renamed.keys()].map((name) => name.replace(/\./g, '\\.')).join('|'),
    'g',
  );
  const rewrite = (text: string) => text.replace(names, (name) => renamed.get(name) ?? name);
  const written: string[] = [];
  for (const [name, next] of renamed) {
    const from = join(assets, name);
    const to = join(assets, next);
    const binary = !/\.(js|css|html|json|webmanifest)$/.test(name);
    writeFileSync(to, binary ? readFileSync(from) : rewrite(readFileSync(from, 'utf8')));
    written.push(to);
  }
  // The pages and the worker, rewritten in place; their compressed copies set aside, as
  // the server would send those as they are.
  const before = new Map<string, Buffer>();
  for (const file of ['index.html', 'sw.js', 'manifest.webmanifest']) {
    const path = join(dir, file);
    for (const copy of [path, `${path}.br`, `${path}.gz`]) {
      if (existsSync(copy)) before.set(copy, readFileSync(copy));
    }
    rmSync(`${path}.br`, { force: true });
    rmSync(`${path}.gz`, { force: true });
    let text = rewrite(readFileSync(path, 'utf8'));
    if (file === 'sw.js') text = text.replace(/"revision":"(\w+)"/g, '"revision":"$1n"');
    writeFileSync(path, text);
  }
  return () => {
    for (const [path, content] of before) writeFileSync(path, content);
    for (const path of written) rmSync(path, { force: true });
  };
}

/**
 * A next version is published while `page` is open (signed in), found online and left
 * waiting; the app is closed and opened again offline, where the new version takes over.
 * Returns a page of the reopened app; `undo` puts the version before back.
 */
async function nextVersionTakesOverOffline(
  page: Page,
  context: BrowserContext,
  portal: Portal,
): Promise<{ again: Page; undo: () => Promise<void> }> {
  const undoFiles = publishNextVersion(portal.staticDir);
  const undo = async () => {
    undoFiles();
    await portal.restart();
  };
  try {
    // The server sends the files it found at its start: deployed, it starts again.
    await portal.restart();
    // The app finds the new version online; nobody clicks "Reload".
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    // Installing downloads the whole new version: seconds on a busy machine.
    await expect
      .poll(
        () =>
          page.evaluate(
            async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null,
          ),
        { timeout: 30_000 },
      )
      .toBe('installed');
    // Closed, then opened at the fair with no network: the new version takes effect once
    // no page uses the one before.
    await page.close();
    await context.setOffline(true);
    await expect
      .poll(async () => {
        const states = context.serviceWorkers().map((worker) =>
          worker
            .evaluate(() => {
              const { registration } = self as unknown as {
                registration: ServiceWorkerRegistration;
              };
              return registration.waiting === null && registration.active?.state === 'activated';
            })
            .catch(() => false),
        );
        return (await Promise.all(states)).includes(true);
      })
      .toBe(true);
    return { again: await context.newPage(), undo };
  } catch (error) {
    await undo();
    throw error;
  }
}

test('a new version that takes effect offline keeps the language and the signed-in screens in use', async ({
  page,
  context,
  portal,
}) => {
  // Two restarts of the server, as two deployments.
  test.setTimeout(120_000);
  await signInDemo(page);
  await controlled(page);
  await expect.poll(async () => (await accountScreens(page)).length).toBe(4);
  const englishTexts = async (on: Page) =>
    (await cachedPaths(on)).filter((path) => /^\/assets\/texts-en-/.test(path)).sort();
  await expect.poll(async () => (await englishTexts(page)).length).toBe(3);
  const { again, undo } = await nextVersionTakesOverOffline(page, context, portal);
  try {
    for (const [path, heading] of [
      ['/cart?lng=en', 'Cart'],
      ['/orders?lng=en', 'Orders'],
      ['/products?lng=en', 'Products'],
    ] as const) {
      await again.goto(path);
      await expect(again.getByRole('heading', { level: 1 })).toHaveText(heading);
    }
    // The new version's files, its texts among them, and not the old ones any more.
    const scripts = await again.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
    );
    expect(scripts.filter((path) => /^\/assets\/texts-en-first-/.test(path))).toEqual([
      expect.stringMatching(/n\.js$/),
    ]);
    expect(await englishTexts(again)).toEqual([
      expect.stringMatching(/first-[\w-]+n\.js$/),
      expect.stringMatching(/home-[\w-]+n\.js$/),
      expect.stringMatching(/rest-[\w-]+n\.js$/),
    ]);
  } finally {
    await undo();
  }
});

test('a new version that takes effect offline keeps a sales rep’s screens', async ({
  page,
  context,
  portal,
  request,
}) => {
  // Two restarts of the server, as two deployments.
  test.setTimeout(120_000);
  const rep = await repWithCustomers(request, ['Salon Lumina']);
  await signInAsRep(page, rep);
  await controlled(page);
  await expect.poll(async () => (await fieldSalesFiles(page)).length).toBeGreaterThan(0);
  const { again, undo } = await nextVersionTakesOverOffline(page, context, portal);
  try {
    await again.goto('/rep?lng=en');
    await expect(again.getByRole('heading', { level: 1, name: 'My customers' })).toBeVisible();
    // Only the new version's files of field sales, downloaded while it installed.
    const kept = await fieldSalesFiles(again);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.filter((path) => !/n\.[a-z]+$/.test(path))).toEqual([]);
  } finally {
    await undo();
  }
});

test('“Make available offline” keeps every product and picture, so every product page shows without a network', async ({
  page,
  context,
  request,
}) => {
  // Keeping the catalogue and its pictures takes up to a minute on a slow machine.
  test.setTimeout(120_000);
  await signInDemo(page);
  await controlled(page);
  await page.goto('/sync');
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await expect(
    page.getByText('The whole catalogue and its pictures are on this device.'),
  ).toBeVisible({ timeout: 60_000 });
  // Every product on sale: the demo catalogue and what other tests of this worker added.
  const { ids } = (await (await request.get('/api/products/ids')).json()) as { ids: number[] };
  await expect(page.getByTestId('device-storage')).toContainText(`${ids.length} products`);
  await expect(page.getByTestId('device-storage')).toContainText(/Pictures: (\d+) of \1\./);

  const names = new Map<number, string>();
  for (const id of ids) {
    const { product } = (await (await request.get(`/api/products/${id}`)).json()) as {
      product: { name: string };
    };
    names.set(id, product.name);
  }
  // Kept more than a month ago, as at a fair weeks after the catalogue was saved: pictures
  // do not change under their name, so they are kept for as long as the catalogue is.
  await page.evaluate(async (cacheName) => {
    const cache = await caches.open(cacheName);
    const monthAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toUTCString();
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      if (!response) continue;
      const headers = new Headers(response.headers);
      headers.set('date', monthAgo);
      await cache.put(request, new Response(await response.blob(), { headers }));
    }
  }, CACHE_NAMES.productImages);
  // Nor does the browser's own cache still hold them by then.
  await (await context.newCDPSession(page)).send('Network.clearBrowserCache');

  await context.setOffline(true);
  // The portal is loaded offline once; from there each product page is opened as the
  // browser's back and forward buttons open it, without loading the portal again.
  await page.goto(`/products/${ids[0]}`);
  for (const id of ids) {
    await page.evaluate((path) => {
      history.pushState(null, '', path);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `/products/${id}`);
    await expect(page.locator('main h1')).toHaveText(names.get(id)!);
    await expect(page.locator('.product-detail__price')).toContainText('€');
    const image = page.locator('.product-detail__main-image');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  }
});

test('a full device is reported with what to do', async ({ page }) => {
  await signInDemo(page);
  await controlled(page);
  await page.addInitScript(() => {
    Cache.prototype.put = () =>
      Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
  });
  await page.goto('/sync');
  await page.evaluate(async () => {
    for (const name of await caches.keys())
      if (name.startsWith('product-images')) await caches.delete(name);
  });
  await page.getByRole('button', { name: 'Make available offline' }).click();
  await expect(page.getByRole('alert')).toContainText('This device is out of storage space.');
});
