import { request as httpRequest } from 'node:http';
import { expect, test } from './portal';
import { SESSION_KEYS } from '../../src/contracts/storage-names';
import { approvedSalon, signInAs } from './helpers';

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
