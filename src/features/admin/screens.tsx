/**
 * The back office's router: the app hands it every address under BACK_OFFICE_PATH once a
 * staff member is signed in (src/app/app.tsx). It loads with the back office's first
 * screen, and each screen is a chunk of its own, so the app shell that every visitor
 * downloads names this one chunk instead of every staff page.
 */
import { lazy, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { BACK_OFFICE_PATH } from '../../contracts/routes';
import { STAFF_ROUTES, type StaffRouteId } from '../../contracts/staff-routes';

const screen = (load: () => Promise<ComponentType>) =>
  lazy(() => load().then((component) => ({ default: component })));

/** The screen of every page of the back office's table; one left out does not compile. */
const SCREENS = {
  admin: screen(() => import('./dashboard-page').then((m) => m.DashboardPage)),
  'admin-companies': screen(() => import('./companies-page').then((m) => m.CompaniesPage)),
  'admin-company': screen(() => import('./company-page').then((m) => m.CompanyPage)),
  'admin-audit': screen(() => import('./audit-page').then((m) => m.AuditPage)),
  'admin-orders': screen(() => import('./orders-page').then((m) => m.OrdersPage)),
  'admin-order': screen(() => import('./order-page').then((m) => m.OrderPage)),
  'admin-products': screen(() => import('./products-page').then((m) => m.ProductsPage)),
  'admin-product-new': screen(() => import('./product-edit-page').then((m) => m.ProductEditPage)),
  'admin-product': screen(() => import('./product-edit-page').then((m) => m.ProductEditPage)),
  'admin-categories': screen(() => import('./categories-page').then((m) => m.CategoriesPage)),
  'admin-people': screen(() => import('./people-page').then((m) => m.PeoplePage)),
  'admin-mail': screen(() => import('./mail-page').then((m) => m.MailPage)),
  'admin-mail-message': screen(() => import('./mail-message-page').then((m) => m.MailMessagePage)),
} satisfies Record<StaffRouteId, ComponentType>;

/** The back office's pages, matched below BACK_OFFICE_PATH; `notFound` for any other. */
export function BackOffice({ notFound }: { notFound: ReactNode }) {
  return (
    <Routes>
      {STAFF_ROUTES.map(({ id, path }) => {
        const Screen = SCREENS[id];
        return (
          <Route key={id} path={path.slice(BACK_OFFICE_PATH.length) || '/'} element={<Screen />} />
        );
      })}
      <Route path="*" element={notFound} />
    </Routes>
  );
}
