/**
 * The account's public pages (docs/product.md#password-reset, #e-mail-verification): the
 * app hands them every address under ACCOUNT_PATH (src/app/app.tsx). They load as their
 * own chunk, from the sign-in page's link or an e-mail's, and add nothing to a first visit.
 */
import { lazy, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { ACCOUNT_ROUTES, type AccountRouteId } from '../../contracts/account-routes';
import { ACCOUNT_PATH } from '../../contracts/routes';

const screen = (load: () => Promise<ComponentType>) =>
  lazy(() => load().then((component) => ({ default: component })));

/** The screen of every page of the account's table; one left out does not compile. */
const SCREENS = {
  'account-forgot-password': screen(() =>
    import('./forgot-password-page').then((m) => m.ForgotPasswordPage),
  ),
  'account-reset-password': screen(() =>
    import('./reset-password-page').then((m) => m.ResetPasswordPage),
  ),
  'account-verify-email': screen(() =>
    import('./verify-email-page').then((m) => m.VerifyEmailPage),
  ),
} satisfies Record<AccountRouteId, ComponentType>;

/** The account's pages, matched below ACCOUNT_PATH; `notFound` for any other. */
export function AccountPages({ notFound }: { notFound: ReactNode }) {
  return (
    <Routes>
      {ACCOUNT_ROUTES.map(({ id, path }) => {
        const Screen = SCREENS[id];
        return (
          <Route key={id} path={path.slice(ACCOUNT_PATH.length) || '/'} element={<Screen />} />
        );
      })}
      <Route path="*" element={notFound} />
    </Routes>
  );
}
