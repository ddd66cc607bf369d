import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../contracts/accounts';
import { MAX_NOTES_LENGTH, type ShippingAddress } from '../../contracts/orders';
import { validateShipping } from '../../contracts/validation';
import { FormField } from '../../components/form-field';
import { fetchMyCompany } from '../../lib/api/accounts';

const FIELDS = ['firstName', 'lastName', 'street', 'city', 'zipCode', 'country', 'phone'] as const;

export function CheckoutForm({
  user,
  busy,
  onSubmit,
  onCancel,
}: {
  user: User;
  busy: boolean;
  onSubmit: (address: ShippingAddress, notes: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [address, setAddress] = useState<ShippingAddress>({
    firstName: user.firstName,
    lastName: user.lastName,
    street: '',
    city: '',
    zipCode: '',
    country: '',
    phone: '',
  });
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  // Prefilled from the company's address; what the user already typed wins.
  useEffect(() => {
    let live = true;
    fetchMyCompany().then(
      (company) =>
        live &&
        setAddress((current) => ({
          ...current,
          street: current.street || company.address,
          city: current.city || company.city,
          zipCode: current.zipCode || company.postalCode,
          country: current.country || company.country,
          phone: current.phone || company.phone,
        })),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = Object.fromEntries(
      FIELDS.map((f) => [f, address[f].trim()]),
    ) as unknown as ShippingAddress;
    const found = validateShipping(trimmed);
    setErrors(Object.fromEntries(found.map((e) => [e.field, t(`validation.${e.code}`)])));
    if (found.length === 0) onSubmit(trimmed, notes.trim());
  };

  return (
    <form className="card checkout" onSubmit={submit} noValidate aria-labelledby="checkout-title">
      <h2 id="checkout-title">{t('checkout.title')}</h2>
      <p>{t('checkout.priceNote')}</p>
      <div className="form-grid">
        {FIELDS.map((field) => (
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
              setAddress((a) => ({ ...a, [field]: event.target.value }));
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
        <button type="submit" className="button" disabled={busy}>
          {t('checkout.placeOrder')}
        </button>
      </div>
    </form>
  );
}
