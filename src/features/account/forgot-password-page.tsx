import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { validateForgotPassword } from '../../contracts/form-schemas';
import { Banner } from '../../components/banner';
import { FormField } from '../../components/form-field';
import { ScreenMeta } from '../screen-meta';
import { requestPasswordReset } from '../../lib/api/account-links';
import { classifyFailure, failureText } from '../../lib/api/failure';
import '../screens.css';

/** `/account/forgot-password`: the account's e-mail, to send it a link for a new password. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  // The sign-in form hands over what was typed there.
  const typed = (useLocation().state as { email?: string } | null)?.email ?? '';
  const [email, setEmail] = useState(typed);
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateForgotPassword({ email: email.trim() });
    setError(found[0] ? t(`validation.${found[0].code}`) : undefined);
    setFailure(null);
    if (found.length > 0) return;
    setBusy(true);
    try {
      await requestPasswordReset(email.trim());
      setSentTo(email.trim());
    } catch (caught) {
      const failure = await classifyFailure(caught);
      setFailure(
        failureText(t, failure, {
          offline: t('account.offline'),
          refused: t('account.forgot.failed'),
        }),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page auth-page">
      <ScreenMeta
        title={t('account.forgot.title')}
        description={t('account.forgot.description')}
        path="/account/forgot-password"
      />
      <section className="auth-page__form">
        <h1>{t('account.forgot.title')}</h1>
        {sentTo ? (
          <>
            <Banner kind="success">{t('account.forgot.sent', { email: sentTo })}</Banner>
            <p>{t('account.forgot.sentHint')}</p>
            <p>
              <Link to="/login">{t('account.backToSignIn')}</Link>
            </p>
          </>
        ) : (
          <>
            <p>{t('account.forgot.intro')}</p>
            {failure && <Banner kind="error">{failure}</Banner>}
            <form onSubmit={(event) => void submit(event)} noValidate>
              <FormField
                label={t('auth.email')}
                type="email"
                autoComplete="email"
                value={email}
                error={error}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setError(undefined);
                }}
              />
              <button type="submit" className="button button--large" disabled={busy}>
                {busy ? t('account.forgot.sending') : t('account.forgot.submit')}
              </button>
            </form>
            <p>
              <Link to="/login">{t('account.backToSignIn')}</Link>
            </p>
          </>
        )}
      </section>
    </div>
  );
}
