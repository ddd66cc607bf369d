import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Company } from '../../contracts/accounts';
import type { AdminCompanyEdit } from '../../contracts/admin';
import { validateCompanyEdit } from '../../contracts/form-schemas';
import { MAX_EMAIL_LENGTH, MAX_TEXT_LENGTH } from '../../contracts/validation';
import { Banner } from '../../components/banner';
import { FormField } from '../../components/form-field';
import { useToast } from '../../components/toast';
import { editCompany } from '../../lib/api/admin';
import { failureText, fieldErrors } from '../../lib/api/failure';
import { useForm } from '../../lib/use-form';
import { useStaffAction } from './use-staff-action';

/** The company's data staff may correct, in the order the form shows it. */
export const EDITABLE_FIELDS = [
  'name',
  'taxNumber',
  'registrationNumber',
  'email',
  'phone',
  'website',
  'address',
  'city',
  'state',
  'postalCode',
  'country',
] as const satisfies readonly (keyof AdminCompanyEdit & keyof Company)[];
type Field = (typeof EDITABLE_FIELDS)[number];
type Values = Record<Field, string>;

const valuesOf = (company: Company): Values =>
  Object.fromEntries(EDITABLE_FIELDS.map((field) => [field, company[field]])) as Values;

const INPUT: Partial<Record<Field, { type: string; autoComplete: string }>> = {
  email: { type: 'email', autoComplete: 'off' },
  phone: { type: 'tel', autoComplete: 'off' },
  website: { type: 'url', autoComplete: 'off' },
};

/**
 * Corrects a company's data. Checked with the rules the server applies again; only the
 * fields that changed are sent. On a refusal or a failure everything typed stays, with the
 * server's reasons at their fields.
 */
export function CompanyEditForm({
  company,
  proposed,
  offline,
  onSaved,
  onCancel,
}: {
  company: Company;
  /**
   * Values filled in over the form's, for staff to check and save (details typed at a
   * booth); filled in again whenever a new object is given.
   */
  proposed?: Partial<Values> | undefined;
  offline: boolean;
  onSaved: (company: Company) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const notify = useToast();
  const action = useStaffAction();
  const { values, setValues, errors, setErrors, change, check } = useForm<Values>(() =>
    valuesOf(company),
  );
  const [banner, setBanner] = useState<string | null>(null);
  const title = useRef<HTMLHeadingElement>(null);
  // Details from a booth, given by a button elsewhere on the page (each click a new object):
  // filled in over what is typed, the rest of it kept, and the form brought to attention.
  useEffect(() => {
    if (!proposed) return;
    setValues((current) => ({ ...current, ...proposed }));
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([field]) => !(field in proposed))),
    );
    title.current?.focus();
  }, [proposed, setValues, setErrors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const trimmed = Object.fromEntries(
      EDITABLE_FIELDS.map((field) => [field, values[field].trim()]),
    ) as Values;
    if (!check(validateCompanyEdit(trimmed))) {
      setBanner(t('validation.reviewFields'));
      return;
    }
    const changed: AdminCompanyEdit = Object.fromEntries(
      EDITABLE_FIELDS.filter((field) => trimmed[field] !== company[field]).map((field) => [
        field,
        trimmed[field],
      ]),
    );
    if (Object.keys(changed).length === 0) {
      notify(t('admin.edit.unchanged'), 'info');
      onCancel();
      return;
    }
    const result = await action.run(JSON.stringify(['edit', company.id, changed]), (key) =>
      editCompany(company.id, changed, key),
    );
    if (result.ok) {
      notify(t('admin.edit.saved'));
      onSaved(result.value.company);
      return;
    }
    const { failure } = result;
    if (failure.kind === 'refused') setErrors(fieldErrors(t, failure.body));
    setBanner(
      failureText(t, failure, {
        offline: t('admin.needsNetwork'),
        refused: t('admin.edit.failed'),
      }),
    );
  };

  return (
    <form
      className="staff-edit"
      noValidate
      aria-labelledby="staff-edit-title"
      onSubmit={(event) => void submit(event)}
    >
      <h3 id="staff-edit-title" ref={title} tabIndex={-1}>
        {t('admin.edit.title')}
      </h3>
      {proposed && <p className="hint">{t('admin.boothDetails.applying')}</p>}
      {banner && <Banner kind="error">{banner}</Banner>}
      <div className="form-grid">
        {EDITABLE_FIELDS.map((field) => (
          <FormField
            key={field}
            label={t(`admin.fields.${field}`)}
            type={INPUT[field]?.type ?? 'text'}
            autoComplete={INPUT[field]?.autoComplete ?? 'off'}
            maxLength={field === 'email' ? MAX_EMAIL_LENGTH : MAX_TEXT_LENGTH}
            value={values[field]}
            error={errors[field]}
            required={field === 'name'}
            onChange={(event) => change(field, event.target.value)}
          />
        ))}
      </div>
      <div className="card__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button" disabled={action.busy || offline}>
          {action.busy ? t('admin.sending') : t('admin.edit.save')}
        </button>
      </div>
    </form>
  );
}
