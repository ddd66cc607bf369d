import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { PAGES } from '../../src/contracts/staff-routes';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let dir: string;
const BUILT_COPY = Buffer.from('the build compressed this at its best level');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-static-'));
  mkdirSync(join(dir, 'assets'));
  // Large enough to be worth compressing, as the real shell is.
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><div id="root"></div><!--${'shell '.repeat(400)}-->`,
  );
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(
    join(dir, 'assets', 'index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(5000))});`,
  );
  // The build's brotli copy of a bundle (any bytes do: the server must send them as they are).
  writeFileSync(join(dir, 'assets', 'shell-abc123.js'), `console.log(${'1'.repeat(3000)});`);
  writeFileSync(join(dir, 'assets', 'shell-abc123.js.br'), BUILT_COPY);
  testDb = await createTestDatabase();
  app = await buildApp({
    database: testDb.database,
    staticDir: dir,
    publicUrl: 'https://portal.example',
  });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** An address of each page in the route table, a product's for its `:id`. */
const PAGE_ADDRESSES = PAGES.map((route) => route.path.replace(':id', '12'));

describe('serving the built app', () => {
  it.each([...PAGE_ADDRESSES, '/products/12?lng=en', '/products/', '/Support/FAQ'])(
    'answers the page %s with index.html, never cached',
    async (url) => {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('id="root"');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each(['/some/unknown/page', '/products/12/reviews', '/support', '/carts', '/favicon.ico'])(
    'answers %s, which is no page, with a 404 and the app to say so',
    async (url) => {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('id="root"');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it('caches hashed bundles for a year as immutable', async () => {
    const response = await app.inject('/assets/index-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('never caches the service worker', async () => {
    const response = await app.inject('/sw.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('compresses what it serves', async () => {
    const response = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('sends the compressed copy the build wrote when the browser accepts it', async () => {
    const response = await app.inject({
      url: '/assets/shell-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.rawPayload.equals(BUILT_COPY)).toBe(true);
    const plain = await app.inject('/assets/shell-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('console.log(111');
  });

  it.each(['/', '/products', '/some/unknown/page'])(
    'compresses the page it answers for %s',
    async (url) => {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['content-encoding']).toBe('br');
    },
  );

  it('answers a missing bundle or API path with a 404, not the app', async () => {
    expect((await app.inject('/assets/missing.js')).statusCode).toBe(404);
    const api = await app.inject('/api/missing');
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toContain('application/json');
  });

  it('sends the security headers', async () => {
    const { headers } = await app.inject('/products');
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // WebAssembly (the barcode reader) from the portal's own files; never code made from text.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    // The back office shows a document from memory (a blob: address) in a frame, and nothing else.
    expect(csp).toContain('frame-src blob:;');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toContain('microphone=()');
    // A sales rep scans barcodes with the camera; nothing the portal embeds may use it.
    expect(headers['permissions-policy']).toContain('camera=(self)');
    // frame-ancestors says it; the older header would only repeat it.
    expect(headers['x-frame-options']).toBeUndefined();
  });

  it('sends HSTS only over HTTPS', async () => {
    expect((await app.inject('/products')).headers['strict-transport-security']).toBeUndefined();
    const proxied = await buildApp({ database: testDb.database, staticDir: dir, trustProxy: true });
    try {
      const secure = await proxied.inject({
        url: '/products',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(secure.headers['strict-transport-security']).toContain('max-age=31536000');
    } finally {
      await proxied.close();
    }
  });
});

describe('search engines', () => {
  it('get a robots.txt that keeps private pages out and points to the sitemap', async () => {
    const response = await app.inject({ url: '/robots.txt', headers: { host: 'forged.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain('Disallow: /api/');
    expect(response.body).toContain('Disallow: /cart');
    expect(response.body).toContain('Sitemap: https://portal.example/sitemap.xml');
    expect(response.body).not.toContain('forged');
  });

  it('get a sitemap of the public pages at the configured address, whatever the Host header says', async () => {
    const response = await app.inject({ url: '/sitemap.xml', headers: { host: 'forged.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/xml');
    for (const path of ['/', '/products', '/support/faq', '/terms', '/privacy']) {
      expect(response.body).toContain(`<loc>https://portal.example${path}</loc>`);
    }
    expect(response.body).not.toContain('forged');
    expect(response.body).not.toContain('/cart');
  });

  it('find in the sitemap exactly the pages the route table lists there', async () => {
    const response = await app.inject('/sitemap.xml');
    const listed = [...response.body.matchAll(/<loc>https:\/\/portal\.example([^<]*)<\/loc>/g)].map(
      (found) => found[1] ?? '',
    );
    const pages = listed.filter((path) => !/^\/products\/\d+$/.test(path));
    const inSitemap = PAGES.filter((route) => route.inSitemap).map((route) => route.path);
    expect(pages.toSorted()).toEqual(inSitemap.toSorted());
  });

  it('are kept from every signed-in page of the route table', async () => {
    const { body } = await app.inject('/robots.txt');
    for (const route of PAGES.filter((page) => page.signedIn)) {
      // A page with a parameter (/admin/companies/:id) is kept out by what comes before it.
      expect(body).toContain(`Disallow: ${route.path.replace(/:.*$/, '')}\n`);
    }
  });
});
