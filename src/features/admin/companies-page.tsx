import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { COMPANY_STATUSES } from '../../contracts/accounts';
import type { CompanySort } from '../../contracts/admin';
import { fetchAdminCompanies } from '../../lib/api/admin';
import { formatDateTime } from '../../lib/i18n';
import {
  CompanyStatusChip,
  LastPage,
  pastLastPage,
  StaffDataNotice,
  StaffPage,
  StaffPager,
} from './staff-page';
import {
  applyCompaniesChange,
  companiesQuery,
  FIRST_ORDER,
  readCompaniesUrl,
  writeCompaniesUrl,
  type CompaniesView,
} from './staff-urls';
import { TableScroll } from './table-scroll';
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

  const sortButton = (column: CompanySort, label: string) => {
    const current = view.sortBy === column;
    return (
      <th
        scope="col"
        aria-sort={current ? (view.sortOrder === 'asc' ? 'ascending' : 'descending') : undefined}
      >
        <button
          type="button"
          className="staff-sort"
          onClick={() =>
            go({
              sortBy: column,
              sortOrder: current
                ? view.sortOrder === 'asc'
                  ? 'desc'
                  : 'asc'
                : FIRST_ORDER[column],
            })
          }
        >
          {label}
          <span aria-hidden="true">{current ? (view.sortOrder === 'asc' ? ' ↑' : ' ↓') : ''}</span>
        </button>
      </th>
    );
  };

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
        <div className="form-field">
          <label htmlFor={STATUS_ID}>{t('admin.companies.status')}</label>
          <select
            id={STATUS_ID}
            value={view.status ?? ''}
            onChange={(event) =>
              go({
                status: COMPANY_STATUSES.find((status) => status === event.target.value),
              })
            }
          >
            <option value="">{t('admin.companies.allStatuses')}</option>
            {COMPANY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`admin.status.${status}`)}
              </option>
            ))}
          </select>
        </div>
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
      {page && pastLastPage(page.pagination) && (
        <LastPage
          totalPages={page.pagination.totalPages}
          hrefFor={(n) => writeCompaniesUrl({ ...view, page: n })}
        />
      )}
      {page && !pastLastPage(page.pagination) && (
        <>
          <p className="staff-count" role="status">
            {t('admin.companies.count', { count: page.pagination.total })}
          </p>
          {page.companies.length === 0 ? (
            <p className="empty-state">{t('admin.companies.empty')}</p>
          ) : (
            <TableScroll labelledBy="staff-companies-caption">
              <table className="staff-table">
                <caption id="staff-companies-caption" className="visually-hidden">
                  {t('admin.companies.caption')}
                </caption>
                <thead>
                  <tr>
                    {sortButton('name', t('admin.companies.columns.name'))}
                    <th scope="col">{t('admin.companies.columns.taxNumber')}</th>
                    <th scope="col">{t('admin.companies.columns.email')}</th>
                    <th scope="col">{t('admin.companies.columns.city')}</th>
                    {sortButton('status', t('admin.companies.columns.status'))}
                    {sortButton('createdAt', t('admin.companies.columns.registered'))}
                  </tr>
                </thead>
                <tbody>
                  {page.companies.map((company) => (
                    <tr key={company.id}>
                      <th scope="row">
                        <Link
                          to={`/admin/companies/${company.id}`}
                          state={{ list: params.toString() }}
                        >
                          {company.name}
                        </Link>
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
                </tbody>
              </table>
            </TableScroll>
          )}
          <StaffPager
            page={page.pagination.page}
            totalPages={page.pagination.totalPages}
            hrefFor={(n) => writeCompaniesUrl({ ...view, page: n })}
          />
        </>
      )}
    </StaffPage>
  );
}
