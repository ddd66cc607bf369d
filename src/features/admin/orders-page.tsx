import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ORDER_STATUSES, PAYMENT_STATUSES } from '../../contracts/orders';
import { paymentBadge } from '../../contracts/order-lines';
import { Banner } from '../../components/banner';
import { useToast } from '../../components/toast';
import { fetchStaff } from '../../lib/api/admin';
import { downloadOrdersCsv, fetchAdminOrders } from '../../lib/api/admin-orders';
import { classifyFailure, failureText } from '../../lib/api/failure';
import { formatDateTime, formatMoney } from '../../lib/i18n';
import { useUrlQuery } from '../../lib/use-url-query';
import {
  applyOrdersChange,
  FIRST_ORDER,
  ordersQuery,
  readOrdersUrl,
  writeOrdersUrl,
  type OrdersView,
} from './order-urls';
import { repName } from './company-sales-rep';
import { FilterSelect, sortHeaders, StaffFilters, StaffResults, StaffTable } from './staff-list';
import { StaffPage, useOffline } from './staff-page';
import { useStaffData } from './use-staff-data';

const SEARCH_ID = 'staff-order-search';
const STATUS_ID = 'staff-order-status';
const PAYMENT_ID = 'staff-order-payment';
const SALES_REP_ID = 'staff-order-sales-rep';
const FROM_ID = 'staff-order-from';
const TO_ID = 'staff-order-to';

