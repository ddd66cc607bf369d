/**
 * Field sales' router (docs/product.md#field-sales): the app hands it every address under
 * FIELD_SALES_PATH once a sales rep is signed in (src/app/app.tsx). It loads with the
 * rep's first screen, and each screen is a chunk of its own.
 */
import { lazy, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { REP_ROUTES, type RepRouteId } from '../../contracts/rep-routes';
import { FIELD_SALES_PATH } from '../../contracts/routes';

const screen = (load: () => Promise<ComponentType>) =>
  lazy(() => load().then((component) => ({ default: component })));

/** The screen of every page of field sales' table; one left out does not compile. */
const SCREENS = {
  'rep-customers': screen(() => import('./customers-page').then((m) => m.CustomersPage)),
  'rep-new-customer': screen(() => import('./new-customer-page').then((m) => m.NewCustomerPage)),
  'rep-cart': screen(() => import('./cart-page').then((m) => m.RepCartPage)),
  'rep-orders': screen(() => import('./orders-page').then((m) => m.RepOrdersPage)),
  'rep-today': screen(() => import('./today-page').then((m) => m.RepTodayPage)),
  'rep-sync': screen(() => import('../sync/sync-page').then((m) => m.SyncPage)),
} satisfies Record<RepRouteId, ComponentType>;

/** Field sales' pages, matched below FIELD_SALES_PATH; `notFound` for any other. */
export function FieldSales({ notFound }: { notFound: ReactNode }) {
  return (
    <Routes>
      {REP_ROUTES.map(({ id, path }) => {
        const Screen = SCREENS[id];
        return (
          <Route key={id} path={path.slice(FIELD_SALES_PATH.length) || '/'} element={<Screen />} />
        );
      })}
      <Route path="*" element={notFound} />
    </Routes>
  );
}
