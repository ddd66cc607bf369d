import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { PageMeta } from '../components/page-meta';

/** A back-office page opened by a signed-in customer: what it is, and where to go instead. */
export function StaffOnly() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="page empty-state" role="alert">
      <PageMeta
        title={`${t('admin.staffOnly.title')} | ${t('meta.titleSuffix')}`}
        description={t('admin.staffOnly.text')}
        keywords={t('meta.keywords')}
        path={pathname}
      />
      <h1>{t('admin.staffOnly.title')}</h1>
      <p>{t('admin.staffOnly.text')}</p>
      <div className="hero__actions">
        <Link className="button" to="/products">
          {t('admin.staffOnly.catalogue')}
        </Link>
        <Link className="button button--ghost" to="/profile">
          {t('admin.staffOnly.profile')}
        </Link>
      </div>
    </div>
  );
}

/** A salon's page (cart, orders, sync) opened by staff: they have no company; the back office. */
export function SalonOnly() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="page empty-state" role="alert">
      <PageMeta
        title={`${t('admin.people.salonOnly.title')} | ${t('meta.titleSuffix')}`}
        description={t('admin.people.salonOnly.text')}
        keywords={t('meta.keywords')}
        path={pathname}
      />
      <h1>{t('admin.people.salonOnly.title')}</h1>
      <p>{t('admin.people.salonOnly.text')}</p>
      <div className="hero__actions">
        <Link className="button" to="/admin">
          {t('admin.people.salonOnly.backOffice')}
        </Link>
      </div>
    </div>
  );
}
