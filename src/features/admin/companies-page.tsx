import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { COMPANY_STATUSES } from '../../contracts/accounts';
import { fetchAdminCompanies } from '../../lib/api/admin';
import { formatDateTime } from '../../lib/i18n';
import { useUrlQuery } from '../../lib/use-url-query';
import { repName } from './company-sales-rep';
import { FilterSelect, sortHeaders, StaffFilters, StaffResults, StaffTable } from './staff-list';
import { CompanyStatusChip, StaffPage } from './staff-page';
import {
  applyCompaniesChange,
  companiesQuery,
  FIRST_ORDER,
  readCompaniesUrl,
  writeCompaniesUrl,
  type CompaniesView,
} from './staff-urls';
import { useStaffData } from './use-staff-data';

const SEARCH_ID = 'staff-company-search';
const STATUS_ID = 'staff-company-status';
const DOCUMENTS_ID = 'staff-company-documents';
const BOOTH_DETAILS_ID = 'staff-company-booth-details';

export function CompaniesPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useUrlQuery();
  const view = readCompaniesUrl(params);
  const query = companiesQuery(view);
  const list = useStaffData(JSON.stringify(query), (signal) => fetchAdminCompanies(query, signal));

  const go = (change: Partial<CompaniesView>) =>
    setParams((current) => applyCompaniesChange(current, change));

  const sortHeader = sortHeaders(view, FIRST_ORDER, go);

  return (
    <StaffPage
      title={t('admin.companies.title')}
      description={t('admin.companies.description')}
      path="/admin/companies"
    >
      <h1>{t('admin.companies.title')}</h1>
      <StaffFilters
        texts="admin.companies"
        searchId={SEARCH_ID}
        search={view.search}
        onSearch={(search) => go({ search })}
        clearTo={
          view.search || view.status || view.documents || view.boothDetails
            ? writeCompaniesUrl({
                ...view,
                search: '',
                status: undefined,
                documents: undefined,
                boothDetails: undefined,
                page: 1,
              })
            : undefined
        }
      >
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
        <FilterSelect
          id={DOCUMENTS_ID}
          label={t('admin.companies.documents')}
          allLabel={t('admin.companies.allDocuments')}
          value={view.documents ?? ''}
          options={[{ value: 'PENDING', label: t('admin.companies.documentsPending') }]}
          onChange={(value) => go({ documents: value === 'PENDING' ? 'PENDING' : undefined })}
        />
        <FilterSelect
          id={BOOTH_DETAILS_ID}
          label={t('admin.companies.boothDetails')}
          allLabel={t('admin.companies.allDocuments')}
          value={view.boothDetails ?? ''}
          options={[{ value: 'OPEN', label: t('admin.companies.boothDetailsOpen') }]}
          onChange={(value) => go({ boothDetails: value === 'OPEN' ? 'OPEN' : undefined })}
        />
      </StaffFilters>

      <StaffResults
        texts="admin.companies"
        result={list}
        shown={(page) => page.companies.length}
        hrefFor={(n) => writeCompaniesUrl({ ...view, page: n })}
      >
        {(page) => (
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
        )}
      </StaffResults>
    </StaffPage>
  );
}
