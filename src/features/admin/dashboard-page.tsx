import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LOW_STOCK_BELOW } from '../../contracts/admin';
import { fetchAdminSummary } from '../../lib/api/admin';
import { formatMoney } from '../../lib/i18n';
import { StaffDataNotice, StaffPage } from './staff-page';
import { useStaffData } from './use-staff-data';

/** One figure of the dashboard: a link to its list where there is one. */
function Figure({
  label,
  value,
  to,
  hint,
}: {
  label: string;
  value: ReactNode;
  to?: string;
  hint?: string;
}) {
  const body = (
    <>
      <span className="tiles__label">{label}</span>
      <span className="tiles__value">{value}</span>
      {hint && <span className="tiles__hint">{hint}</span>}
    </>
  );
  return <li>{to ? <Link to={to}>{body}</Link> : body}</li>;
}

export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const summary = useStaffData('summary', fetchAdminSummary);
  const data = summary.data;
  return (
    <StaffPage
      title={t('admin.dashboard.title')}
      description={t('admin.dashboard.description')}
      path="/admin"
    >
      <h1>{t('admin.dashboard.title')}</h1>
      <StaffDataNotice result={summary} />
      {data && (
        <>
          <section aria-labelledby="staff-queues">
            <h2 id="staff-queues">{t('admin.dashboard.queues')}</h2>
            <ul className="tiles staff-tiles">
              <Figure
                label={t('admin.dashboard.companiesPending')}
                value={data.companiesPending}
                to="/admin/companies?status=PENDING"
              />
              <Figure
                label={t('admin.dashboard.documentsToReview')}
                value={data.documentsToReview}
                to="/admin/companies?documents=PENDING"
              />
              <Figure
                label={t('admin.dashboard.boothDetailsToReview')}
                value={data.boothDetailsToReview}
                to="/admin/companies?boothDetails=OPEN"
              />
              <Figure
                label={t('admin.dashboard.ordersToConfirm')}
                value={data.ordersToConfirm}
                to="/admin/orders?status=PENDING"
              />
              <Figure
                label={t('admin.dashboard.productsLowStock')}
                value={data.productsLowStock}
                to="/admin/products?stock=low&status=active"
                hint={t('admin.dashboard.lowStockHint', { units: LOW_STOCK_BELOW })}
              />
            </ul>
          </section>
          <section aria-labelledby="staff-today">
            <h2 id="staff-today">{t('admin.dashboard.today')}</h2>
            <ul className="tiles staff-tiles">
              <Figure label={t('admin.dashboard.todayOrders')} value={data.today.orders} />
              <Figure
                label={t('admin.dashboard.todayValue')}
                value={formatMoney(data.today.value, i18n.language)}
              />
            </ul>
          </section>
        </>
      )}
    </StaffPage>
  );
}
