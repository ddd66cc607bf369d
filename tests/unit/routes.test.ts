import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { matchRoute, ROUTES } from '../../src/contracts/routes';

/** The page the client's router shows at an address (its routes are made from the table). */
function routerPage(pathname: string): string | null {
  const routes = [
    ...ROUTES.map((route) => ({ id: route.id, path: route.path })),
    { id: 'not-found', path: '*' },
  ];
  const id = matchRoutes(routes, pathname)?.at(-1)?.route.id;
  return id === undefined || id === 'not-found' ? null : id;
}

const ADDRESSES = [
  ...ROUTES.map((route) => route.path.replace(':id', '7')),
  '//',
  '/products/',
  '/products//',
  '/PRODUCTS/7',
  '/products/not-a-number',
  '/products/7/reviews',
  '/support',
  '/support/faq/more',
  '/support/unknown',
  '/carts',
  '/cart.json',
  '/no-such-page',
  '/index.html',
];

describe('the route table', () => {
  it.each(ADDRESSES)('finds the page the client router shows at %s', (pathname) => {
    expect(matchRoute(pathname)?.route.id ?? null).toBe(routerPage(pathname));
  });

  it('gives a page the values of its parameters', () => {
    expect(matchRoute('/products/42')).toMatchObject({
      route: { id: 'product' },
      params: { id: '42' },
    });
  });

  it('names each page and each path once', () => {
    expect(new Set(ROUTES.map((route) => route.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((route) => route.path)).size).toBe(ROUTES.length);
  });

  it('keeps signed-in pages, and pages known only by their data, out of the sitemap', () => {
    const listed = ROUTES.filter((route) => route.inSitemap);
    expect(listed.filter((route) => route.signedIn || route.path.includes(':'))).toEqual([]);
  });

  it('has the server render no signed-in page: it renders for visitors only', () => {
    expect(ROUTES.filter((route) => route.signedIn && route.serverRendered)).toEqual([]);
  });
});
