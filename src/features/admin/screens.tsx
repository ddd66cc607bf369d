/**
 * The back office's screens, each a chunk of its own, reached through this one module: the
 * app shell, which every visitor downloads, names this small chunk instead of four.
 */
import type { ComponentType } from 'react';

const SCREENS = {
  dashboard: () => import('./dashboard-page').then((m) => m.DashboardPage),
  companies: () => import('./companies-page').then((m) => m.CompaniesPage),
  company: () => import('./company-page').then((m) => m.CompanyPage),
  audit: () => import('./audit-page').then((m) => m.AuditPage),
  orders: () => import('./orders-page').then((m) => m.OrdersPage),
  order: () => import('./order-page').then((m) => m.OrderPage),
  products: () => import('./products-page').then((m) => m.ProductsPage),
  product: () => import('./product-edit-page').then((m) => m.ProductEditPage),
  categories: () => import('./categories-page').then((m) => m.CategoriesPage),
  people: () => import('./people-page').then((m) => m.PeoplePage),
} satisfies Record<string, () => Promise<ComponentType>>;

export type StaffScreen = keyof typeof SCREENS;

export const loadStaffScreen = (name: StaffScreen): Promise<ComponentType> => SCREENS[name]();
