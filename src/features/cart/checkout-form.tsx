import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Company, User } from '../../contracts/accounts';
import { MAX_NOTES_LENGTH, type ShippingAddress } from '../../contracts/orders';
import {
  SHIPPING_FIELDS,
  trimmedAddress,
  validateShipping,
  type ShippingField,
} from '../../contracts/form-schemas';
import { COUNTRIES } from '../../contracts/validation';
import { FormField } from '../../components/form-field';
import { refreshCompany } from '../../lib/sync/company';
import { getConnectivity } from '../../lib/sync/connectivity';
import { useStoredCompany } from '../../lib/sync/use-device-data';
import { ruleMessages, showBrokenRules } from '../../lib/use-form';

type Country = (typeof COUNTRIES)[number];

/**
 * The address the form starts from: the user's name, the company's address and phone. The
 * country as the user reads it (the company keeps the wizard's choice, in English), none
 * for "Other", which is no country to ship to: the user types it.
 */
const prefilled = (
  user: User,
  company: Company | undefined,
  countryName: (country: string) => string,
): ShippingAddress => ({
  firstName: user.firstName,
  lastName: user.lastName,
  street: company?.address ?? '',
  city: company?.city ?? '',
  zipCode: company?.postalCode ?? '',
  country: company?.country ? countryName(company.country) : '',
  phone: company?.phone ?? '',
});

export function CheckoutForm({
  user,
  hidden = false,
  busy,
  onSubmit,
  onCancel,
}: {
  user: User;
  hidden?: boolean;
  busy: boolean;
  onSubmit: (address: ShippingAddress, notes: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  // The company as kept on the device, so that the address is there offline too; what the
  // user typed wins over it, also when a newer copy arrives.
  const stored = useStoredCompany();
  const [typed, setTyped] = useState<Partial<Record<ShippingField, string>>>({});
  const countryName = (country: string) =>
    country === 'Other'
      ? ''
      : (COUNTRIES as readonly string[]).includes(country)
        ? t(`countries.${country as Country}`)
        : country;
  const address: ShippingAddress = { ...prefilled(user, stored?.company, countryName), ...typed };
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Online, the company is read again (it may have moved); offline there is nothing to wait for.
  const [reading, setReading] = useState(() => getConnectivity() === 'online');
  useEffect(() => {
    if (getConnectivity() !== 'online') return;
    let live = true;
    void refreshCompany().finally(() => {
      if (live) setReading(false);
    });
    return () => {
      live = false;
    };
  }, []);
  // Until the device has answered, or while a first copy is on its way, the form would be
  // sent with an empty address: the order waits for the prefill.
  const loading = stored === undefined || (stored === null && reading);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    const trimmed = trimmedAddress(address);
    const found = validateShipping(trimmed);
    showBrokenRules(event.currentTarget, () => setErrors(ruleMessages(t, found)));
    if (found.length === 0) onSubmit(trimmed, notes.trim());
  };

  return (
    <form
      className="card checkout"
      hidden={hidden}
      onSubmit={submit}
      noValidate
      aria-labelledby="checkout-title"
    >
      <h2 id="checkout-title">{t('checkout.title')}</h2>
      <p>{t('checkout.priceNote')}</p>
      <div className="form-grid">
        {SHIPPING_FIELDS.map((field) => (
          <FormField
            key={field}
            label={t(`checkout.fields.${field}`)}
            value={address[field]}
            error={errors[field]}
            type={field === 'phone' ? 'tel' : 'text'}
            autoComplete={
              {
                firstName: 'given-name',
                lastName: 'family-name',
                street: 'street-address',
                city: 'address-level2',
                zipCode: 'postal-code',
                country: 'country-name',
                phone: 'tel',
              }[field]
            }
            onChange={(event) => {
              setTyped((current) => ({ ...current, [field]: event.target.value }));
              setErrors(({ [field]: _cleared, ...rest }) => rest);
            }}
          />
        ))}
      </div>
      <div className="form-field">
        <label htmlFor="checkout-notes">{t('checkout.notes')}</label>
        <textarea
          id="checkout-notes"
          rows={3}
          maxLength={MAX_NOTES_LENGTH}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </div>
      <p className="hint">{t('checkout.payment')}</p>
      <div className="card__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button" disabled={busy || loading} aria-busy={loading}>
          {loading ? t('checkout.loadingAddress') : t('checkout.placeOrder')}
        </button>
      </div>
    </form>
  );
}
