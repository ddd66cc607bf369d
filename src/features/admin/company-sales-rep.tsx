import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SalesRepSummary } from '../../contracts/admin';
import { Banner } from '../../components/banner';
import { useToast } from '../../components/toast';
import { assignSalesRep, fetchStaff } from '../../lib/api/admin';
import { failureText, fieldErrors } from '../../lib/api/failure';
import { useStaffAction } from './use-staff-action';
import { useStaffData } from './use-staff-data';

type Rep = Pick<SalesRepSummary, 'id' | 'email' | 'firstName' | 'lastName'>;

/** A sales rep as staff screens name it: first and last name. */
export const repName = (rep: Pick<Rep, 'firstName' | 'lastName'>) =>
  `${rep.firstName} ${rep.lastName}`.trim();

/**
 * The sales rep who takes the company's orders, and the choice of another: one of the
 * active reps on the People page, or none. A rep deactivated since the list was read is
 * refused at the field, and the list is read again.
 */
export function CompanySalesRep({
  company,
  salesRep,
  offline,
  onSaved,
}: {
  company: { id: number; name: string };
  /** The rep assigned now, as the company's page was read. */
  salesRep: SalesRepSummary | null;
  offline: boolean;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const notify = useToast();
  const action = useStaffAction();
  const staff = useStaffData('sales-reps', (signal) => fetchStaff(signal));
  const reps = staff.data?.staff.filter((member) => member.role === 'SALES_REP' && member.active);
  // Until the list comes, the rep assigned now is the one choice besides none.
  const options: Rep[] = reps ?? (salesRep?.active ? [salesRep] : []);
  // The id chosen, '' for none. A deactivated rep is not offered: none is chosen instead.
  const [choice, setChoice] = useState(salesRep?.active ? String(salesRep.id) : '');
  const value = options.some((rep) => String(rep.id) === choice) ? choice : '';
  const [error, setError] = useState<string | undefined>();
  const [banner, setBanner] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    setError(undefined);
    const salesRepId = value ? Number(value) : null;
    if (salesRepId === (salesRep?.id ?? null)) {
      notify(t('admin.edit.unchanged'), 'info');
      return;
    }
    const result = await action.run(JSON.stringify(['sales-rep', company.id, salesRepId]), (key) =>
      assignSalesRep(company.id, salesRepId, key),
    );
    if (result.ok) {
      const assigned = result.value.salesRep;
      notify(
        assigned
          ? t('admin.salesRep.saved', { name: repName(assigned), company: company.name })
          : t('admin.salesRep.removed', { company: company.name }),
      );
      onSaved();
      return;
    }
    const { failure } = result;
    if (failure.kind === 'refused') {
      const refused = fieldErrors(t, failure.body).salesRepId;
      setError(refused);
      // The rep was deactivated (or is no rep) since the list was read: read it again.
      if (refused) staff.reload();
    }
    setBanner(
      failureText(t, failure, {
        offline: t('admin.needsNetwork'),
        refused: t('admin.salesRep.failed'),
      }),
    );
  };

  return (
    <section className="card staff-section" aria-labelledby="staff-company-field-sales">
      <h2 id="staff-company-field-sales">{t('admin.salesRep.title')}</h2>
      <dl className="details">
        <dt>{t('admin.salesRep.current')}</dt>
        <dd>
          {salesRep ? (
            <>
              {repName(salesRep)}{' '}
              {!salesRep.active && (
                <span className="chip chip--company-suspended">
                  {t('admin.salesRep.deactivated')}
                </span>
              )}
              <br />
              <a href={`mailto:${salesRep.email}`}>{salesRep.email}</a>
            </>
          ) : (
            t('admin.salesRep.none')
          )}
        </dd>
      </dl>
      <form noValidate onSubmit={(event) => void submit(event)}>
        {banner && <Banner kind="error">{banner}</Banner>}
        <div className={`form-field staff-sales-rep${error ? ' has-error' : ''}`}>
          <label htmlFor="staff-company-sales-rep">{t('admin.salesRep.label')}</label>
          <select
            id="staff-company-sales-rep"
            value={value}
            disabled={reps === undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={
              error
                ? 'staff-company-sales-rep-hint staff-company-sales-rep-error'
                : 'staff-company-sales-rep-hint'
            }
            onChange={(event) => {
              setChoice(event.target.value);
              setError(undefined);
            }}
          >
            <option value="">{t('admin.salesRep.none')}</option>
            {options.map((rep) => (
              <option key={rep.id} value={String(rep.id)}>
                {repName(rep)} ({rep.email})
              </option>
            ))}
          </select>
          <p id="staff-company-sales-rep-hint" className="form-field__hint">
            {t('admin.salesRep.hint')}
          </p>
          {error && (
            <p id="staff-company-sales-rep-error" className="form-field__error">
              {error}
            </p>
          )}
        </div>
        {staff.failure && !reps && !offline && (
          <div className="notice notice--offline" role="alert">
            <p>{t('admin.salesRep.listFailed')}</p>
            <button type="button" className="button button--small" onClick={staff.reload}>
              {t('admin.retry')}
            </button>
          </div>
        )}
        {offline && <p className="notice notice--offline">{t('admin.needsNetwork')}</p>}
        <div className="card__actions">
          <button
            type="submit"
            className="button"
            disabled={offline || action.busy || reps === undefined}
          >
            {action.busy ? t('admin.sending') : t('admin.salesRep.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
