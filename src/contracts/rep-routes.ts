/**
 * Field sales' pages (docs/product.md#field-sales), all under FIELD_SALES_PATH: their own
 * router shows them (src/features/field-sales/screens.tsx), so this table loads with them,
 * never with a visitor's first screen.
 */
import type { PageRoute } from './routes';

const TABLE = [
  // The rep's customers, and the one it is ordering for.
  { id: 'rep-customers', path: '/rep', signedIn: true, rep: true },
  // A new salon registered at the booth, offline too.
  { id: 'rep-new-customer', path: '/rep/customers/new', signedIn: true, rep: true },
  // The cart of the customer the rep is ordering for: quick entry, address, signature.
  { id: 'rep-cart', path: '/rep/cart', signedIn: true, rep: true },
  // The orders taken for a customer, on this device and on the server, with pro-formas.
  { id: 'rep-orders', path: '/rep/orders', signedIn: true, rep: true },
  // The rep's day: the orders taken today per customer, with totals, pro-formas and what waits.
  { id: 'rep-today', path: '/rep/today', signedIn: true, rep: true },
  // The rep's sync centre: its orders waiting to be sent.
  { id: 'rep-sync', path: '/rep/sync', signedIn: true, rep: true },
] as const satisfies readonly PageRoute[];

export type RepRouteId = (typeof TABLE)[number]['id'];

export interface RepRoute extends PageRoute {
  id: RepRouteId;
}

export const REP_ROUTES: readonly RepRoute[] = TABLE;
