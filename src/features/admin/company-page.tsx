import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { Company } from '../../contracts/accounts';
import {
  COMPANY_ACTIONS,
  type AdminCompanyDetail,
  type BoothDetailsEntry,
  type CompanyAction,
  type RegisteredBy,
} from '../../contracts/admin';
import { Banner } from '../../components/banner';
import { useToast } from '../../components/toast';
import { decideCompany, fetchAdminCompany } from '../../lib/api/admin';
import { fetchAdminOrders } from '../../lib/api/admin-orders';
import { failureText } from '../../lib/api/failure';
import { formatDateTime } from '../../lib/i18n';
import { AuditTable } from './audit-table';
import { CompanyBoothDetails } from './company-booth-details';
import { CompanyDocuments } from './company-documents';
import { CompanyEditForm, EDITABLE_FIELDS } from './company-edit-form';
import { CompanySalesRep, repName } from './company-sales-rep';
import { DecisionDialog } from './decision-dialog';
import { CompanyStatusChip, StaffDataNotice, StaffPage, useOffline } from './staff-page';
import { useStaffAction } from './use-staff-action';
import { TableScroll } from './table-scroll';
import { useStaffData } from './use-staff-data';

type ReasonAction = Extract<CompanyAction, 'reject' | 'suspend'>;

/** Actions that ask for a reason first, which the salon then sees on its profile. */
const asksReason = (action: CompanyAction): action is ReasonAction =>
  action === 'reject' || action === 'suspend';

const companyId = (param: string | undefined): number | undefined =>
  param && /^\d{1,9}$/.test(param) && Number(param) >= 1 ? Number(param) : undefined;

export function CompanyPage() {
  const { t } = useTranslation();
  const id = companyId(useParams().id);
  return (
    <StaffPage
      title={t('admin.company.title')}
      description={t('admin.company.description')}
      path="/admin/companies"
    >
      {id === undefined ? <CompanyNotFound /> : <CompanyDetail id={id} />}
    </StaffPage>
  );
}

function CompanyNotFound() {
  const { t } = useTranslation();
  return (
    <div className="empty-state" role="alert">
      <h1>{t('admin.company.notFound')}</h1>
      <p>{t('admin.company.notFoundText')}</p>
      <Link className="button" to="/admin/companies">
        {t('admin.company.backToList')}
      </Link>
    </div>
  );
}

/** The list the staff member came from, with its filters, or the whole list. */
function useListAddress(): string {
  const state = useLocation().state as { list?: unknown } | null;
  return typeof state?.list === 'string' && state.list
    ? `/admin/companies?${state.list}`
    : '/admin/companies';
}

function CompanyDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const detail = useStaffData(`company-${id}`, (signal) => fetchAdminCompany(id, signal));
  const listAddress = useListAddress();
  const data = detail.data;
  if (detail.failure?.kind === 'refused' && detail.failure.status === 404)
    return <CompanyNotFound />;
  return (
    <>
      <p className="staff-back">
        <Link to={listAddress}>‹ {t('admin.company.backToList')}</Link>
      </p>
      {!data && <h1>{t('admin.company.title')}</h1>}
      <StaffDataNotice result={detail} />
      {data && <CompanyScreen detail={data} reload={detail.reload} />}
    </>
  );
}

