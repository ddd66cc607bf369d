/**
 * The back office's pages (docs/product.md#back-office), all under BACK_OFFICE_PATH: its
 * own router shows them (src/features/admin/screens.tsx), so this table loads with the back
 * office, never with a visitor's first screen. The server and the tests read every page of
 * the app from PAGES (field sales' too, ./rep-routes, and the account's, ./account-routes).
 */
import { ACCOUNT_ROUTES } from './account-routes';
import { REP_ROUTES } from './rep-routes';
import { ROUTES, type PageRoute } from './routes';

const TABLE = [
  { id: 'admin', path: '/admin', signedIn: true, staff: true },
  { id: 'admin-companies', path: '/admin/companies', signedIn: true, staff: true },
  { id: 'admin-company', path: '/admin/companies/:id', signedIn: true, staff: true },
  { id: 'admin-audit', path: '/admin/audit', signedIn: true, staff: true },
  { id: 'admin-orders', path: '/admin/orders', signedIn: true, staff: true },
  { id: 'admin-order', path: '/admin/orders/:id', signedIn: true, staff: true },
  // The catalogue: products (a new one before an existing one's id) and categories.
  { id: 'admin-products', path: '/admin/products', signedIn: true, staff: true },
  { id: 'admin-product-new', path: '/admin/products/new', signedIn: true, staff: true },
  { id: 'admin-product', path: '/admin/products/:id', signedIn: true, staff: true },
  { id: 'admin-categories', path: '/admin/categories', signedIn: true, staff: true },
  { id: 'admin-people', path: '/admin/people', signedIn: true, staff: true },
  // Outgoing e-mail: the mail queue, and one message as it reads.
  { id: 'admin-mail', path: '/admin/mail', signedIn: true, staff: true },
  { id: 'admin-mail-message', path: '/admin/mail/:id', signedIn: true, staff: true },
] as const satisfies readonly PageRoute[];

export type StaffRouteId = (typeof TABLE)[number]['id'];

export interface StaffRoute extends PageRoute {
  id: StaffRouteId;
}

export const STAFF_ROUTES: readonly StaffRoute[] = TABLE;

/**
 * Every page of the app: the storefront's, the back office's, field sales' and the account's.
 * Marked pure so that a bundle that does not read it (the back office's) leaves out the
 * other tables (a spread would be kept: it may run an iterator).
 */
export const PAGES: readonly PageRoute[] = /* @__PURE__ */ ([] as PageRoute[]).concat(
  ROUTES,
  STAFF_ROUTES,
  REP_ROUTES,
  ACCOUNT_ROUTES,
);
