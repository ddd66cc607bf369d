/**
 * Field sales' pages (docs/product.md#field-sales), all under FIELD_SALES_PATH: their own
 * router shows them (src/features/field-sales/screens.tsx), so this table loads with them,
 * never with a visitor's first screen.
 */
import type { PageRoute } from './routes';

const TABLE = [
  // The rep's customers, and the one it is ordering for.
  { id: 'rep-customers', path: '/rep', signedIn: true, rep: true },
] as const satisfies readonly PageRoute[];

export type RepRouteId = (typeof TABLE)[number]['id'];

export interface RepRoute extends PageRoute {
  id: RepRouteId;
}

export const REP_ROUTES: readonly RepRoute[] = TABLE;
