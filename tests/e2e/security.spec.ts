import { request as httpRequest } from 'node:http';
import { expect, test } from './portal';
import { SESSION_KEYS } from '../../src/contracts/storage-names';
import type { Page } from '@playwright/test';
import { approvedSalon, catalogueReady, signInAs } from './helpers';

/** Private answers the signed-in app read: priced products, the cart, orders, the user. */
const PRIVATE_READS = [
  '/api/products/1',
  '/api/products?limit=12',
  '/api/cart',
  '/api/orders',
  '/api/auth/me',
];

test('after signing out, no price or personal answer can be had from the browser’s cache', async ({
  page,
  request,
}) => {
  const salon = await approvedSalon(request, 'cache');
  await signInAs(page, salon.email);
  await page.goto('/products/1?lng=en');
  await expect(page.getByText(/€/).first()).toBeVisible();
  // The reads the app makes, with the session's token: what a cache could have kept.
  const priced = await page.evaluate(
    async ({ urls, key }) => {
      const token = localStorage.getItem(key) ?? sessionStorage.getItem(key);
      const bodies = await Promise.all(
        urls.map((url) =>
          fetch(url, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text()),
        ),
      );
      return bodies.filter((body) => body.includes('"price"')).length;
    },
    { urls: PRIVATE_READS, key: SESSION_KEYS.accessToken },
  );
  expect(priced).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Mara' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();

  const fromCache = await page.evaluate(async (urls) => {
    const found: string[] = [];
    for (const url of urls) {
      for (const cache of ['only-if-cached', 'force-cache'] as const) {
        const body = await fetch(url, { cache, mode: 'same-origin' })
          .then((r) => r.text())
          .catch(() => '');
        if (body.includes('"price"') || body.includes('"email"')) found.push(`${cache} ${url}`);
      }
    }
    return found;
  }, PRIVATE_READS);
  expect(fromCache).toEqual([]);
});

/** What the device keeps of a session, and whose prices its catalogue holds. */
function keptOnDevice(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ refreshToken: string | null; catalogueViewer: string | null }>(
        (resolve, reject) => {
          const opened = indexedDB.open('hair-care-portal');
          opened.onerror = () => reject(opened.error!);
          opened.onsuccess = () => {
            const tx = opened.result.transaction(['session', 'mirrorState']);
            const session = tx.objectStore('session').get('current');
            const mirror = tx.objectStore('mirrorState').get('catalogue');
            tx.oncomplete = () => {
              const kept = session.result as { refreshToken: string } | undefined;
              const state = mirror.result as { viewer: string } | undefined;
              resolve({
                refreshToken: kept?.refreshToken ?? null,
                catalogueViewer: state?.viewer ?? null,
              });
              opened.result.close();
            };
            tx.onerror = () => reject(tx.error!);
          };
        },
      ),
  );
}

test('a session not remembered is forgotten on the device, and ended, once the browser is closed', async ({
  page,
  context,
  request,
}) => {
  const salon = await approvedSalon(request, 'forget');
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(salon.email);
  await page.getByLabel('Password', { exact: true }).fill(salon.password);
  await page.getByLabel('Remember me').uncheck();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Mara' })).toBeVisible();
  await catalogueReady(page);
  const kept = await keptOnDevice(page);
  expect(kept.refreshToken).toBeTruthy();
  expect(kept.catalogueViewer).not.toBe('visitor');

  /** A new tab, signed out (its session storage is its own), once its sync engine runs. */
  const newTab = async () => {
    const tab = await context.newPage();
    await tab.goto('/?lng=en');
    await expect(tab.getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect
      .poll(() =>
        tab.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .some((entry) => /\/assets\/device-[^/]*\.js$/.test(entry.name)),
        ),
      )
      .toBe(true);
    await tab.waitForTimeout(1000);
    return tab;
  };
  // The browser is still open (the first tab could have been put to sleep): nothing is forgotten.
  await page.close();
  const other = await newTab();
  expect((await keptOnDevice(other)).refreshToken).toBe(kept.refreshToken);
  await other.close();

  // The browser closed: its cookies without an expiry are gone, and the next page forgets.
  await context.clearCookies({ name: 'portal-browser-open' });
  const next = await newTab();
  await expect.poll(async () => (await keptOnDevice(next)).refreshToken).toBeNull();
  expect((await keptOnDevice(next)).catalogueViewer ?? 'visitor').toBe('visitor');
  // And the server ended it: its refresh token renews nothing.
  await expect
    .poll(async () =>
      (
        await request.post('/api/auth/refresh', { data: { refreshToken: kept.refreshToken } })
      ).status(),
    )
    .toBe(401);
});

test('pages name the configured address, never the Host header a request forged', async ({
  baseURL,
}) => {
  const { hostname, port } = new URL(baseURL ?? '');
  for (const path of ['/', '/products', '/products/1', '/robots.txt', '/sitemap.xml']) {
    const body = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(
        { host: hostname, port, path, headers: { host: 'forged.example' } },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(text));
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(body.length).toBeGreaterThan(0);
    expect(body, path).not.toContain('forged.example');
  }
});
