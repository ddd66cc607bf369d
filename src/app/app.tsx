import { lazy, Suspense, useEffect, useState } from 'react';
import { createBrowserRouter, Link, Outlet, RouterProvider, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ProductsPage } from '../features/catalogue/products-page';
import { canSeePrices } from '../contracts/accounts';
import { useUser } from '../lib/auth/session';
import { useConnectivity } from '../lib/sync/connectivity';
import { closeOfflineInvite, offlineInviteOpen } from '../lib/sync/offline-catalogue';
import { useMirrorRefresh } from '../lib/sync/use-catalogue';
import { HomePage } from '../features/home/home-page';
import { ToastProvider } from '../components/toast';
import { ErrorBoundary } from './error-boundary';
import { Footer } from './footer';
import { Header } from './header';
import { NotFoundPage } from './not-found-page';
import { UpdatePrompt } from './pwa-prompts';
import { RequireAuth } from './require-auth';
import { SessionWatcher } from './session-watcher';

const ProductPage = lazy(() =>
  import('../features/product/product-page').then((m) => ({ default: m.ProductPage })),
);
const LoginPage = lazy(() =>
  import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })),
);
const RegisterPage = lazy(() =>
  import('../features/register/register-page').then((m) => ({ default: m.RegisterPage })),
);
const CompanyRegisterPage = lazy(() =>
  import('../features/register/company-register-page').then((m) => ({
    default: m.CompanyRegisterPage,
  })),
);
const CartPage = lazy(() =>
  import('../features/cart/cart-page').then((m) => ({ default: m.CartPage })),
);
const OrdersPage = lazy(() =>
  import('../features/orders/orders-page').then((m) => ({ default: m.OrdersPage })),
);
const SyncPage = lazy(() =>
  import('../features/sync/sync-page').then((m) => ({ default: m.SyncPage })),
);
const SupportPage = lazy(() =>
  import('../features/support/support-page').then((m) => ({ default: m.SupportPage })),
);
const LegalPage = lazy(() =>
  import('../features/legal/legal-page').then((m) => ({ default: m.LegalPage })),
);
const ProfilePage = lazy(() =>
  import('../features/profile/profile-page').then((m) => ({ default: m.ProfilePage })),
);

/** Says plainly when the server cannot be reached, and what still works. */
function OfflineBanner() {
  const { t } = useTranslation();
  const connectivity = useConnectivity();
  if (connectivity === 'online') return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {t('app.offlineBanner')}
    </div>
  );
}

/** After a verified company signs in: take the whole catalogue along for the fair. */
function OfflineInvite() {
  const { t } = useTranslation();
  const user = useUser();
  const connectivity = useConnectivity();
  const [open, setOpen] = useState(offlineInviteOpen);
  if (!open || connectivity === 'offline' || !canSeePrices(user?.company)) return null;
  return (
    <div className="update-prompt" role="status">
      <span>{t('offline.invite')}</span>
      <Link className="button button--small" to="/sync" onClick={() => setOpen(false)}>
        {t('offline.start')}
      </Link>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => {
          closeOfflineInvite();
          setOpen(false);
        }}
      >
        {t('offline.notNow')}
      </button>
    </div>
  );
}

function Layout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // The catalogue (and the footer's categories) stays fresh from the first screen on.
  useMirrorRefresh();
  useEffect(() => {
    // Braces matter: newer browsers return a promise from scrollTo, which is no cleanup.
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <>
      <SessionWatcher />
      <Header />
      <OfflineBanner />
      <UpdatePrompt />
      <OfflineInvite />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary key={pathname}>
          <Suspense
            fallback={
              <div className="page loading" role="status">
                <span className="spinner" aria-hidden="true" />
                {t('app.loading')}
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
    </>
  );
}

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/products', element: <ProductsPage /> },
      { path: '/products/:id', element: <ProductPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/support/faq', element: <SupportPage page="faq" /> },
      { path: '/support/shipping', element: <SupportPage page="shipping" /> },
      { path: '/support/returns', element: <SupportPage page="returns" /> },
      { path: '/support/warranty', element: <SupportPage page="warranty" /> },
      { path: '/terms', element: <LegalPage page="terms" /> },
      { path: '/privacy', element: <LegalPage page="privacy" /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/company-register', element: <CompanyRegisterPage /> },
      {
        path: '/cart',
        element: (
          <RequireAuth>
            <CartPage />
          </RequireAuth>
        ),
      },
      {
        path: '/orders',
        element: (
          <RequireAuth>
            <OrdersPage />
          </RequireAuth>
        ),
      },
      {
        path: '/sync',
        element: (
          <RequireAuth>
            <SyncPage />
          </RequireAuth>
        ),
      },
      {
        path: '/profile',
        element: (
          <RequireAuth>
            <ProfilePage />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function App() {
  const { t } = useTranslation();
  return (
    <ErrorBoundary>
      <ToastProvider dismissLabel={t('common.dismiss')}>
        <RouterProvider router={router} />
      </ToastProvider>
    </ErrorBoundary>
  );
}
