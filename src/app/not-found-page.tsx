import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ScreenMeta } from '../features/screen-meta';

export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
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
        <li>
          <Link to="/login">{t('nav.login')}</Link>
        </li>
        <li>
          <Link to="/register">{t('nav.register')}</Link>
        </li>
      </ul>
      <button type="button" className="button button--ghost" onClick={() => void navigate(-1)}>
        {t('notFound.back')}
      </button>
    </div>
  );
}