export function OrdersPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useUrlQuery();
  const view = readOrdersUrl(params);
  const query = ordersQuery(view);
  const list = useStaffData(JSON.stringify(query), (signal) => fetchAdminOrders(query, signal));
  const offline = useOffline();
  const notify = useToast();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const go = (change: Partial<OrdersView>) =>
    setParams((current) => applyOrdersChange(current, change));

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      await downloadOrdersCsv(query);
      notify(t('admin.orders.exported'));
    } catch (error) {
      setExportError(
        failureText(t, await classifyFailure(error), {
          offline: t('admin.needsNetwork'),
          refused: t('admin.orders.exportFailed'),
        }),
      );
    } finally {
      setExporting(false);
    }
  };

  const sortHeader = sortHeaders(view, FIRST_ORDER, go);
  // Typed or linked that way round: no order can match, and the empty list should say why.
  const reversed = view.from !== '' && view.to !== '' && view.from > view.to;
  const datesHint = reversed
    ? 'staff-order-dates-hint staff-order-dates-reversed'
    : 'staff-order-dates-hint';

  const filtered =
    view.search ||
    view.status ||
    view.paymentStatus ||
    view.from ||
    view.to ||
    view.companyId ||
    view.salesRepId;
  return (
    <StaffPage
      title={t('admin.orders.title')}
      description={t('admin.orders.description')}
      path="/admin/orders"
    >
      <h1>{t('admin.orders.title')}</h1>
      {view.companyId !== undefined && (
        <p className="notice" role="note">
          {t('admin.orders.ofCompany', { id: view.companyId })}{' '}
          <Link to={writeOrdersUrl({ ...view, companyId: undefined, page: 1 })}>
            {t('admin.orders.allCompanies')}
          </Link>
        </p>
      )}
      <StaffFilters
        texts="admin.orders"
        searchId={SEARCH_ID}
        search={view.search}
        onSearch={(search) => go({ search })}
        clearTo={
          filtered
            ? writeOrdersUrl({
                ...view,
                search: '',
                status: undefined,
                paymentStatus: undefined,
                companyId: undefined,
                salesRepId: undefined,
                from: '',
                to: '',
                page: 1,
              })
            : undefined
        }
      >
        <FilterSelect
          id={STATUS_ID}
          label={t('admin.orders.status')}
          allLabel={t('admin.orders.allStatuses')}
          value={view.status ?? ''}
          options={ORDER_STATUSES.map((status) => ({
            value: status,
            label: t(`orders.status.${status}`),
          }))}
          onChange={(value) => go({ status: ORDER_STATUSES.find((status) => status === value) })}
        />
        <FilterSelect
          id={PAYMENT_ID}
          label={t('admin.orders.payment')}
          allLabel={t('admin.orders.allPayments')}
          value={view.paymentStatus ?? ''}
          options={PAYMENT_STATUSES.map((status) => ({
            value: status,
            label: t(`orders.payment.${status}`),
          }))}
          onChange={(value) =>
            go({ paymentStatus: PAYMENT_STATUSES.find((status) => status === value) })
          }
        />
        <SalesRepFilter value={view.salesRepId} onChange={(salesRepId) => go({ salesRepId })} />
        <div className="form-field">
          <label htmlFor={FROM_ID}>{t('admin.orders.from')}</label>
          <input
            id={FROM_ID}
            type="date"
            value={view.from}
            max={view.to || undefined}
            aria-describedby={datesHint}
            onChange={(event) => go({ from: event.target.value })}
          />
        </div>
        <div className="form-field">
          <label htmlFor={TO_ID}>{t('admin.orders.to')}</label>
          <input
            id={TO_ID}
            type="date"
            value={view.to}
            min={view.from || undefined}
            aria-describedby={datesHint}
            onChange={(event) => go({ to: event.target.value })}
          />
        </div>
      </StaffFilters>
      <p id="staff-order-dates-hint" className="form-field__hint">
        {t('admin.orders.dateHint')}
      </p>
      {reversed && (
        <p id="staff-order-dates-reversed" className="form-field__error" role="alert">
          {t('admin.orders.datesReversed')}
        </p>
      )}
      <div className="staff-actions">
        <button
          type="button"
          className="button button--ghost"
          disabled={offline || exporting}
          onClick={() => void exportCsv()}
        >
          {exporting ? t('admin.orders.exporting') : t('admin.orders.export')}
        </button>
      </div>
      {exportError && <Banner kind="error">{exportError}</Banner>}

      <StaffResults
        texts="admin.orders"
        result={list}
        shown={(page) => page.orders.length}
        hrefFor={(n) => writeOrdersUrl({ ...view, page: n })}
      >
        {(page) => (
          <StaffTable
            captionId="staff-orders-caption"
            caption={t('admin.orders.caption')}
            head={
              <>
                {sortHeader('orderNumber', t('admin.orders.columns.number'))}
                <th scope="col">{t('admin.orders.columns.company')}</th>
                <th scope="col">{t('admin.orders.columns.placedBy')}</th>
                {sortHeader('createdAt', t('admin.orders.columns.placed'))}
                <th scope="col">{t('admin.orders.columns.status')}</th>
                <th scope="col">{t('admin.orders.columns.payment')}</th>
                <th scope="col">{t('admin.orders.columns.items')}</th>
                {sortHeader('total', t('admin.orders.columns.total'))}
              </>
            }
          >
            {page.orders.map((order) => (
              <tr key={order.id}>
                <th scope="row">
                  <Link to={`/admin/orders/${order.id}`} state={{ list: params.toString() }}>
                    {order.orderNumber}
                  </Link>
                </th>
                <td>
                  <Link to={`/admin/companies/${order.company.id}`}>{order.company.name}</Link>
                </td>
                <td>
                  {order.placedBy ? repName(order.placedBy) : t('admin.orders.placedBySalon')}
                </td>
                <td>{formatDateTime(order.createdAt, i18n.language)}</td>
                <td>
                  <span className={`chip chip--status-${order.status.toLowerCase()}`}>
                    {t(`orders.status.${order.status}`)}
                  </span>
                </td>
                <td>{t(`orders.payment.${paymentBadge(order)}`)}</td>
                <td>{order.itemCount}</td>
                <td>{formatMoney(order.total, i18n.language)}</td>
              </tr>
            ))}
          </StaffTable>
        )}
      </StaffResults>
    </StaffPage>
  );
}

/**
 * The orders one sales rep placed: any rep on the People page, deactivated ones too (their
 * orders stay). Until the list comes, or when it cannot be read, a rep already chosen in
 * the address is still shown as chosen, by its number.
 */
function SalesRepFilter({
  value,
  onChange,
}: {
  value: number | undefined;
  onChange: (salesRepId: number | undefined) => void;
}) {
  const { t } = useTranslation();
  const staff = useStaffData('sales-reps', (signal) => fetchStaff(signal));
  const reps = (staff.data?.staff ?? []).filter((member) => member.role === 'SALES_REP');
  const options = reps.map((rep) => ({
    value: String(rep.id),
    label: rep.active
      ? `${repName(rep)} (${rep.email})`
      : `${repName(rep)} (${rep.email}) · ${t('admin.salesRep.deactivated')}`,
  }));
  if (value !== undefined && !reps.some((rep) => rep.id === value)) {
    options.push({ value: String(value), label: t('admin.orders.unknownRep', { id: value }) });
  }
  return (
    <FilterSelect
      id={SALES_REP_ID}
      label={t('admin.orders.salesRep')}
      allLabel={t('admin.orders.allSalesReps')}
      value={value === undefined ? '' : String(value)}
      options={options}
      onChange={(chosen) => onChange(chosen ? Number(chosen) : undefined)}
    />
  );
}