function CompanyScreen({ detail, reload }: { detail: AdminCompanyDetail; reload: () => void }) {
  const { t, i18n } = useTranslation();
  const offline = useOffline();
  const { company, salesRep, users, documents, history } = detail;
  // Closed, open, or open with details typed at a booth filled in (a new object each click).
  const [editing, setEditing] = useState<false | { proposed?: BoothDetailsEntry['details'] }>(
    false,
  );
  const dataTitle = useRef<HTMLHeadingElement>(null);
  return (
    <>
      <header className="staff-company__header">
        <h1>{company.name}</h1>
        <CompanyStatusChip status={company.status} />
      </header>
      <p>
        <Link to={`/admin/orders?companyId=${company.id}`}>{t('admin.orders.showOrders')}</Link>
      </p>

      <div className="card-grid">
        <StatusCard
          company={company}
          registeredBy={detail.registeredBy}
          sameTaxNumber={detail.sameTaxNumber}
          offline={offline}
          onChanged={reload}
        />

        <section className="card" aria-labelledby="staff-company-data">
          <h2 id="staff-company-data" ref={dataTitle} tabIndex={-1}>
            {t('admin.company.data')}
          </h2>
          {editing ? (
            <CompanyEditForm
              company={company}
              proposed={editing.proposed}
              offline={offline}
              onCancel={() => setEditing(false)}
              onSaved={() => {
                setEditing(false);
                reload();
              }}
            />
          ) : (
            <>
              <dl className="details">
                {EDITABLE_FIELDS.map((field) => (
                  <FieldRow key={field} label={t(`admin.fields.${field}`)} value={company[field]} />
                ))}
                <FieldRow
                  label={t('admin.company.registered')}
                  value={formatDateTime(company.createdAt, i18n.language)}
                />
                <FieldRow
                  label={t('admin.company.verifiedAt')}
                  value={
                    company.verifiedAt ? formatDateTime(company.verifiedAt, i18n.language) : ''
                  }
                />
              </dl>
              <div className="card__actions">
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={offline}
                  onClick={() => setEditing({})}
                >
                  {t('admin.edit.open')}
                </button>
              </div>
            </>
          )}
        </section>
      </div>

      <CompanyBoothDetails
        entries={detail.boothDetails}
        offline={offline}
        onApply={(entry) => setEditing({ proposed: { ...entry.details } })}
        onDismissed={reload}
        onAllGone={() => dataTitle.current?.focus()}
      />

      <CompanySalesRep company={company} salesRep={salesRep} offline={offline} onSaved={reload} />

      {/* Not a region itself: its table scrolls in a region of that name. */}
      <section className="card staff-section">
        <h2 id="staff-company-users">{t('admin.company.users')}</h2>
        {users.length === 0 ? (
          <p>{t('admin.company.noUsers')}</p>
        ) : (
          <TableScroll labelledBy="staff-company-users">
            <table className="staff-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.company.userName')}</th>
                  <th scope="col">{t('admin.company.userEmail')}</th>
                </tr>
              </thead>
              <tbody>
                {users.map((user) => (
                  <tr key={user.id}>
                    <td>
                      {user.firstName} {user.lastName}
                    </td>
                    <td className="staff-table__email">
                      <a href={`mailto:${user.email}`}>{user.email}</a>
                      {!user.emailVerified && (
                        <>
                          {' '}
                          <span className="chip chip--pending">
                            {t('admin.company.emailUnverified')}
                          </span>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="card staff-section" aria-labelledby="staff-company-documents">
        <h2 id="staff-company-documents">{t('admin.company.documents')}</h2>
        <CompanyDocuments documents={documents} offline={offline} onReviewed={reload} />
      </section>

      {/* Not a region itself: its table scrolls in a region of that name. */}
      <section className="card staff-section">
        <h2>{t('admin.company.history')}</h2>
        {history.length === 0 ? (
          <p>{t('admin.company.noHistory')}</p>
        ) : (
          <AuditTable entries={history} caption={t('admin.company.history')} linkCompany={false} />
        )}
        <p>
          <Link to={`/admin/audit?companyId=${company.id}`}>{t('admin.company.allHistory')}</Link>
        </p>
      </section>
    </>
  );
}

function FieldRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value || '—'}</dd>
    </>
  );
}

/** The company's status, the reason the salon is shown, and the actions the status allows. */
function StatusCard({
  company,
  registeredBy,
  sameTaxNumber,
  offline,
  onChanged,
}: {
  company: Company;
  registeredBy: RegisteredBy;
  sameTaxNumber: AdminCompanyDetail['sameTaxNumber'];
  offline: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const notify = useToast();
  const action = useStaffAction();
  // The decision asked about in its dialog: with a reason, or only to confirm it.
  const [asking, setAsking] = useState<CompanyAction | null>(null);
  // The reason and the action it was typed for: kept when the change fails.
  const [reason, setReason] = useState({ action: '', text: '' });
  const [error, setError] = useState<string | null>(null);

  const send = async (decision: CompanyAction) => {
    setError(null);
    const text = asksReason(decision) ? reason.text.trim() : '';
    const result = await action.run(JSON.stringify([decision, company.id, text]), (key) =>
      decideCompany(company.id, decision, text, key),
    );
    if (result.ok) {
      notify(t(`admin.actions.done.${decision}`, { name: company.name }));
      setAsking(null);
      setReason({ action: '', text: '' });
      onChanged();
      return;
    }
    setError(
      failureText(t, result.failure, {
        offline: t('admin.needsNetwork'),
        refused: t('admin.actionFailed'),
      }),
    );
    // A conflict: someone changed the company meanwhile. Read it again, so that its status
    // and the actions it allows are the current ones; the message stays above them.
    if (result.failure.kind === 'refused' && result.failure.status === 409) {
      setAsking(null);
      onChanged();
    }
  };

  // Reject and suspend ask for the reason the salon reads; approve and reactivate only ask.
  const withReason = asking !== null && asksReason(asking);

  const start = (decision: CompanyAction) => {
    setError(null);
    if (asksReason(decision) && reason.action !== decision) {
      setReason({ action: decision, text: '' });
    }
    setAsking(decision);
  };

  return (
    <section className="card" aria-labelledby="staff-company-status">
      <h2 id="staff-company-status">{t('admin.company.status')}</h2>
      <p>
        <CompanyStatusChip status={company.status} />
      </p>
      {registeredBy && (
        <p>
          {t('admin.companies.registeredBy', {
            name: repName(registeredBy),
          })}
        </p>
      )}
      {company.statusReason && (
        <p>
          <strong>{t('admin.company.reasonShown')}</strong> {company.statusReason}
        </p>
      )}
      {sameTaxNumber.length > 0 && (
        // Before a decision: the company may be one already known, registered again.
        <div className="notice" role="note" aria-labelledby="staff-same-tax-number">
          <p id="staff-same-tax-number">
            {t('admin.company.sameTaxNumber', { count: sameTaxNumber.length })}
          </p>
          <ul>
            {sameTaxNumber.map((other) => (
              <li key={other.id}>
                <Link to={`/admin/companies/${other.id}`}>{other.name}</Link>
                {other.city && `, ${other.city}`} <CompanyStatusChip status={other.status} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {company.status === 'PENDING' && <AwaitingOrders companyId={company.id} />}
      {error && asking === null && <Banner kind="error">{error}</Banner>}
      {offline && <p className="notice notice--offline">{t('admin.needsNetwork')}</p>}
      <div className="staff-actions">
        {COMPANY_ACTIONS[company.status].map((decision) => (
          <button
            key={decision}
            type="button"
            className={asksReason(decision) ? 'button button--danger' : 'button'}
            disabled={offline || action.busy}
            onClick={() => start(decision)}
          >
            {t(`admin.actions.${decision}`)}
          </button>
        ))}
      </div>
      <DecisionDialog
        open={asking !== null}
        title={asking ? t(`admin.actions.confirm.${asking}`, { name: company.name }) : ''}
        text={
          withReason
            ? t('admin.actions.reasonText')
            : asking
              ? t(`admin.actions.confirmText.${asking}`)
              : ''
        }
        label={withReason ? t('admin.actions.reason') : undefined}
        hint={withReason ? t('admin.actions.reasonHint') : undefined}
        confirmLabel={asking ? t(`admin.actions.${asking}`) : ''}
        danger={withReason}
        busy={action.busy}
        error={error}
        value={reason.text}
        onChange={(text) => setReason((current) => ({ ...current, text }))}
        onConfirm={() => asking && void send(asking)}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}

/**
 * The orders sales reps took for the company while it waits for verification: approving it
 * makes them pending, rejecting it cancels them. Read from the orders list (one row is
 * enough for the count); said only when there are some.
 */
function AwaitingOrders({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const query = {
    companyId,
    status: 'AWAITING_VERIFICATION',
    page: 1,
    limit: 1,
  } as const;
  const awaiting = useStaffData(`company-${companyId}-awaiting`, (signal) =>
    fetchAdminOrders(query, signal),
  );
  const count = awaiting.data?.pagination.total ?? 0;
  if (count === 0) return null;
  return (
    <p className="notice" role="note">
      <Link to={`/admin/orders?status=AWAITING_VERIFICATION&companyId=${companyId}`}>
        {t('admin.company.awaitingOrders', { count })}
      </Link>{' '}
      {t('admin.company.awaitingOrdersText', {
        count,
        pending: t('orders.status.PENDING'),
      })}
    </p>
  );
}
