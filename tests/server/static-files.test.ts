import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(
    join(dir, 'assets', 'index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(5000))});`,
  );
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database, staticDir: dir });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('serving the built app', () => {
  it.each(['/', '/products', '/products/12?lng=en', '/some/unknown/page'])(
    'answers the app route %s with index.html, never cached',
    async (url) => {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
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
    expect(csp).toContain("script-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});

describe('search engines', () => {
  it('get a robots.txt that keeps private pages out and points to the sitemap', async () => {
    const response = await app.inject({ url: '/robots.txt', headers: { host: 'portal.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain('Disallow: /api/');
    expect(response.body).toContain('Disallow: /cart');
    expect(response.body).toContain('Sitemap: http://portal.example/sitemap.xml');
  });

  it('get a sitemap of the public pages', async () => {
    const response = await app.inject({ url: '/sitemap.xml', headers: { host: 'portal.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/xml');
    for (const path of ['/', '/products', '/support/faq', '/terms', '/privacy']) {
      expect(response.body).toContain(`<loc>http://portal.example${path}</loc>`);
    }
    expect(response.body).not.toContain('/cart');
  });
});
