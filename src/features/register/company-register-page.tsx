import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router-dom';
import { validateWizardStep, WIZARD_STEP_SCHEMAS } from '../../contracts/form-schemas';
import { Banner } from '../../components/banner';
import { ScreenMeta } from '../screen-meta';
import { registerCompany } from '../../lib/api/accounts';
import { classifyFailure, fieldErrors } from '../../lib/api/failure';
import { useSession } from '../../lib/auth/session';
import { useConnectivity } from '../../lib/sync/connectivity';
import { useForm } from '../../lib/use-form';
import { useSignInAfterRegistering } from './after-registering';
import {
  CompanyAddressFields,
  CompanyDetailsFields,
  DocumentUploads,
  EMPTY_COMPANY,
  useChosenDocuments,
  useRegistrationFields,
} from './company-fields';
import { registrationFailure } from './server-errors';
import '../screens.css';

/**
 * How long the success message stays before the sign-in page
 * (docs/product.md#company-registration).
 */
const REDIRECT_AFTER_MS = 5000;
const STEPS = [1, 2, 3, 4] as const;
type Step = (typeof STEPS)[number];

const EMPTY = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  ...EMPTY_COMPANY,
};
type Field = keyof typeof EMPTY;

const stepOf = (field: string): Step =>
  STEPS.find((step) => field in WIZARD_STEP_SCHEMAS[step].properties) ?? 4;

export function CompanyRegisterPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [step, setStep] = useState<Step>(1);
  const { values, errors, setErrors, change, check } = useForm(EMPTY);
  const documents = useChosenDocuments(setErrors);
  const [banner, setBanner] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const firstRender = useRef(true);
  const done = banner?.kind === 'success';
  const connectivity = useConnectivity();

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // A step gone back to for a broken rule: its first field to fix; else the step's heading.
    const broken = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (broken ?? heading.current)?.focus();
  }, [step]);

  useSignInAfterRegistering(done, 'companyRegistered', REDIRECT_AFTER_MS);

  const { field, password } = useRegistrationFields<Field>(values, errors, change);

  if (session && !done) return <Navigate to="/" replace />;

  const checkStep = (target: Step, form: HTMLFormElement): boolean => {
    const valid = check(validateWizardStep(target, values), form);
    setBanner(valid ? null : { kind: 'error', text: t('validation.reviewFields') });
    return valid;
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (step < 4) {
      if (checkStep(step, form)) setStep((step + 1) as Step);
      return;
    }
    for (const s of STEPS) {
      if (!checkStep(s, form)) {
        setStep(s);
        return;
      }
    }
    setBusy(true);
    setBanner(null);
    try {
      const { website, ...rest } = values;
      await registerCompany(website.trim() ? values : rest, documents.files);
      setBanner({ kind: 'success', text: t('wizard.success') });
    } catch (error) {
      // The wizard keeps what was typed and the files chosen; only the messages change.
      const failure = await classifyFailure(error);
      if (failure.kind === 'refused' && failure.status === 400 && failure.body?.details?.length) {
        const mapped = fieldErrors(t, failure.body);
        setErrors(mapped);
        const first = Object.keys(mapped)[0];
        if (first) setStep(stepOf(first));
        setBanner({ kind: 'error', text: t('validation.reviewFields') });
      } else {
        setBanner({ kind: 'error', text: registrationFailure(failure, t, t('wizard.failed')) });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page wizard">
      <ScreenMeta
        title={t('wizard.title')}
        description={t('wizard.description')}
        path="/company-register"
      />
      <h1>{t('wizard.title')}</h1>
      <ol className="wizard__steps">
        {STEPS.map((s) => (
          <li
            key={s}
            aria-current={s === step ? 'step' : undefined}
            className={s < step ? 'is-done' : undefined}
          >
            <span className="wizard__number">{s}</span> {t(`wizard.steps.${s}`)}
          </li>
        ))}
      </ol>
      {connectivity === 'offline' && <Banner kind="info">{t('register.needsNetwork')}</Banner>}
      {banner && <Banner kind={banner.kind}>{banner.text}</Banner>}
      <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate>
        <h2 ref={heading} tabIndex={-1}>
          {t('wizard.stepOf', { step, total: STEPS.length })}: {t(`wizard.steps.${step}`)}
        </h2>
        {step === 1 && (
          <>
            <div className="form-grid">
              {field('firstName', 'text', 'given-name')}
              {field('lastName', 'text', 'family-name')}
            </div>
            {field('email', 'email', 'email')}
            <div className="form-grid">
              {password('password')}
              {password('confirmPassword')}
            </div>
          </>
        )}
        {step === 2 && <CompanyDetailsFields field={field} />}
        {step === 3 && (
          <CompanyAddressFields
            field={field}
            id="wizard-country"
            country={values.country}
            error={errors.country}
            onCountry={(country) => change('country', country)}
          />
        )}
        {step === 4 && (
          <>
            <p id="upload-rules">{t('wizard.documentsIntro')}</p>
            <DocumentUploads
              idPrefix="upload"
              rulesId="upload-rules"
              files={documents.files}
              errors={errors}
              onChoose={documents.choose}
              onRemove={documents.remove}
            />
          </>
        )}
        <div className="wizard__actions">
          {step > 1 && (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => setStep((step - 1) as Step)}
            >
              {t('wizard.previous')}
            </button>
          )}
          <button type="submit" className="button" disabled={busy || done}>
            {step < 4 ? t('wizard.next') : t('wizard.submit')}
          </button>
        </div>
      </form>
      <p>
        {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
      </p>
    </div>
  );
}
