import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AUDIT_ACTIONS } from '../../contracts/admin';
import { fetchAuditLog } from '../../lib/api/admin';
import { AuditTable } from './audit-table';
import { LastPage, pastLastPage, StaffDataNotice, StaffPage, StaffPager } from './staff-page';
import { auditQuery, readAuditUrl, writeAuditUrl } from './staff-urls';
import { useStaffData } from './use-staff-data';

const ACTION_ID = 'staff-audit-action';

export function AuditPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const view = readAuditUrl(params);
  const query = auditQuery(view);
  const log = useStaffData(JSON.stringify(query), (signal) => fetchAuditLog(query, signal));
  const page = log.data;
  // The filtered company's name, as its entries carry it.
  const companyName = page?.entries.find((entry) => entry.companyName !== null)?.companyName;
  return (
    <StaffPage
      title={t('admin.audit.title')}
      description={t('admin.audit.description')}
      path="/admin/audit"
    >
      <h1>{t('admin.audit.title')}</h1>
      <div className="staff-filters">
        <div className="form-field">
          <label htmlFor={ACTION_ID}>{t('admin.audit.action')}</label>
          <select
            id={ACTION_ID}
            value={view.action ?? ''}
            onChange={(event) =>
              void navigate(
                writeAuditUrl({
                  ...view,
                  action: AUDIT_ACTIONS.find((action) => action === event.target.value),
                  page: 1,
                }),
              )
            }
          >
            <option value="">{t('admin.audit.allActions')}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(`admin.audit.actions.${action}`)}
              </option>
            ))}
          </select>
        </div>
        {view.companyId !== undefined && (
          <p className="staff-filters__company" role="status">
            {companyName
              ? t('admin.audit.ofCompanyNamed', { name: companyName })
              : t('admin.audit.ofCompany', { id: view.companyId })}{' '}
            <Link to={`/admin/companies/${view.companyId}`}>
              {companyName
                ? t('admin.audit.openCompanyNamed', { name: companyName })
                : t('admin.audit.openCompany', { id: view.companyId })}
            </Link>
            {' · '}
            <Link to={writeAuditUrl({ ...view, companyId: undefined, page: 1 })}>
              {t('admin.audit.allCompanies')}
            </Link>
          </p>
        )}
      </div>
      <StaffDataNotice result={log} />
      {page && pastLastPage(page.pagination) && (
        <LastPage
          totalPages={page.pagination.totalPages}
          hrefFor={(n) => writeAuditUrl({ ...view, page: n })}
        />
      )}
      {page && !pastLastPage(page.pagination) && (
        <>
          <p className="staff-count" role="status">
            {t('admin.audit.count', { count: page.pagination.total })}
          </p>
          {page.entries.length === 0 ? (
            <p className="empty-state">{t('admin.audit.empty')}</p>
          ) : (
            <AuditTable entries={page.entries} caption={t('admin.audit.title')} />
          )}
          <StaffPager
            page={page.pagination.page}
            totalPages={page.pagination.totalPages}
            hrefFor={(n) => writeAuditUrl({ ...view, page: n })}
          />
        </>
      )}
    </StaffPage>
  );
}
