import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { Role } from '../contracts/accounts';
import { BACK_OFFICE_PATH, FIELD_SALES_PATH } from '../contracts/routes';
import { ScreenMeta } from '../features/screen-meta';
import { useUser } from '../lib/auth/session';
import type { TextKey } from '../lib/i18n';

/** Where a signed-in user's own pages start, as their menu names it. */
const OWN_PAGES: Record<Role, { path: string; text: TextKey }> = {
  ADMIN: { path: BACK_OFFICE_PATH, text: 'admin.nav.backOffice' },
  SALES_REP: { path: FIELD_SALES_PATH, text: 'fieldSales.nav.customers' },
  USER: { path: '/orders', text: 'nav.orders' },
};

export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const user = useUser();
  const own = user && OWN_PAGES[user.role];
  return (
    <div className="page empty-state">
      <ScreenMeta
        title={t('notFound.title')}
        description={t('meta.notFoundDescription')}
        path={pathname}
      />
      <meta name="robots" content="noindex" />
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <p>{t('notFound.linksTitle')}</p>
      <ul className="link-list">
        <li>
          <Link to="/">{t('nav.home')}</Link>
        </li>
        <li>
          <Link to="/products">{t('nav.products')}</Link>
        </li>
        {/* Signing in or registering is for visitors; someone signed in gets their own pages. */}
        {own ? (
          <li>
            <Link to={own.path}>{t(own.text)}</Link>
          </li>
        ) : (
          <>
            <li>
              <Link to="/login">{t('nav.login')}</Link>
            </li>
            <li>
              <Link to="/register">{t('nav.register')}</Link>
            </li>
          </>
        )}
      </ul>
      <button type="button" className="button button--ghost" onClick={() => void navigate(-1)}>
        {t('notFound.back')}
      </button>
    </div>
  );
}
