import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router-dom';
import type { Role } from '../../contracts/accounts';
import { validateLogin } from '../../contracts/form-schemas';
import { BACK_OFFICE_PATH, FIELD_SALES_PATH } from '../../contracts/routes';
import type { FieldError } from '../../contracts/validation';
import { Banner } from '../../components/banner';
import { FormField, PasswordField } from '../../components/form-field';
import { ScreenMeta } from '../screen-meta';
import { classifyFailure, failureText } from '../../lib/api/failure';
import { signIn } from '../../lib/auth/session-actions';
import { useSession } from '../../lib/auth/session';
import '../screens.css';

/** Where each role works: staff in the back office, a sales rep among its customers. */
const homeOf = (role: Role): string =>
  role === 'ADMIN' ? BACK_OFFICE_PATH : role === 'SALES_REP' ? FIELD_SALES_PATH : '/';

interface LoginState {
  from?: string;
  notice?: 'registered' | 'companyRegistered' | 'expired' | 'signedOut' | 'passwordReset';
}

export function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const state = (useLocation().state ?? {}) as LoginState;
  const [values, setValues] = useState({ email: '', password: '' });
  const [remember, setRemember] = useState(true);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (session) return <Navigate to={state.from ?? homeOf(session.user.role)} replace />;

  const fieldError = (field: string) => {
    const error = errors.find((e) => e.field === field);
    return error ? t(`validation.${error.code}`) : undefined;
  };
  const change = (field: 'email' | 'password', value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((list) => list.filter((e) => e.field !== field));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateLogin(values);
    setErrors(found);
    setFailure(null);
    if (found.length > 0) return;
    setBusy(true);
    try {
      await signIn(values.email, values.password, remember);
    } catch (error) {
      // What was typed stays in the form, whatever the failure.
      const failure = await classifyFailure(error);
      if (failure.kind === 'refused' && failure.status === 429) {
        const wait = failure.body?.retryAfter ?? 900;
        setFailure(t('auth.tooManyAttempts', { count: Math.ceil(wait / 60) }));
      } else if (
        failure.kind === 'refused' &&
        failure.status === 401 &&
        // A deactivated account is told so, once its password was right (docs/api.md#people-staff-accounts).
        failure.body?.code !== 'ACCOUNT_DEACTIVATED'
      ) {
        setFailure(t('auth.invalidCredentials'));
      } else {
        setFailure(
          failureText(t, failure, { offline: t('auth.offline'), refused: t('auth.loginFailed') }),
        );
      }
      setBusy(false);
    }
  };

  return (
    <div className="page auth-page">
      <ScreenMeta title={t('auth.title')} description={t('auth.description')} path="/login" />
      <section className="auth-page__form">
        <h1>{t('auth.title')}</h1>
        {state.notice && (
          <Banner kind={state.notice === 'expired' ? 'info' : 'success'}>
            {t(`auth.notice.${state.notice}`)}
          </Banner>
        )}
        {failure && <Banner kind="error">{failure}</Banner>}
        <form onSubmit={(event) => void submit(event)} noValidate>
          <FormField
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            value={values.email}
            error={fieldError('email')}
            onChange={(event) => change('email', event.target.value)}
          />
          <PasswordField
            label={t('auth.password')}
            autoComplete="current-password"
            value={values.password}
            error={fieldError('password')}
            showLabel={t('auth.showPassword')}
            hideLabel={t('auth.hidePassword')}
            onChange={(event) => change('password', event.target.value)}
          />
          <div className="auth-page__row">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={remember}
                onChange={(event) => setRemember(event.target.checked)}
              />
              {t('auth.rememberMe')}
            </label>
            <Link to="/account/forgot-password" state={{ email: values.email.trim() }}>
              {t('auth.forgotPassword')}
            </Link>
          </div>
          <button type="submit" className="button button--large" disabled={busy}>
            {busy ? t('auth.signingIn') : t('auth.submit')}
          </button>
        </form>
        <p>
          {t('auth.noAccount')} <Link to="/register">{t('auth.registerLink')}</Link>
        </p>
      </section>
      <aside className="auth-page__aside">
        <h2>{t('auth.highlightsTitle')}</h2>
        <ul className="highlights">
          <li>{t('auth.highlights.prices')}</li>
          <li>{t('auth.highlights.offline')}</li>
          <li>{t('auth.highlights.orders')}</li>
        </ul>
      </aside>
    </div>
  );
}
