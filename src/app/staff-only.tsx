import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { ScreenMeta } from '../features/screen-meta';
import { useUser } from '../lib/auth/session';

/** A page closed to the signed-in account: what it is, and where to go instead. */
function Closed({ title, text, actions }: { title: string; text: string; actions: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <div className="page empty-state" role="alert">
      <ScreenMeta title={title} description={text} path={pathname} />
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="hero__actions">{actions}</div>
    </div>
  );
}

/** Where a sales rep works: its customers. */
function CustomersLink() {
  const { t } = useTranslation();
  return (
    <Link className="button" to="/rep">
      {t('fieldSales.nav.myCustomers')}
    </Link>
  );
}

/** A back-office page opened by a salon's user or a sales rep. */
export function StaffOnly() {
  const { t } = useTranslation();
  const rep = useUser()?.role === 'SALES_REP';
  return (
    <Closed
      title={t('admin.staffOnly.title')}
      text={t(rep ? 'fieldSales.closed.backOffice' : 'admin.staffOnly.text')}
      actions={
        rep ? (
          <CustomersLink />
        ) : (
          <>
            <Link className="button" to="/products">
              {t('admin.staffOnly.catalogue')}
            </Link>
            <Link className="button button--ghost" to="/profile">
              {t('admin.staffOnly.profile')}
            </Link>
          </>
        )
      }
    />
  );
}

/** A salon's page (cart, orders, sync) opened by staff or a rep: they have no company. */
export function SalonOnly() {
  const { t } = useTranslation();
  const rep = useUser()?.role === 'SALES_REP';
  return (
    <Closed
      title={t('admin.people.salonOnly.title')}
      text={t(rep ? 'fieldSales.closed.salon' : 'admin.people.salonOnly.text')}
      actions={
        rep ? (
          <CustomersLink />
        ) : (
          <Link className="button" to="/admin">
            {t('admin.people.salonOnly.backOffice')}
          </Link>
        )
      }
    />
  );
}

/** A field sales page opened by a salon's user or staff. */
export function RepOnly() {
  const { t } = useTranslation();
  return (
    <Closed
      title={t('fieldSales.closed.repOnlyTitle')}
      text={t('fieldSales.closed.repOnly')}
      actions={
        <Link className="button" to="/products">
          {t('admin.staffOnly.catalogue')}
        </Link>
      }
    />
  );
}
