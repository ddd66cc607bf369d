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
import { validateRepCustomer } from '../../contracts/form-schemas';
import { Banner } from '../../components/banner';
import { ScreenMeta } from '../screen-meta';
import { registerAtBooth } from '../../lib/sync/rep-registration';
import { useForm } from '../../lib/use-form';
import {
  CompanyAddressFields,
  CompanyDetailsFields,
  DocumentUploads,
  EMPTY_COMPANY,
  useChosenDocuments,
  useRegistrationFields,
} from '../register/company-fields';
import '../screens.css';

type Field = keyof typeof EMPTY_COMPANY;

export function NewCustomerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { values, errors, setErrors, change, check } = useForm(EMPTY_COMPANY);
  const documents = useChosenDocuments(setErrors);
  const [banner, setBanner] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check(validateRepCustomer(values), event.currentTarget)) {
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
      await registerAtBooth(fields, documents.files);
      await navigate('/rep', {
        state: { registered: fields.companyName },
      });
    } catch {
      // Nothing typed or chosen is lost: the form stays as it was.
      setBanner(t('fieldSales.newCustomer.failed'));
      setBusy(false);
    }
  };

  const { field } = useRegistrationFields<Field>(values, errors, change);

  return (
    <div className="page wizard">
      <ScreenMeta
        title={t('fieldSales.newCustomer.title')}
        description={t('fieldSales.newCustomer.intro')}
        path="/rep/customers/new"
      />
      <h1>{t('fieldSales.newCustomer.title')}</h1>
      <p>{t('fieldSales.newCustomer.intro')}</p>
      {banner && <Banner kind="error">{banner}</Banner>}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <fieldset>
          <legend>{t('wizard.steps.2')}</legend>
          <CompanyDetailsFields field={field} />
        </fieldset>
        <fieldset>
          <legend>{t('wizard.steps.3')}</legend>
          <CompanyAddressFields
            field={field}
            id="new-customer-country"
            country={values.country}
            error={errors.country}
            onCountry={(country) => change('country', country)}
          />
        </fieldset>
        <fieldset>
          <legend>{t('wizard.steps.4')}</legend>
          <p id="booth-upload-rules">{t('fieldSales.newCustomer.documentsIntro')}</p>
          <DocumentUploads
            idPrefix="booth"
            rulesId="booth-upload-rules"
            files={documents.files}
            errors={errors}
            photo
            onChoose={documents.choose}
            onRemove={documents.remove}
          />
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
