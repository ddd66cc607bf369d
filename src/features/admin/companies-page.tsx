import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { COMPANY_STATUSES } from '../../contracts/accounts';
import { fetchAdminCompanies } from '../../lib/api/admin';
import { formatDateTime } from '../../lib/i18n';
import { repName } from './company-sales-rep';
import { FilterSelect, sortHeaders, StaffListPage, StaffTable } from './staff-list';
import { CompanyStatusChip, StaffDataNotice, StaffPage } from './staff-page';
import {
  applyCompaniesChange,
  companiesQuery,
  FIRST_ORDER,
  readCompaniesUrl,
  writeCompaniesUrl,
  type CompaniesView,
} from './staff-urls';
import { useStaffData } from './use-staff-data';
import { StaffSearch } from './staff-search';

const SEARCH_ID = 'staff-company-search';
const STATUS_ID = 'staff-company-status';

export function CompaniesPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const view = readCompaniesUrl(params);
  const query = companiesQuery(view);
  const list = useStaffData(JSON.stringify(query), (signal) => fetchAdminCompanies(query, signal));

  const go = (change: Partial<CompaniesView>) =>
    setParams((current) => applyCompaniesChange(current, change));

  const sortHeader = sortHeaders(view, FIRST_ORDER, go);

  const page = list.data;
  return (
    <StaffPage
      title={t('admin.companies.title')}
      description={t('admin.companies.description')}
      path="/admin/companies"
    >
      <h1>{t('admin.companies.title')}</h1>
      <div className="staff-filters">
        <StaffSearch
          id={SEARCH_ID}
          value={view.search}
          label={t('admin.companies.search')}
          button={t('admin.companies.searchButton')}
          hint={t('admin.companies.searchHint')}
          onSearch={(search) => go({ search })}
        />
        <FilterSelect
          id={STATUS_ID}
          label={t('admin.companies.status')}
          allLabel={t('admin.companies.allStatuses')}
          value={view.status ?? ''}
          options={COMPANY_STATUSES.map((status) => ({
            value: status,
            label: t(`admin.status.${status}`),
          }))}
          onChange={(value) => go({ status: COMPANY_STATUSES.find((status) => status === value) })}
        />
        {(view.search || view.status) && (
          <Link
            className="button button--ghost staff-filters__clear"
            to={writeCompaniesUrl({ ...view, search: '', status: undefined, page: 1 })}
          >
            {t('admin.companies.clear')}
          </Link>
        )}
      </div>

      <StaffDataNotice result={list} />
      {page && (
        <StaffListPage
          pagination={page.pagination}
          shown={page.companies.length}
          count={t('admin.companies.count', { count: page.pagination.total })}
          empty={t('admin.companies.empty')}
          hrefFor={(n) => writeCompaniesUrl({ ...view, page: n })}
        >
          <StaffTable
            captionId="staff-companies-caption"
            caption={t('admin.companies.caption')}
            head={
              <>
                {sortHeader('name', t('admin.companies.columns.name'))}
                <th scope="col">{t('admin.companies.columns.taxNumber')}</th>
                <th scope="col">{t('admin.companies.columns.email')}</th>
                <th scope="col">{t('admin.companies.columns.city')}</th>
                {sortHeader('status', t('admin.companies.columns.status'))}
                {sortHeader('createdAt', t('admin.companies.columns.registered'))}
              </>
            }
          >
            {page.companies.map((company) => (
              <tr key={company.id}>
                <th scope="row">
                  <Link to={`/admin/companies/${company.id}`} state={{ list: params.toString() }}>
                    {company.name}
                  </Link>
                  {company.registeredBy && (
                    <span className="staff-registered-by">
                      {t('admin.companies.registeredBy', {
                        name: repName(company.registeredBy),
                      })}
                    </span>
                  )}
                </th>
                <td>{company.taxNumber || '—'}</td>
                <td className="staff-table__email">{company.email || '—'}</td>
                <td>{company.city || '—'}</td>
                <td>
                  <CompanyStatusChip status={company.status} />
                </td>
                <td>{formatDateTime(company.createdAt, i18n.language)}</td>
              </tr>
            ))}
          </StaffTable>
        </StaffListPage>
      )}
    </StaffPage>
  );
}
