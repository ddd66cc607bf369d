/** robots.txt and the sitemap: the public pages and every product, for search engines. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { products } from '../db/schema.js';
import { onSale } from '../services/catalogue.js';
import { PAGES } from '../../src/contracts/staff-routes.js';

/** The pages search engines are pointed to; each product is listed besides. */
const SITEMAP_PATHS = PAGES.filter((route) => route.inSitemap).map((route) => route.path);
/**
 * What search engines are kept from: the API, the signed-in pages (to their first
 * parameter) and the pages e-mailed links open.
 */
const PRIVATE_PATHS = [
  '/api/',
  ...PAGES.filter((route) => route.signedIn || route.noIndex).map((route) =>
    route.path.replace(/:.*$/, ''),
  ),
];

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export const seoRoutes: FastifyPluginAsyncTypebox<{ db: Db; publicUrl: string }> = async (
  app,
  { db, publicUrl },
) => {
  // The configured address, never the request's Host: a forged Host must not reach a
  // cache or a search engine as the site's address.
  const origin = new URL(publicUrl).origin;
  app.get('/robots.txt', async (_request, reply) => {
    const lines = [
      'User-agent: *',
      'Allow: /',
      ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
      `Sitemap: ${origin}/sitemap.xml`,
    ];
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`${lines.join('\n')}\n`);
  });

  app.get('/sitemap.xml', async (_request, reply) => {
    const rows = await db
      .select({ id: products.id, updatedAt: products.updatedAt })
      .from(products)
      // Only products on sale: one taken off sale has no page to find.
      .where(onSale)
      .orderBy(products.id);
    const urls = [
      ...SITEMAP_PATHS.map((path) => `<url><loc>${escapeXml(origin + path)}</loc></url>`),
      ...rows.map(
        (row) =>
          `<url><loc>${escapeXml(`${origin}/products/${row.id}`)}</loc><lastmod>${row.updatedAt.toISOString()}</lastmod></url>`,
      ),
    ];
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
      );
  });
};
