/**
 * The account's public pages (docs/product.md#password-reset, #e-mail-verification), all
 * under ACCOUNT_PATH: their own router shows them (src/features/account/screens.tsx), so
 * this table loads with them, never with a visitor's first screen. The e-mails the server
 * sends link to them.
 */
import { ACCOUNT_PATH, type PageRoute } from './routes';

const TABLE = [
  // Asking for a link to choose a new password.
  { id: 'account-forgot-password', path: '/account/forgot-password' },
  // The link of that e-mail: choosing the new password (?token=).
  { id: 'account-reset-password', path: '/account/reset-password', noIndex: true },
  // The link sent at registration: confirming the address (?token=).
  { id: 'account-verify-email', path: '/account/verify-email', noIndex: true },
] as const satisfies readonly PageRoute[];

export type AccountRouteId = (typeof TABLE)[number]['id'];

export interface AccountRoute extends PageRoute {
  id: AccountRouteId;
}

export const ACCOUNT_ROUTES: readonly AccountRoute[] = TABLE;

/** The pages the e-mails link to, each with its token in the query. */
export type AccountLinkPage = 'reset-password' | 'verify-email';

/** The address (path and query) of a link sent by e-mail. */
export const accountLinkPath = (page: AccountLinkPage, token: string): string =>
  `${ACCOUNT_PATH}/${page}?token=${encodeURIComponent(token)}`;
