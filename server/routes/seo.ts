/** robots.txt and the sitemap: the public pages and every product, for search engines. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { products } from '../db/schema.js';

const PUBLIC_PATHS = [
  '/',
  '/products',
  '/register',
  '/company-register',
  '/login',
  '/support/faq',
  '/support/shipping',
  '/support/returns',
  '/support/warranty',
  '/terms',
  '/privacy',
];
/** Pages that are private or only make sense signed in. */
const PRIVATE_PATHS = ['/api/', '/cart', '/orders', '/profile', '/sync'];

/** The public address of the site: PUBLIC_URL when set, else the request's own host. */
function originOf(request: FastifyRequest): string {
  if (process.env.PUBLIC_URL) return process.env.PUBLIC_URL.replace(/\/$/, '');
  return `${request.protocol}://${request.host}`;
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export const seoRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get('/robots.txt', async (request, reply) => {
    const lines = [
      'User-agent: *',
      'Allow: /',
      ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
      `Sitemap: ${originOf(request)}/sitemap.xml`,
    ];
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`${lines.join('\n')}\n`);
  });

  app.get('/sitemap.xml', async (request, reply) => {
    const origin = originOf(request);
    const rows = await db
      .select({ id: products.id, updatedAt: products.updatedAt })
      .from(products)
      .orderBy(products.id);
    const urls = [
      ...PUBLIC_PATHS.map((path) => `<url><loc>${escapeXml(origin + path)}</loc></url>`),
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
