import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { NotificationSettings, User } from '../../contracts/accounts';
import { validatePasswordChange } from '../../contracts/form-schemas';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PasswordField } from '../../components/form-field';
import { changePassword, deleteAccount, updateNotifications } from '../../lib/api/accounts';
import { classifyFailure, failureText } from '../../lib/api/failure';
import { signOut, updateStoredUser } from '../../lib/auth/session-actions';
import { ruleMessages, showBrokenRules } from '../../lib/use-form';

type Message = { kind: 'error' | 'success'; text: string } | null;

function PasswordChange() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState({
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validatePasswordChange(values);
    showBrokenRules(event.currentTarget, () => setErrors(ruleMessages(t, found)));
    if (found.length > 0) return;
    setBusy(true);
    try {
      await changePassword(values.currentPassword, values.newPassword);
      setMessage({ kind: 'success', text: t('settings.passwordChanged') });
      setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
      setOpen(false);
    } catch (error) {
      // The three fields keep what was typed.
      const failure = await classifyFailure(error);
      const wrongPassword =
        failure.kind === 'refused' && failure.body?.details?.[0]?.code === 'currentPasswordWrong';
      if (wrongPassword) setErrors({ currentPassword: t('settings.currentPasswordWrong') });
      setMessage({
        kind: 'error',
        text: wrongPassword
          ? t('settings.passwordFailed')
          : failureText(t, failure, {
              offline: t('profile.needsNetwork'),
              refused: t('settings.passwordFailed'),
            }),
      });
    } finally {
      setBusy(false);
    }
  };

  const field = (name: keyof typeof values, autoComplete: string) => (
    <PasswordField
      label={t(`settings.${name}`)}
      autoComplete={autoComplete}
      value={values[name]}
      error={errors[name]}
      showLabel={t('auth.showPassword')}
      hideLabel={t('auth.hidePassword')}
      onChange={(event) => {
        setValues((v) => ({ ...v, [name]: event.target.value }));
        setErrors(({ [name]: _cleared, ...rest }) => rest);
      }}
    />
  );

  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">{t('settings.passwordTitle')}</h2>
      {message && <Banner kind={message.kind}>{message.text}</Banner>}
      {open ? (
        <form onSubmit={(event) => void submit(event)} noValidate>
          {field('currentPassword', 'current-password')}
          {field('newPassword', 'new-password')}
          {field('confirmPassword', 'new-password')}
          <div className="card__actions">
            <button type="button" className="button button--ghost" onClick={() => setOpen(false)}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="button" disabled={busy}>
              {t('settings.changePassword')}
            </button>
          </div>
        </form>
      ) : (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            setMessage(null);
            setOpen(true);
          }}
        >
          {t('settings.changePassword')}
        </button>
      )}
    </section>
  );
}

/**
 * Saved on each change, one request after the other, each with every box as it is then:
 * a second click while the first is on its way is not lost (the server replaces all three).
 * A failed save puts the boxes back as the server has them, and the clicks queued behind it
 * are not sent: what the page shows is what is saved, with the error.
 */
function Notifications({ user }: { user: User }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState<Message>(null);
  const [settings, setSettings] = useState(user.notifications);
  const wanted = useRef(user.notifications);
  const saved = useRef(user.notifications);
  const saving = useRef(Promise.resolve());
  const failures = useRef(0);
  const save = (change: Partial<NotificationSettings>) => {
    wanted.current = { ...wanted.current, ...change };
    setSettings(wanted.current);
    setMessage(null);
    const failuresBefore = failures.current;
    saving.current = saving.current.then(async () => {
      // Undone with the failed save before it.
      if (failures.current !== failuresBefore) return;
      try {
        const { user: stored } = await updateNotifications(wanted.current);
        saved.current = stored.notifications;
        void updateStoredUser(stored);
        setMessage({ kind: 'success', text: t('settings.notificationsSaved') });
      } catch (error) {
        failures.current += 1;
        wanted.current = saved.current;
        setSettings(saved.current);
        setMessage({
          kind: 'error',
          text: failureText(t, await classifyFailure(error), {
            offline: t('profile.needsNetwork'),
            refused: t('settings.notificationsFailed'),
          }),
        });
      }
    });
  };
  return (
    <section className="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t('settings.notificationsTitle')}</h2>
      {(['orderNotifications', 'newProductNotifications', 'marketingNewsletter'] as const).map(
        (key) => (
          <label key={key} className="checkbox">
            <input
              type="checkbox"
              checked={settings[key]}
              onChange={(event) => save({ [key]: event.target.checked })}
            />
            {t(`settings.${key}`)}
          </label>
        ),
      )}
      {message && <Banner kind={message.kind}>{message.text}</Banner>}
    </section>
  );
}

function DeleteAccount() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!password) return setError(t('validation.passwordRequired'));
    setBusy(true);
    try {
      await deleteAccount(password);
      await signOut();
      void navigate('/', { replace: true });
    } catch (error) {
      // The password typed stays in its field.
      const failure = await classifyFailure(error);
      setError(
        failure.kind === 'refused' && failure.body?.details?.[0]?.code === 'currentPasswordWrong'
          ? t('settings.currentPasswordWrong')
          : failureText(t, failure, {
              offline: t('profile.needsNetwork'),
              refused: t('settings.deleteFailed'),
            }),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card card--danger" aria-labelledby="delete-title">
      <h2 id="delete-title">{t('settings.deleteTitle')}</h2>
      <p>{t('settings.deleteText')}</p>
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
        {t('settings.deleteAccount')}
      </button>
      <ConfirmDialog
        open={open}
        danger
        busy={busy}
        title={t('settings.deleteConfirmTitle')}
        confirmLabel={t('settings.deleteAccount')}
        cancelLabel={t('common.cancel')}
        onCancel={() => {
          setOpen(false);
          setPassword('');
          setError(undefined);
        }}
        onConfirm={() => void confirm()}
      >
        <p>{t('settings.deleteConfirmText')}</p>
        <PasswordField
          label={t('settings.confirmWithPassword')}
          autoComplete="current-password"
          value={password}
          error={error}
          showLabel={t('auth.showPassword')}
          hideLabel={t('auth.hidePassword')}
          onChange={(event) => {
            setPassword(event.target.value);
            setError(undefined);
          }}
        />
      </ConfirmDialog>
    </section>
  );
}

export function SettingsTab({ user }: { user: User }) {
  return (
    <div className="card-grid">
      <PasswordChange />
      <Notifications user={user} />
      {/* The maker's accounts are closed in the back office (docs/api.md#people-staff-accounts). */}
      {user.role === 'USER' && <DeleteAccount />}
    </div>
  );
}
