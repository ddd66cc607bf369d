import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { validatePasswordReset } from '../../contracts/form-schemas';
import { Banner } from '../../components/banner';
import { PasswordField } from '../../components/form-field';
import { ScreenMeta } from '../screen-meta';
import { confirmPasswordReset } from '../../lib/api/account-links';
import { classifyFailure, failureText, fieldErrors } from '../../lib/api/failure';
import { getSession } from '../../lib/auth/session-store';
import { useForm } from '../../lib/use-form';
import '../screens.css';

const EMPTY = { newPassword: '', confirmPassword: '' };

/** Refusals of the link itself: the form cannot help, a new link can. */
const LINK_REFUSALS = ['TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_USED'];

/**
 * `/account/reset-password?token=…`, opened from the e-mail: a new password, with the
 * registration's rules. Every session of the account ends; the user signs in with it.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const { values, errors, setErrors, change, check } = useForm(EMPTY);
  const [failure, setFailure] = useState<{ text: string; linkRefused: boolean } | null>(
    token ? null : { text: t('serverErrors.TOKEN_INVALID'), linkRefused: true },
  );
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const valid = check(validatePasswordReset(values), event.currentTarget);
    setFailure(null);
    if (!valid) return;
    setBusy(true);
    try {
      await confirmPasswordReset(token, values.newPassword);
      // Every session of the account has ended, this device's too.
      if (getSession()) await import('../../lib/auth/session-actions').then((m) => m.signOut());
      await navigate('/login', { replace: true, state: { notice: 'passwordReset' } });
    } catch (caught) {
      const failure = await classifyFailure(caught);
      const code = failure.kind === 'refused' ? failure.body?.code : undefined;
      if (failure.kind === 'refused') setErrors(fieldErrors(t, failure.body));
      setFailure({
        text: failureText(t, failure, {
          offline: t('account.offline'),
          refused: t('account.reset.failed'),
        }),
        linkRefused: code !== undefined && LINK_REFUSALS.includes(code),
      });
      setBusy(false);
    }
  };

  return (
    <div className="page auth-page">
      <ScreenMeta
        title={t('account.reset.title')}
        description={t('account.reset.description')}
        path="/account/reset-password"
      />
      <meta name="robots" content="noindex" />
      <section className="auth-page__form">
        <h1>{t('account.reset.title')}</h1>
        {failure && <Banner kind="error">{failure.text}</Banner>}
        {failure?.linkRefused ? (
          <p>
            <Link to="/account/forgot-password">{t('account.reset.askAgain')}</Link>
          </p>
        ) : (
          <>
            <p>{t('account.reset.intro')}</p>
            <form onSubmit={(event) => void submit(event)} noValidate>
              <PasswordField
                label={t('account.reset.newPassword')}
                autoComplete="new-password"
                value={values.newPassword}
                error={errors.newPassword}
                hint={t('register.passwordHint')}
                showLabel={t('auth.showPassword')}
                hideLabel={t('auth.hidePassword')}
                onChange={(event) => change('newPassword', event.target.value)}
              />
              <PasswordField
                label={t('account.reset.confirmPassword')}
                autoComplete="new-password"
                value={values.confirmPassword}
                error={errors.confirmPassword}
                showLabel={t('auth.showPassword')}
                hideLabel={t('auth.hidePassword')}
                onChange={(event) => change('confirmPassword', event.target.value)}
              />
              <button type="submit" className="button button--large" disabled={busy}>
                {busy ? t('account.reset.saving') : t('account.reset.submit')}
              </button>
            </form>
          </>
        )}
      </section>
    </div>
  );
}
