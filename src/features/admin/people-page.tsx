import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffMember } from '../../contracts/admin';
import { MAX_STAFF_NAME_LENGTH } from '../../contracts/admin';
import { validateStaff } from '../../contracts/form-schemas';
import { STAFF_ROLES } from '../../contracts/states';
import { MAX_EMAIL_LENGTH } from '../../contracts/validation';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { useToast } from '../../components/toast';
import {
  changeStaffMember,
  createStaffMember,
  fetchStaff,
  type StaffAction,
} from '../../lib/api/admin';
import { failureText, type CallFailure } from '../../lib/api/failure';
import { useUser } from '../../lib/auth/session';
import { formatDateTime } from '../../lib/i18n';
import { useForm } from '../../lib/use-form';
import { StaffDataNotice, StaffPage, useOffline } from './staff-page';
import { TableScroll } from './table-scroll';
import { useStaffAction } from './use-staff-action';
import { useStaffData } from './use-staff-data';

const fullName = (member: Pick<StaffMember, 'firstName' | 'lastName'>) =>
  `${member.firstName} ${member.lastName}`.trim();

const REFUSALS = [
  'STAFF_SELF',
  'STAFF_LAST_ACTIVE',
  'STAFF_ALREADY_INACTIVE',
  'STAFF_ALREADY_ACTIVE',
] as const;

/** A refusal of the People routes in the user's language, else the general texts. */
function usePeopleFailure() {
  const { t } = useTranslation();
  return (failure: CallFailure): string => {
    const code = failure.kind === 'refused' ? failure.body?.code : undefined;
    const known = REFUSALS.find((refusal) => refusal === code);
    if (known) return t(`admin.people.refusals.${known}`);
    return failureText(t, failure, {
      offline: t('admin.needsNetwork'),
      refused: t('admin.people.failed'),
    });
  };
}

/**
 * A temporary password, shown this once, with a copy button. Only its button closes it:
 * an Escape pressed to leave the field would lose the password.
 */
function PasswordNotice({
  shown,
  onClose,
}: {
  shown: { name: string; password: string | null } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useToast();
  const copy = async (password: string) => {
    try {
      await navigator.clipboard.writeText(password);
      notify(t('admin.people.copied'));
    } catch {
      notify(t('admin.people.copyFailed'), 'info');
    }
  };
  return (
    <Modal
      open={shown !== null}
      title={shown ? t('admin.people.passwordTitle', { name: shown.name }) : ''}
      onClose={onClose}
      escapeCloses={false}
    >
      {shown?.password ? (
        <>
          <Banner kind="info">{t('admin.people.passwordWarning', { name: shown.name })}</Banner>
          <div className="form-field">
            <label htmlFor="staff-temporary-password">{t('admin.people.passwordLabel')}</label>
            <input
              id="staff-temporary-password"
              className="staff-password"
              readOnly
              value={shown.password}
              onFocus={(event) => event.target.select()}
            />
          </div>
        </>
      ) : (
        <Banner kind="info">{t('admin.people.passwordLost')}</Banner>
      )}
      <div className="dialog__actions">
        {shown?.password && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void copy(shown.password ?? '')}
          >
            {t('admin.people.copy')}
          </button>
        )}
        <button type="button" className="button" onClick={onClose}>
          {t('admin.people.done')}
        </button>
      </div>
    </Modal>
  );
}

type Role = StaffMember['role'];
type Values = { firstName: string; lastName: string; email: string };
const EMPTY: Values = { firstName: '', lastName: '', email: '' };

/**
 * The form that adds an account, staff or sales rep; everything typed stays when the
 * server refuses it.
 */
