/**
 * The app's pages, written once: the client's router, the server (which addresses are
 * pages, which it renders), the sitemap, robots.txt and the accessibility sweep all read
 * this table and the back office's (staff-routes.ts), which loads only with the back office. Data only, so that the server and the first screen can import it without
 * any page's code; the client maps each id to its screen (src/app/pages.tsx).
 */

/** A page of the app; a flag left out is false. */
export interface PageRoute {
  /** Names the page; the client's map from ids to screens must cover every one. */
  id: string;
  /** As React Router writes it: `:name` stands for one part of the address. */
  path: string;
  /** Only for a signed-in user: guarded in the app and kept from search engines. */
  signedIn?: boolean;
  /** Only for the maker's staff (the back office): guarded in the app, and by the server's API. */
  staff?: boolean;
  /** Only for the maker's sales reps (field sales): guarded in the app, and by the server's API. */
  rep?: boolean;
  /** Only for a salon's user: staff have no company, so no cart, orders or sync of their own. */
  salon?: boolean;
  /** Listed in the sitemap (a page with a parameter is listed by its data instead). */
  inSitemap?: boolean;
  /** Rendered by the server on a first visit; the others render in the browser. */
  serverRendered?: boolean;
  /** Kept from search engines though anyone may open it (a page that links in e-mail open). */
  noIndex?: boolean;
}

const TABLE = [
  { id: 'home', path: '/', inSitemap: true, serverRendered: true },
  { id: 'products', path: '/products', inSitemap: true, serverRendered: true },
  // Every product is in the sitemap, listed from the catalogue.
  { id: 'product', path: '/products/:id', serverRendered: true },
  { id: 'login', path: '/login', inSitemap: true },
  { id: 'register', path: '/register', inSitemap: true },
  { id: 'company-register', path: '/company-register', inSitemap: true },
  { id: 'faq', path: '/support/faq', inSitemap: true, serverRendered: true },
  { id: 'shipping', path: '/support/shipping', inSitemap: true, serverRendered: true },
  { id: 'returns', path: '/support/returns', inSitemap: true, serverRendered: true },
  { id: 'warranty', path: '/support/warranty', inSitemap: true, serverRendered: true },
  { id: 'terms', path: '/terms', inSitemap: true, serverRendered: true },
  { id: 'privacy', path: '/privacy', inSitemap: true, serverRendered: true },
  { id: 'cart', path: '/cart', signedIn: true, salon: true },
  { id: 'orders', path: '/orders', signedIn: true, salon: true },
  { id: 'quick-order', path: '/orders/quick', signedIn: true, salon: true },
  { id: 'order-lists', path: '/orders/lists', signedIn: true, salon: true },
  { id: 'sync', path: '/sync', signedIn: true, salon: true },
  { id: 'profile', path: '/profile', signedIn: true },
] as const satisfies readonly PageRoute[];

export type RouteId = (typeof TABLE)[number]['id'];

export interface AppRoute extends PageRoute {
  id: RouteId;
}

export const ROUTES: readonly AppRoute[] = TABLE;

/**
 * Where the back office's pages lie (docs/product.md#back-office): the app's router hands
 * every address under it to the back office's own router, loaded with its first screen,
 * so that each staff page adds nothing to what a visitor downloads.
 */
export const BACK_OFFICE_PATH = '/admin';
/** Where field sales' pages lie (docs/product.md#field-sales), handed over the same way. */
export const FIELD_SALES_PATH = '/rep';
/** Where the account's public pages lie (forgotten password, e-mail links), handed over the same way. */
export const ACCOUNT_PATH = '/account';

export interface RouteMatch<R extends PageRoute> {
  route: R;
  /** The address's values of the path's `:name` parts. */
  params: Record<string, string>;
}

interface Matcher {
  route: PageRoute;
  names: string[];
  pattern: RegExp;
}

/** Each table's paths as regular expressions, and the names of their parameters. */
const matchers = new WeakMap<readonly PageRoute[], Matcher[]>();

function matchersOf(routes: readonly PageRoute[]): Matcher[] {
  let found = matchers.get(routes);
  if (!found) {
    found = routes.map((route) => {
      const names: string[] = [];
      const source = route.path
        .replace(/[.+*?^${}()|[\]\\]/g, '\\$&')
        .replace(/:([\w-]+)/g, (_part, name: string) => {
          names.push(name);
          return '([^/]+)';
        });
      return { route, names, pattern: new RegExp(`^${source}/*$`, 'i') };
    });
    matchers.set(routes, found);
  }
  return found;
}

/**
 * The page of `routes` at an address (its path, without the query), or null when there is
 * none. Matched as React Router does by default (the app's router matches with React Router
 * itself): any letter case, trailing slashes allowed, a `:name` standing for one non-empty
 * part of the address.
 */
export function matchRoute<R extends PageRoute>(
  pathname: string,
  routes: readonly R[],
): RouteMatch<R> | null {
  for (const { route, names, pattern } of matchersOf(routes)) {
    const found = pattern.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => (params[name] = found[i + 1] ?? ''));
    return { route: route as R, params };
  }
  return null;
}
