import { lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, Outlet, RouterProvider, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ProductsPage } from '../features/catalogue/products-page';
import { HomePage } from '../features/home/home-page';
import { ErrorBoundary } from './error-boundary';
import { Footer } from './footer';
import { Header } from './header';
import { NotFoundPage } from './not-found-page';

const ProductPage = lazy(() =>
  import('../features/product/product-page').then((m) => ({ default: m.ProductPage })),
);

function Layout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    // Braces matter: newer browsers return a promise from scrollTo, which is no cleanup.
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <>
      <Header />
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
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function App() {
  return (
    <ErrorBoundary>
      <RouterProvider router={router} />
    </ErrorBoundary>
  );
}