function AddStaffForm({
  offline,
  onCreated,
  onCancel,
}: {
  offline: boolean;
  onCreated: (member: StaffMember, password: string | null) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const action = useStaffAction();
  const explain = usePeopleFailure();
  const [role, setRole] = useState<Role>('ADMIN');
  const { values, setValues, errors, setErrors, change, check } = useForm<Values>(EMPTY);
  const [banner, setBanner] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const trimmed = {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: values.email.trim(),
    };
    if (!check(validateStaff(trimmed))) {
      setBanner(t('validation.reviewFields'));
      return;
    }
    const fields = { ...trimmed, role };
    const result = await action.run(JSON.stringify(['add-staff', fields]), (key) =>
      createStaffMember(fields, key),
    );
    if (result.ok) {
      setValues(EMPTY);
      setRole('ADMIN');
      onCreated(result.value.member, result.value.temporaryPassword);
      return;
    }
    const { failure } = result;
    if (failure.kind === 'refused') {
      const fields: Record<string, string> = {};
      for (const detail of failure.body?.details ?? []) {
        const field = detail.field as keyof Values;
        if (!(field in EMPTY)) continue;
        fields[field] =
          detail.code === 'emailTaken'
            ? t('admin.people.emailTaken')
            : detail.code
              ? t(`validation.${detail.code}`, { defaultValue: detail.message })
              : detail.message;
      }
      setErrors(fields);
      if (fields.email && failure.status === 409) {
        setBanner(t('admin.people.emailTaken'));
        return;
      }
    }
    setBanner(explain(failure));
  };

  return (
    <form
      className="staff-edit card"
      noValidate
      aria-labelledby="staff-add-title"
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="staff-add-title">{t('admin.people.addTitle')}</h2>
      <p>{t('admin.people.addText')}</p>
      {banner && <Banner kind="error">{banner}</Banner>}
      <fieldset className="staff-choice" aria-describedby="staff-add-role-hint">
        <legend>{t('admin.people.role')}</legend>
        <div className="staff-choice__options">
          {STAFF_ROLES.map((option) => (
            <label key={option} className="checkbox">
              <input
                type="radio"
                name="staff-add-role"
                value={option}
                checked={role === option}
                onChange={() => setRole(option)}
              />
              {t(`admin.people.roles.${option}`)}
            </label>
          ))}
        </div>
        <p id="staff-add-role-hint" className="form-field__hint">
          {t('admin.people.roleHint')}
        </p>
      </fieldset>
      <div className="form-grid">
        <FormField
          label={t('admin.people.firstName')}
          autoComplete="off"
          maxLength={MAX_STAFF_NAME_LENGTH}
          required
          value={values.firstName}
          error={errors.firstName}
          onChange={(event) => change('firstName', event.target.value)}
        />
        <FormField
          label={t('admin.people.lastName')}
          autoComplete="off"
          maxLength={MAX_STAFF_NAME_LENGTH}
          required
          value={values.lastName}
          error={errors.lastName}
          onChange={(event) => change('lastName', event.target.value)}
        />
        <FormField
          label={t('admin.people.email')}
          type="email"
          autoComplete="off"
          maxLength={MAX_EMAIL_LENGTH}
          required
          value={values.email}
          error={errors.email}
          onChange={(event) => change('email', event.target.value)}
        />
      </div>
      {offline && <p className="notice notice--offline">{t('admin.needsNetwork')}</p>}
      <div className="card__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('admin.people.cancel')}
        </button>
        <button type="submit" className="button" disabled={action.busy || offline}>
          {action.busy ? t('admin.sending') : t('admin.people.create')}
        </button>
      </div>
    </form>
  );
}

type Asking = { member: StaffMember; action: StaffAction };
const ACTION_TEXT = {
  deactivate: 'deactivate',
  reactivate: 'reactivate',
  'reset-password': 'reset',
} as const;

