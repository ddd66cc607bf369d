import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router-dom';
import { validateRegisterForm } from '../../contracts/form-schemas';
import { DEFAULT_COUNTRY } from '../../contracts/validation';
import { Banner } from '../../components/banner';
import { formFields } from '../../components/form-field';
import { ScreenMeta } from '../screen-meta';
import { registerPerson } from '../../lib/api/accounts';
import { classifyFailure, fieldErrors, refusalText } from '../../lib/api/failure';
import { useSession } from '../../lib/auth/session';
import { useConnectivity } from '../../lib/sync/connectivity';
import { ruleMessages, showBrokenRules } from '../../lib/use-form';
import { useSignInAfterRegistering } from './after-registering';
import { registrationFailure } from './server-errors';
import '../screens.css';

/** How long the success message stays before the sign-in page (docs/product.md#registration). */
const REDIRECT_AFTER_MS = 3000;

const EMPTY = {
  firstName: '',
  lastName: '',
  email: '',
  company: '',
  taxNumber: '',
  password: '',
  confirmPassword: '',
};
type Field = keyof typeof EMPTY;

export function RegisterPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [values, setValues] = useState(EMPTY);
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const done = banner?.kind === 'success';
  const connectivity = useConnectivity();

  useSignInAfterRegistering(done, 'registered', REDIRECT_AFTER_MS);

  if (session && !done) return <Navigate to="/" replace />;

  const change = (field: Field | 'acceptTerms', value: string) => {
    if (field !== 'acceptTerms') setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBanner(null);
    const trimmed = {
      ...values,
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: values.email.trim(),
      company: values.company.trim(),
      taxNumber: values.taxNumber.trim(),
    };
    const found = validateRegisterForm({ ...trimmed, acceptTerms });
    showBrokenRules(event.currentTarget, () => setErrors(ruleMessages(t, found)));
    if (found.length > 0) {
      setBanner({ kind: 'error', text: t('validation.reviewFields') });
      return;
    }
    setBusy(true);
    try {
      await registerPerson({
        email: trimmed.email,
        password: trimmed.password,
        firstName: trimmed.firstName,
        lastName: trimmed.lastName,
        companyName: trimmed.company,
        companyEmail: trimmed.email,
        companyCountry: DEFAULT_COUNTRY,
        taxNumber: trimmed.taxNumber,
      });
      setBanner({ kind: 'success', text: t('register.success') });
    } catch (error) {
      // The form keeps what was typed; only the messages change.
      const failure = await classifyFailure(error);
      if (failure.kind === 'refused' && failure.status === 400) {
        const body = failure.body;
        setErrors(fieldErrors(t, body, { companyName: 'company', companyEmail: 'email' }));
        setBanner({
          kind: 'error',
          text: body?.details?.length
            ? t('validation.reviewFields')
            : body
              ? refusalText(t, body)
              : t('register.invalidInput'),
        });
      } else {
        setBanner({ kind: 'error', text: registrationFailure(failure, t, t('register.failed')) });
      }
    } finally {
      setBusy(false);
    }
  };

  const { field, password: passwordField } = formFields<Field>({
    values,
    errors,
    change,
    label: (name) => t(`register.fields.${name}`),
    showLabel: t('auth.showPassword'),
    hideLabel: t('auth.hidePassword'),
  });
  const password = (name: 'password' | 'confirmPassword') =>
    passwordField(name, name === 'password' ? t('register.passwordHint') : undefined);

  return (
    <div className="page auth-page">
      <ScreenMeta
        title={t('register.title')}
        description={t('register.description')}
        path="/register"
      />
      <section className="auth-page__form">
        <h1>{t('register.title')}</h1>
        <p>
          {t('register.wizardIntro')} <Link to="/company-register">{t('register.wizardLink')}</Link>
        </p>
        {connectivity === 'offline' && <Banner kind="info">{t('register.needsNetwork')}</Banner>}
        {banner && <Banner kind={banner.kind}>{banner.text}</Banner>}
        <form onSubmit={(event) => void submit(event)} noValidate>
          <div className="form-grid">
            {field('firstName', 'text', 'given-name')}
            {field('lastName', 'text', 'family-name')}
          </div>
          {field('email', 'email', 'email')}
          <div className="form-grid">
            {field('company', 'text', 'organization')}
            {field('taxNumber')}
          </div>
          <div className="form-grid">
            {password('password')}
            {password('confirmPassword')}
          </div>
          <div className={`form-field${errors.acceptTerms ? ' has-error' : ''}`}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={acceptTerms}
                aria-invalid={errors.acceptTerms ? true : undefined}
                aria-describedby={errors.acceptTerms ? 'terms-error' : undefined}
                onChange={(event) => {
                  setAcceptTerms(event.target.checked);
                  change('acceptTerms', '');
                }}
              />
              <span>
                {t('register.acceptTermsBefore')} <Link to="/terms">{t('footer.terms')}</Link>{' '}
                {t('register.acceptTermsAnd')} <Link to="/privacy">{t('footer.privacy')}</Link>
              </span>
            </label>
            {errors.acceptTerms && (
              <p id="terms-error" className="form-field__error">
                {errors.acceptTerms}
              </p>
            )}
          </div>
          <button type="submit" className="button button--large" disabled={busy || done}>
            {t('register.submit')}
          </button>
        </form>
        <p>
          {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
        </p>
      </section>
      <aside className="auth-page__aside">
        <h2>{t('register.benefitsTitle')}</h2>
        <ul className="highlights">
          <li>{t('register.benefits.prices')}</li>
          <li>{t('register.benefits.verification')}</li>
          <li>{t('register.benefits.training')}</li>
          <li>{t('register.benefits.offline')}</li>
        </ul>
      </aside>
    </div>
  );
}
