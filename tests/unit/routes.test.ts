import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_ROUTES } from '../../src/contracts/account-routes';
import { REP_ROUTES } from '../../src/contracts/rep-routes';
import {
  ACCOUNT_PATH,
  BACK_OFFICE_PATH,
  FIELD_SALES_PATH,
  matchRoute,
  ROUTES,
} from '../../src/contracts/routes';
import { PAGES, STAFF_ROUTES } from '../../src/contracts/staff-routes';

/** The areas with routers of their own, and their tables. */
const AREAS = {
  'back-office': { path: BACK_OFFICE_PATH, routes: STAFF_ROUTES },
  'field-sales': { path: FIELD_SALES_PATH, routes: REP_ROUTES },
  account: { path: ACCOUNT_PATH, routes: ACCOUNT_ROUTES },
};

/**
 * The page the client's routers show at an address: the app's router (made from the
 * storefront's table), and below the back office's or field sales' path that area's own
 * router (made from its table, each path taken below that path, as descendant routes match).
 */
function routerPage(pathname: string): string | null {
  const routes = [
    ...ROUTES.map((route) => ({ id: route.id, path: route.path })),
    ...Object.entries(AREAS).map(([id, area]) => ({ id, path: `${area.path}/*` })),
    { id: 'not-found', path: '*' },
  ];
  const match = matchRoutes(routes, pathname)?.at(-1);
  const area = AREAS[match?.route.id as keyof typeof AREAS] as
    (typeof AREAS)[keyof typeof AREAS] | undefined;
  if (match && area) {
    const below = pathname.slice(match.pathnameBase.length) || '/';
    const inner = [
      ...area.routes.map((route) => ({
        id: route.id,
        path: route.path.slice(area.path.length) || '/',
      })),
      { id: 'not-found', path: '*' },
    ];
    const id = matchRoutes(inner, below)?.at(-1)?.route.id;
    return id === undefined || id === 'not-found' ? null : id;
  }
  const id = match?.route.id;
  return id === undefined || id === 'not-found' ? null : id;
}

const ADDRESSES = [
  ...PAGES.map((route) => route.path.replace(':id', '7')),
  '/admin/',
  '/admin/no-such-page',
  '/admin/orders/7/more',
  '/administrator',
  '/rep/',
  '/rep/no-such-page',
  '/reps',
  '/account',
  '/account/',
  '/account/no-such-page',
  '/account/reset-password/more',
  '/accounts',
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
    expect(matchRoute(pathname, PAGES)?.route.id ?? null).toBe(routerPage(pathname));
  });

  it('gives a page the values of its parameters', () => {
    expect(matchRoute('/products/42', PAGES)).toMatchObject({
      route: { id: 'product' },
      params: { id: '42' },
    });
  });

  it('names each page and each path once', () => {
    expect(new Set(PAGES.map((route) => route.id)).size).toBe(PAGES.length);
    expect(new Set(PAGES.map((route) => route.path)).size).toBe(PAGES.length);
  });

  it('keeps signed-in pages, and pages known only by their data, out of the sitemap', () => {
    const listed = PAGES.filter((route) => route.inSitemap);
    expect(listed.filter((route) => route.signedIn || route.path.includes(':'))).toEqual([]);
  });

  it('has the server render no signed-in page: it renders for visitors only', () => {
    expect(PAGES.filter((route) => route.signedIn && route.serverRendered)).toEqual([]);
  });

  it('keeps every back-office page, and only those, below the back office’s path, for staff', () => {
    for (const route of STAFF_ROUTES) {
      expect(route.path === BACK_OFFICE_PATH || route.path.startsWith(`${BACK_OFFICE_PATH}/`)).toBe(
        true,
      );
      expect(route).toMatchObject({ signedIn: true, staff: true });
    }
    expect(
      ROUTES.filter(
        (route) => route.path === BACK_OFFICE_PATH || route.path.startsWith(`${BACK_OFFICE_PATH}/`),
      ),
    ).toEqual([]);
  });
});
