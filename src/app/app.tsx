import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { BrowserRouter, Outlet, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { canSeePrices } from '../contracts/accounts';
import {
  ACCOUNT_PATH,
  BACK_OFFICE_PATH,
  FIELD_SALES_PATH,
  ROUTES,
  type AppRoute,
} from '../contracts/routes';
import { useUser } from '../lib/auth/session';
import { useConnectivity } from '../lib/sync/connectivity';
import { offlineInviteOpen } from '../lib/sync/offline-invite';
import { loadAllTexts } from '../lib/i18n';
import { loadSyncEngine, useSyncEngine } from '../lib/sync/engine-loader';
import { keepAccountScreens, usePwaState } from '../lib/pwa/register-service-worker';
import { useMirrorRefresh } from '../lib/sync/use-catalogue';
import { ToastProvider } from '../components/toast';
import { SiteOriginContext } from '../components/page-meta';
import { FirstScreenProvider, type FirstScreen } from '../lib/first-screen';
import { ErrorBoundary } from './error-boundary';
import { Footer } from './footer';
import { Header } from './header';
import { ACCOUNT, BACK_OFFICE, FIELD_SALES, NotFoundPage, SCREENS } from './pages';
import { replayHeldClicks } from '../lib/clicks-before-hydration';
import { markFirstScreen } from '../lib/when-idle';
import { keepApp } from '../lib/kept-on-device';

// Loaded with the sync engine: they only act once it is there.
const SessionWatcher = lazy(() =>
  import('./session-watcher').then((m) => ({ default: m.SessionWatcher })),
);
const UpdatePrompt = lazy(() => import('./pwa-prompts').then((m) => ({ default: m.UpdatePrompt })));

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

/** A sales rep's "Ordering for …" bar: its own chunk, loaded for reps alone. */
const OrderingForBar = lazy(() =>
  loadAllTexts().then(() => import('../features/field-sales/ordering-for')),
);

function OrderingFor() {
  if (useUser()?.role !== 'SALES_REP') return null;
  return (
    <Suspense fallback={null}>
      <OrderingForBar />
    </Suspense>
  );
}

/** After a verified company signs in: the invitation to take the whole catalogue along. */
const OfflineInvitePrompt = lazy(() =>
  Promise.all([import('./offline-invite-prompt'), loadAllTexts()]).then(([m]) => ({
    default: m.OfflineInvitePrompt,
  })),
);

function OfflineInvite() {
  const user = useUser();
  if (!canSeePrices(user?.company) || !offlineInviteOpen()) return null;
  return (
    <Suspense fallback={null}>
      <OfflineInvitePrompt />
    </Suspense>
  );
}
/**
 * What runs behind every screen: the app kept on the device once the visitor stays (a
 * second screen, a signed-in user), the catalogue kept fresh, the sync engine loaded at
 * once for a signed-in user (whose waiting changes must go out) and their screens (and a
 * staff member's back office, a sales rep's field sales) kept for offline use, and the
 * session watcher once the engine is there. Its own component, so that none of this
 * re-renders the screen.
 */
function Background() {
  const user = useUser();
  const engine = useSyncEngine();
  // The first screen's address is 'default'; every later one (a link, a search) has its own.
  const { key } = useLocation();
  useEffect(() => {
    if (key !== 'default') keepApp();
  }, [key]);
  // The catalogue (and the footer's categories) stays fresh once the app is kept.
  useMirrorRefresh();
  useEffect(() => {
    if (!user) return;
    keepApp();
    void loadSyncEngine().catch(() => undefined);
    keepAccountScreens(user.role);
  }, [user]);
  if (!engine) return null;
  return (
    <Suspense fallback={null}>
      <SessionWatcher />
    </Suspense>
  );
}

/** "A new version is ready", once there is one. */
function UpdateSlot() {
  const { updateReady } = usePwaState();
  if (!updateReady) return null;
  return (
    <Suspense fallback={null}>
      <UpdatePrompt />
    </Suspense>
  );
}

/**
 * Rendered next to the screen, inside its boundary: its effect runs once the screen itself
 * is hydrated (React does that in a pass after the layout's), and clicks held back until
 * then are made again.
 */
function ScreenHydrated() {
  useEffect(replayHeldClicks, []);
  return null;
}

function Layout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useEffect(markFirstScreen, []);
  useEffect(() => {
    // Braces matter: newer browsers return a promise from scrollTo, which is no cleanup.
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <>
      <Background />
      <Header />
      <OfflineBanner />
      <OrderingFor />
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
            <ScreenHydrated />
          </Suspense>
        </ErrorBoundary>
      </main>
      {/*
        Questions that come up while a screen is in use ("A new version is ready", "Going to
        a fair?"): after the page, held at the bottom of the window, so that appearing moves
        nothing under the user's finger; before the footer, which they then never cover.
      */}
      <div className="prompts">
        <UpdateSlot />
        <OfflineInvite />
      </div>
      <Footer />
    </>
  );
}

/** The guard of signed-in pages, loaded with them. */
const RequireAuth = lazy(() => import('./require-auth').then((m) => ({ default: m.RequireAuth })));

/** A page's screen; a page that needs a signed-in user (or staff) says so to anyone else. */
function screenOf({ id, signedIn, staff, salon }: AppRoute) {
  const { element } = SCREENS[id];
  return signedIn ? (
    <RequireAuth staff={staff === true} salon={salon === true}>
      {element}
    </RequireAuth>
  ) : (
    element
  );
}

/**
 * The route table as the router takes it, made once, at the first render (the modules it
 * names are all evaluated by then): `<Routes>` with `<Route>` children would be read back
 * into this on every render, the first screen's hydration included.
 */
let appRoutes: RouteObject[] | undefined;

const routeTable = (): RouteObject[] => [
  {
    element: <Layout />,
    children: [
      ...ROUTES.map((route) => ({ path: route.path, element: screenOf(route) })),
      {
        path: `${BACK_OFFICE_PATH}/*`,
        element: <RequireAuth staff>{BACK_OFFICE.element}</RequireAuth>,
      },
      {
        path: `${FIELD_SALES_PATH}/*`,
        element: <RequireAuth rep>{FIELD_SALES.element}</RequireAuth>,
      },
      { path: `${ACCOUNT_PATH}/*`, element: ACCOUNT.element },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

function AppRoutes() {
  appRoutes ??= routeTable();
  return useRoutes(appRoutes);
}

/**
 * The app around a router: the browser's in the page, a static one when the server
 * renders. `firstScreen` is what the server rendered the first screen with.
 */
export function App({
  firstScreen = null,
  router = (routes) => <BrowserRouter>{routes}</BrowserRouter>,
}: {
  firstScreen?: FirstScreen | null;
  router?: (routes: ReactNode) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <ErrorBoundary>
      <FirstScreenProvider value={firstScreen}>
        <SiteOriginContext.Provider value={firstScreen?.origin ?? null}>
          <ToastProvider dismissLabel={t('common.dismiss')}>{router(<AppRoutes />)}</ToastProvider>
        </SiteOriginContext.Provider>
      </FirstScreenProvider>
    </ErrorBoundary>
  );
}