/** People: the maker's accounts, staff and sales reps (docs/product.md#back-office). */
export function PeoplePage() {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const offline = useOffline();
  const notify = useToast();
  const list = useStaffData('staff', (signal) => fetchStaff(signal));
  const action = useStaffAction();
  const explain = usePeopleFailure();
  const [adding, setAdding] = useState(false);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState<{ name: string; password: string | null } | null>(null);

  const confirm = async () => {
    if (!asking) return;
    const { member, action: change } = asking;
    setError(null);
    const result = await action.run(JSON.stringify([change, member.id]), (key) =>
      changeStaffMember(member.id, change, key),
    );
    if (result.ok) {
      setAsking(null);
      notify(t(`admin.people.doneAction.${ACTION_TEXT[change]}`, { name: fullName(member) }));
      if (change === 'reset-password') {
        setPassword({ name: fullName(member), password: result.value.temporaryPassword ?? null });
      }
      list.reload();
      return;
    }
    setError(explain(result.failure));
    // A conflict: the account changed meanwhile. Show it as it is now.
    if (result.failure.kind === 'refused' && result.failure.status === 409) {
      setAsking(null);
      list.reload();
    }
  };

  const staff = list.data?.staff;
  return (
    <StaffPage
      title={t('admin.people.title')}
      description={t('admin.people.description')}
      path="/admin/people"
    >
      <h1>{t('admin.people.title')}</h1>
      {!adding && (
        <p>
          <button
            type="button"
            className="button"
            disabled={offline}
            onClick={() => setAdding(true)}
          >
            {t('admin.people.add')}
          </button>
        </p>
      )}
      {adding && (
        <AddStaffForm
          offline={offline}
          onCancel={() => setAdding(false)}
          onCreated={(member, temporary) => {
            const name = fullName(member);
            setAdding(false);
            notify(t(`admin.people.created.${member.role}`, { name }));
            setPassword({ name, password: temporary });
            list.reload();
          }}
        />
      )}
      {error && asking === null && <Banner kind="error">{error}</Banner>}
      <StaffDataNotice result={list} />
      {staff && (
        <>
          <p className="staff-count" role="status">
            {t('admin.people.count', { count: staff.length })}
          </p>
          <TableScroll labelledBy="staff-people-caption">
            <table className="staff-table">
              <caption id="staff-people-caption" className="visually-hidden">
                {t('admin.people.caption')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.people.columns.name')}</th>
                  <th scope="col">{t('admin.people.columns.email')}</th>
                  <th scope="col">{t('admin.people.columns.role')}</th>
                  <th scope="col">{t('admin.people.columns.status')}</th>
                  <th scope="col">{t('admin.people.columns.created')}</th>
                  <th scope="col">{t('admin.people.columns.lastSignIn')}</th>
                  <th scope="col">{t('admin.people.columns.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {staff.map((member) => {
                  const self = member.id === me?.id;
                  const hintId = `staff-self-${member.id}`;
                  return (
                    <tr key={member.id}>
                      <th scope="row">
                        {fullName(member)} {self && <small>{t('admin.people.you')}</small>}
                      </th>
                      <td className="staff-table__email">{member.email}</td>
                      <td>{t(`admin.people.roles.${member.role}`)}</td>
                      <td>
                        <span
                          className={`chip ${member.active ? 'chip--company-approved' : 'chip--company-suspended'}`}
                        >
                          {member.active ? t('admin.people.active') : t('admin.people.inactive')}
                        </span>
                      </td>
                      <td>{formatDateTime(member.createdAt, i18n.language)}</td>
                      <td>
                        {member.lastSignInAt
                          ? formatDateTime(member.lastSignInAt, i18n.language)
                          : t('admin.people.never')}
                      </td>
                      <td>
                        <div className="staff-actions">
                          {member.active ? (
                            <button
                              type="button"
                              className="button button--danger button--small"
                              disabled={offline || self}
                              aria-describedby={self ? hintId : undefined}
                              aria-label={`${t('admin.people.deactivate')} ${fullName(member)}`}
                              onClick={() => setAsking({ member, action: 'deactivate' })}
                            >
                              {t('admin.people.deactivate')}
                            </button>
                          ) : (
                            <button
                              type="button"
                              className="button button--small"
                              disabled={offline}
                              aria-label={`${t('admin.people.reactivate')} ${fullName(member)}`}
                              onClick={() => setAsking({ member, action: 'reactivate' })}
                            >
                              {t('admin.people.reactivate')}
                            </button>
                          )}
                          <button
                            type="button"
                            className="button button--ghost button--small"
                            disabled={offline || self}
                            aria-describedby={self ? hintId : undefined}
                            aria-label={`${t('admin.people.reset')} ${fullName(member)}`}
                            onClick={() => setAsking({ member, action: 'reset-password' })}
                          >
                            {t('admin.people.reset')}
                          </button>
                        </div>
                        {self && (
                          <p id={hintId} className="form-field__hint">
                            {t('admin.people.selfHint')}
                          </p>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={
          asking
            ? t(`admin.people.confirm.${ACTION_TEXT[asking.action]}`, {
                name: fullName(asking.member),
              })
            : ''
        }
        confirmLabel={
          action.busy
            ? t('admin.sending')
            : asking
              ? t(`admin.people.${ACTION_TEXT[asking.action]}`)
              : ''
        }
        cancelLabel={t('common.cancel')}
        danger={asking?.action === 'deactivate'}
        busy={action.busy}
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(null)}
      >
        {asking && (
          <p>
            {t(`admin.people.confirmText.${ACTION_TEXT[asking.action]}`, {
              name: fullName(asking.member),
            })}
          </p>
        )}
        {error && <Banner kind="error">{error}</Banner>}
      </ConfirmDialog>
      <PasswordNotice shown={password} onClose={() => setPassword(null)} />
    </StaffPage>
  );
}
