import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AUDIT_ACTIONS } from '../../contracts/admin';
import { fetchAuditLog } from '../../lib/api/admin';
import { AuditTable } from './audit-table';
import { FilterSelect, StaffResults } from './staff-list';
import { StaffPage } from './staff-page';
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
  // The filtered company's name, as its entries carry it.
  const companyName = log.data?.entries.find((entry) => entry.companyName !== null)?.companyName;
  return (
    <StaffPage
      title={t('admin.audit.title')}
      description={t('admin.audit.description')}
      path="/admin/audit"
    >
      <h1>{t('admin.audit.title')}</h1>
      <div className="staff-filters">
        <FilterSelect
          id={ACTION_ID}
          label={t('admin.audit.action')}
          allLabel={t('admin.audit.allActions')}
          value={view.action ?? ''}
          options={AUDIT_ACTIONS.map((action) => ({
            value: action,
            label: t(`admin.audit.actions.${action}`),
          }))}
          onChange={(value) =>
            void navigate(
              writeAuditUrl({
                ...view,
                action: AUDIT_ACTIONS.find((action) => action === value),
                page: 1,
              }),
            )
          }
        />
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
      <StaffResults
        texts="admin.audit"
        result={log}
        shown={(page) => page.entries.length}
        hrefFor={(n) => writeAuditUrl({ ...view, page: n })}
      >
        {(page) => <AuditTable entries={page.entries} caption={t('admin.audit.title')} />}
      </StaffResults>
    </StaffPage>
  );
}
