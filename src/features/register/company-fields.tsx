/**
 * The parts of a company's registration that the company wizard (/company-register) and a
 * sales rep's "New salon" form (/rep/customers/new) share: the company's fields, its
 * address, and its documents with the files chosen so far.
 */
import { useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import {
  REQUIRED_DOCUMENTS,
  type ChosenDocument,
  type DocumentField,
  type DocumentType,
} from '../../contracts/accounts';
import { DOCUMENT_ACCEPT, documentProblem } from '../../contracts/form-schemas';
import { COUNTRIES, DEFAULT_COUNTRY } from '../../contracts/validation';
import { formFields } from '../../components/form-field';

/** A field of the form, as the page's `formFields` draws it. */
type FieldOf<F extends string> = (
  name: F,
  type?: string,
  autoComplete?: string,
  optional?: boolean,
) => ReactNode;

/** A company's fields and address as a new form starts them. */
export const EMPTY_COMPANY = {
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

/**
 * The fields of a registration form, labelled with the wizard's texts; an optional field's
 * label says so.
 */
export function useRegistrationFields<F extends string>(
  values: Record<F, string>,
  errors: Partial<Record<string, string>>,
  change: (field: F, value: string) => void,
) {
  const { t } = useTranslation();
  const inputs = formFields<F>({
    values,
    errors,
    change,
    label: (name) => t(`wizard.fields.${name}` as 'wizard.fields.email'),
    showLabel: t('auth.showPassword'),
    hideLabel: t('auth.hidePassword'),
  });
  const field = (name: F, type = 'text', autoComplete?: string, optional = false) =>
    inputs.field(
      name,
      type,
      autoComplete,
      optional
        ? `${t(`wizard.fields.${name}` as 'wizard.fields.email')} ${t('wizard.optional')}`
        : undefined,
    );
  return { field, password: inputs.password };
}

type CompanyField =
  'companyName' | 'taxNumber' | 'registrationNumber' | 'companyEmail' | 'companyPhone';
type AddressField = 'address' | 'city' | 'postalCode' | 'website';

export function CompanyDetailsFields({ field }: { field: FieldOf<CompanyField> }) {
  return (
    <>
      {field('companyName', 'text', 'organization')}
      <div className="form-grid">
        {field('taxNumber')}
        {field('registrationNumber')}
      </div>
      <div className="form-grid">
        {field('companyEmail', 'email', 'email')}
        {field('companyPhone', 'tel', 'tel')}
      </div>
    </>
  );
}

export function CompanyAddressFields({
  field,
  id,
  country,
  error,
  onCountry,
}: {
  field: FieldOf<AddressField>;
  /** The id of the country's select. */
  id: string;
  country: string;
  error: string | undefined;
  onCountry: (country: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {field('address', 'text', 'street-address')}
      <div className="form-grid">
        {field('city', 'text', 'address-level2')}
        {field('postalCode', 'text', 'postal-code')}
      </div>
      <div className={`form-field${error ? ' has-error' : ''}`}>
        <label htmlFor={id}>{t('wizard.fields.country')}</label>
        <select id={id} value={country} onChange={(event) => onCountry(event.target.value)}>
          {COUNTRIES.map((name) => (
            <option key={name} value={name}>
              {t(`countries.${name}`)}
            </option>
          ))}
        </select>
        {error && <p className="form-field__error">{error}</p>}
      </div>
      {field('website', 'url', 'url', true)}
    </>
  );
}

/** The documents a company is asked for, then any other. */
const DOCUMENTS: readonly { field: DocumentField; type: DocumentType }[] = [
  ...REQUIRED_DOCUMENTS,
  { field: 'otherDocument', type: 'OTHER' },
];

const typeOf = (field: DocumentField) =>
  DOCUMENTS.find((document) => document.field === field)?.type ?? 'OTHER';

/**
 * The files chosen for `field` checked before they are sent: those that can go, and the
 * messages of those that cannot (too large, not a PDF, JPEG or PNG).
 */
function checkChosenFiles(
  field: DocumentField,
  chosen: FileList | null,
  t: (key: `documents.${'tooLarge' | 'unsupported'}`, values: { name: string }) => string,
): { accepted: ChosenDocument[]; problems: string[] } {
  const list = [...(chosen ?? [])];
  const problems = list.flatMap((file) => {
    const problem = documentProblem(file);
    return problem === null ? [] : [t(`documents.${problem}`, { name: file.name })];
  });
  const accepted = list.filter((file) => documentProblem(file) === null);
  return { accepted: accepted.map((file) => ({ field, file })), problems };
}

/**
 * The files chosen so far with those just `accepted` for `field`: one file per document a
 * company is asked for (a new choice replaces the old one), any number of other documents.
 */
function withChosen(
  current: readonly ChosenDocument[],
  field: DocumentField,
  accepted: readonly ChosenDocument[],
): ChosenDocument[] {
  return [
    ...current.filter(
      (chosen) => field === 'otherDocument' || chosen.field !== field || accepted.length === 0,
    ),
    ...accepted,
  ];
}

/**
 * The documents chosen in a form: `choose` checks the files picked for a field, keeps
 * those that can go and puts the others' messages under the field; `remove` takes one out.
 */
export function useChosenDocuments(setErrors: Dispatch<SetStateAction<Record<string, string>>>) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<ChosenDocument[]>([]);
  const choose = (field: DocumentField, chosen: FileList | null) => {
    const { accepted, problems } = checkChosenFiles(field, chosen, t);
    setErrors(({ [field]: _cleared, ...rest }) =>
      problems.length ? { ...rest, [field]: problems.join(' ') } : rest,
    );
    setFiles((current) => withChosen(current, field, accepted));
  };
  const remove = (index: number) => setFiles((current) => current.filter((_, i) => i !== index));
  return { files, choose, remove };
}

/**
 * One file field per document (any number of other documents), and the files chosen so
 * far with a button to take each out. `photo`: a tablet's camera is offered first.
 */
export function DocumentUploads({
  idPrefix,
  rulesId,
  files,
  errors,
  photo = false,
  onChoose,
  onRemove,
}: {
  idPrefix: string;
  /** The id of the text that says which files are accepted. */
  rulesId: string;
  files: readonly ChosenDocument[];
  errors: Partial<Record<string, string>>;
  photo?: boolean;
  onChoose: (field: DocumentField, chosen: FileList | null) => void;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {DOCUMENTS.map(({ field, type }) => (
        <div key={field} className={`form-field${errors[field] ? ' has-error' : ''}`}>
          <label htmlFor={`${idPrefix}-${field}`}>{t(`documents.types.${type}`)}</label>
          <input
            id={`${idPrefix}-${field}`}
            type="file"
            accept={photo ? `${DOCUMENT_ACCEPT},image/*` : DOCUMENT_ACCEPT}
            capture={photo ? 'environment' : undefined}
            multiple={field === 'otherDocument'}
            aria-invalid={errors[field] ? true : undefined}
            aria-describedby={errors[field] ? `${idPrefix}-${field}-error` : rulesId}
            onChange={(event) => {
              onChoose(field, event.target.files);
              event.target.value = '';
            }}
          />
          {errors[field] && (
            <p id={`${idPrefix}-${field}-error`} className="form-field__error" role="alert">
              {errors[field]}
            </p>
          )}
        </div>
      ))}
      {files.length > 0 && (
        <ul className="file-list" aria-label={t('wizard.chosenFiles')}>
          {files.map(({ field, file }, index) => (
            <li key={`${field}-${file.name}-${index}`}>
              <span>
                {t(`documents.types.${typeOf(field)}`)}: {file.name} (
                {t('wizard.fileSize', { size: (file.size / 1024 / 1024).toFixed(2) })})
              </span>
              <button
                type="button"
                className="button button--ghost button--small"
                aria-label={t('wizard.removeFile', { name: file.name })}
                onClick={() => onRemove(index)}
              >
                {t('wizard.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
