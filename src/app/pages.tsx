/**
 * Every screen is its own chunk. A screen's code loads together with what it needs: the
 * rest of the texts (all but the first screens), and the sync engine for screens that
 * read and write the device. The screen of the address being opened is preloaded while
 * the texts load, so that the first render does not wait for it.
 */
import { createElement, lazy, useState, type ComponentType, type ReactElement } from 'react';
import { matchRoutes } from 'react-router-dom';
import { ROUTES, type RouteId } from '../contracts/routes';
import { loadAllTexts, loadHomeTexts } from '../lib/i18n';
import { loadSyncEngine } from '../lib/sync/engine-loader';

interface Needs {
  /** The texts beyond the first screens'. */
  texts?: boolean;
  /** The home screen's texts (not among the first screens' either). */
  homeTexts?: boolean;
  /** The sync engine (the device's database and the outbox). */
  engine?: boolean;
}

type Page<P> = ComponentType<P> & {
  /** Loads the screen and what it needs. */
  preload: () => Promise<unknown>;
  /** Loads the screen's code alone (the server, which has every text). */
  preloadCode: () => Promise<unknown>;
};

function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
  needs: Needs = {},
): Page<P> {
  let ready: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= Promise.all([
      load(),
      needs.texts ? loadAllTexts() : undefined,
      needs.homeTexts ? loadHomeTexts() : undefined,
      needs.engine ? loadSyncEngine() : undefined,
    ]).then(
      ([component]) => (ready = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const preloadCode = () => load().then((component) => (ready = component));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Screen(props: P) {
    // Loaded before this screen first rendered: no suspending. Else the lazy one stays.
    const [component] = useState(() => ready ?? Lazy);
    return createElement(component as ComponentType<P>, props);
  }
  return Object.assign(Screen, { preload, preloadCode });
}

export const HomePage = lazyPage(
  () => import('../features/home/home-page').then((m) => m.HomePage),
  { homeTexts: true },
);
export const ProductsPage = lazyPage(() =>
  import('../features/catalogue/products-page').then((m) => m.ProductsPage),
);
export const ProductPage = lazyPage(
  () => import('../features/product/product-page').then((m) => m.ProductPage),
  { texts: true },
);
export const LoginPage = lazyPage(
  () => import('../features/auth/login-page').then((m) => m.LoginPage),
  { texts: true },
);
export const RegisterPage = lazyPage(
  () => import('../features/register/register-page').then((m) => m.RegisterPage),
  { texts: true },
);
export const CompanyRegisterPage = lazyPage(
  () => import('../features/register/company-register-page').then((m) => m.CompanyRegisterPage),
  { texts: true },
);
export const SupportPage = lazyPage(
  () => import('../features/support/support-page').then((m) => m.SupportPage),
  { texts: true },
);
export const LegalPage = lazyPage(
  () => import('../features/legal/legal-page').then((m) => m.LegalPage),
  { texts: true },
);
export const CartPage = lazyPage(
  () => import('../features/cart/cart-page').then((m) => m.CartPage),
  { texts: true, engine: true },
);
export const OrdersPage = lazyPage(
  () => import('../features/orders/orders-page').then((m) => m.OrdersPage),
  { texts: true, engine: true },
);
/**
 * "Add to list" on the catalogue's cards and a product's page (docs/product.md#order-lists)
 * comes with the orders' screen, and what it needs (the texts, the sync engine): those
 * screens load it only for a signed-in user.
 */
const AddToList = lazy(() =>
  OrdersPage.preload()
    .then(() => import('../features/orders/orders-page'))
    .then((m) => ({ default: m.AddToList })),
);
export const SyncPage = lazyPage(
  () => import('../features/sync/sync-page').then((m) => m.SyncPage),
  { texts: true, engine: true },
);
export const ProfilePage = lazyPage(
  () => import('../features/profile/profile-page').then((m) => m.ProfilePage),
  { texts: true, engine: true },
);

export const NotFoundPage = lazyPage(() => import('./not-found-page').then((m) => m.NotFoundPage), {
  texts: true,
});

/** A page's screen: what the router shows, and the code to load ahead of it. */
interface Screen {
  page: Page<never>;
  element: ReactElement;
}

const screen = <P extends object>(page: Page<P>, props: NoInfer<P>): Screen => ({
  page: page as Page<never>,
  element: createElement(page, props),
});

/** The screen of every page in the route table; a page left out here does not compile. */
export const SCREENS = {
  home: screen(HomePage, {}),
  products: screen(ProductsPage, { addToList: AddToList }),
  product: screen(ProductPage, { addToList: AddToList }),
  login: screen(LoginPage, {}),
  register: screen(RegisterPage, {}),
  'company-register': screen(CompanyRegisterPage, {}),
  faq: screen(SupportPage, { page: 'faq' }),
  shipping: screen(SupportPage, { page: 'shipping' }),
  returns: screen(SupportPage, { page: 'returns' }),
  warranty: screen(SupportPage, { page: 'warranty' }),
  terms: screen(LegalPage, { page: 'terms' }),
  privacy: screen(LegalPage, { page: 'privacy' }),
  cart: screen(CartPage, {}),
  orders: screen(OrdersPage, {}),
  // The orders' screen shows the quick order and the order lists too: no chunks of their
  // own to list here.
  'quick-order': screen(OrdersPage, { quick: true }),
  'order-lists': screen(OrdersPage, { lists: true }),
  sync: screen(SyncPage, {}),
  profile: screen(ProfilePage, {}),
} satisfies Record<RouteId, Screen>;

/**
 * The back office (docs/product.md#back-office): its own router and screens, for staff
 * only, needing the network.
 */
const BackOfficePage = lazyPage(
  () => import('../features/admin/screens').then((m) => m.BackOffice),
  { texts: true },
);
export const BACK_OFFICE = screen(BackOfficePage, { notFound: createElement(NotFoundPage) });

/**
 * Field sales (docs/product.md#field-sales): a sales rep's own router and screens, which
 * read and write the device.
 */
const FieldSalesPage = lazyPage(
  () => import('../features/field-sales/screens').then((m) => m.FieldSales),
  { texts: true, engine: true },
);
export const FIELD_SALES = screen(FieldSalesPage, { notFound: createElement(NotFoundPage) });

/**
 * The account's public pages (docs/product.md#password-reset): its own router and screens,
 * opened from the sign-in page or an e-mail's link.
 */
const AccountPage = lazyPage(
  () => import('../features/account/screens').then((m) => m.AccountPages),
  { texts: true },
);
export const ACCOUNT = screen(AccountPage, { notFound: createElement(NotFoundPage) });

/** The screen of an address, among those the server renders (first visits open on them). */
function firstScreenPage(pathname: string): Page<never> | undefined {
  // Found as the router finds it, with the router's own matching.
  const route = matchRoutes([...ROUTES], pathname)?.[0]?.route;
  return route?.serverRendered ? SCREENS[route.id].page : undefined;
}

/** Starts loading the screen of an address (the one the app opens on). */
export function preloadPage(pathname: string): Promise<unknown> {
  return firstScreenPage(pathname)?.preload() ?? Promise.resolve();
}
