/**
 * A new salon registered by a sales rep at the booth (docs/product.md#field-sales): the
 * company wizard's company and address fields and its documents, photographed with the
 * tablet's camera or picked from files. Kept on the device and queued at once, offline
 * too; the rep then orders for it straight away, and its orders wait for the maker to
 * verify it.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  REQUIRED_DOCUMENTS,
  type DocumentField,
  type DocumentType,
} from '../../contracts/accounts';
import {
  DOCUMENT_ACCEPT,
  documentProblem,
  validateRepCustomer,
} from '../../contracts/form-schemas';
import { COUNTRIES, DEFAULT_COUNTRY } from '../../contracts/validation';
import { Banner } from '../../components/banner';
import { formFields } from '../../components/form-field';
import { PageMeta } from '../../components/page-meta';
import { registerAtBooth, type BoothDocument } from '../../lib/sync/rep-registration';
import '../screens.css';

const EMPTY = {
  companyName: '',
  taxNumber: '',
  registrationNumber: '',
  companyEmail: '',
  companyPhone: '',
  address: '',
  city: '',
  postalCode: '',
  country: DEFAULT_COUNTRY as string,
  website: '',
};
type Field = keyof typeof EMPTY;

/** The documents a salon is asked for, then any other. */
const DOCUMENTS: readonly { field: DocumentField; type: DocumentType }[] = [
  ...REQUIRED_DOCUMENTS,
  { field: 'otherDocument', type: 'OTHER' },
];

export function NewCustomerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState(EMPTY);
  const [files, setFiles] = useState<BoothDocument[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  const addFiles = (field: DocumentField, chosen: FileList | null) => {
    const list = [...(chosen ?? [])];
    const problems = list.flatMap((file) => {
      const problem = documentProblem(file);
      return problem === null ? [] : [t(`documents.${problem}`, { name: file.name })];
    });
    setErrors(({ [field]: _cleared, ...rest }) =>
      problems.length ? { ...rest, [field]: problems.join(' ') } : rest,
    );
    const accepted = list.filter((file) => documentProblem(file) === null);
    setFiles((current) => [...current, ...accepted.map((file) => ({ field, file }))]);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateRepCustomer(values);
    setErrors(Object.fromEntries(found.map((e) => [e.field, t(`validation.${e.code}`)])));
    if (found.length > 0) {
      setBanner(t('validation.reviewFields'));
      return;
    }
    setBusy(true);
    setBanner(null);
    try {
      const { website, ...rest } = values;
      const fields = Object.fromEntries(
        Object.entries(website.trim() ? values : rest).map(([k, v]) => [k, v.trim()]),
      ) as typeof rest;
      await registerAtBooth(fields, files);
      await navigate('/rep', {
        state: { registered: fields.companyName },
      });
    } catch {
      // Nothing typed or chosen is lost: the form stays as it was.
      setBanner(t('fieldSales.newCustomer.failed'));
      setBusy(false);
    }
  };

  const inputs = formFields<Field>({
    values,
    errors,
    change,
    label: (name) => t(`wizard.fields.${name}`),
    showLabel: t('auth.showPassword'),
    hideLabel: t('auth.hidePassword'),
  });
  const field = (name: Field, type = 'text', autoComplete?: string, optional = false) =>
    inputs.field(
      name,
      type,
      autoComplete,
      optional ? `${t(`wizard.fields.${name}`)} ${t('wizard.optional')}` : undefined,
    );

  return (
    <div className="page wizard">
      <PageMeta
        title={`${t('fieldSales.newCustomer.title')} | ${t('meta.titleSuffix')}`}
        description={t('fieldSales.newCustomer.intro')}
        keywords={t('meta.keywords')}
        path="/rep/customers/new"
      />
      <h1>{t('fieldSales.newCustomer.title')}</h1>
      <p>{t('fieldSales.newCustomer.intro')}</p>
      {banner && <Banner kind="error">{banner}</Banner>}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <fieldset>
          <legend>{t('wizard.steps.2')}</legend>
          {field('companyName', 'text', 'organization')}
          <div className="form-grid">
            {field('taxNumber')}
            {field('registrationNumber')}
          </div>
          <div className="form-grid">
            {field('companyEmail', 'email', 'email')}
            {field('companyPhone', 'tel', 'tel')}
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('wizard.steps.3')}</legend>
          {field('address', 'text', 'street-address')}
          <div className="form-grid">
            {field('city', 'text', 'address-level2')}
            {field('postalCode', 'text', 'postal-code')}
          </div>
          <div className={`form-field${errors.country ? ' has-error' : ''}`}>
            <label htmlFor="new-customer-country">{t('wizard.fields.country')}</label>
            <select
              id="new-customer-country"
              value={values.country}
              onChange={(event) => change('country', event.target.value)}
            >
              {COUNTRIES.map((country) => (
                <option key={country} value={country}>
                  {t(`countries.${country}`)}
                </option>
              ))}
            </select>
            {errors.country && <p className="form-field__error">{errors.country}</p>}
          </div>
          {field('website', 'url', 'url', true)}
        </fieldset>
        <fieldset>
          <legend>{t('wizard.steps.4')}</legend>
          <p id="booth-upload-rules">{t('fieldSales.newCustomer.documentsIntro')}</p>
          {DOCUMENTS.map(({ field: name, type }) => (
            <div key={name} className={`form-field${errors[name] ? ' has-error' : ''}`}>
              <label htmlFor={`booth-${name}`}>{t(`documents.types.${type}`)}</label>
              <input
                id={`booth-${name}`}
                type="file"
                // A photo taken with the tablet's camera, or a file already on it.
                accept={`${DOCUMENT_ACCEPT},image/*`}
                capture="environment"
                multiple={name === 'otherDocument'}
                aria-invalid={errors[name] ? true : undefined}
                aria-describedby={errors[name] ? `booth-${name}-error` : 'booth-upload-rules'}
                onChange={(event) => {
                  addFiles(name, event.target.files);
                  event.target.value = '';
                }}
              />
              {errors[name] && (
                <p id={`booth-${name}-error`} className="form-field__error" role="alert">
                  {errors[name]}
                </p>
              )}
            </div>
          ))}
          {files.length > 0 && (
            <ul className="file-list" aria-label={t('wizard.chosenFiles')}>
              {files.map(({ field: kind, file }, index) => (
                <li key={`${kind}-${file.name}-${index}`}>
                  <span>
                    {t(
                      `documents.types.${DOCUMENTS.find((d) => d.field === kind)?.type ?? 'OTHER'}`,
                    )}
                    : {file.name} (
                    {t('wizard.fileSize', { size: (file.size / 1024 / 1024).toFixed(2) })})
                  </span>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-label={t('wizard.removeFile', { name: file.name })}
                    onClick={() => setFiles((current) => current.filter((_, i) => i !== index))}
                  >
                    {t('wizard.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <div className="wizard__actions">
          <button type="submit" className="button" disabled={busy}>
            {t('fieldSales.newCustomer.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}
