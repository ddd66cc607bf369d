import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../components/form-field';
import { MAX_ORDER_LINES, type RepCustomer } from '../../contracts/field-sales';
import {
  SHIPPING_FIELDS,
  trimmedAddress,
  validateShipping,
  type ShippingField,
} from '../../contracts/form-schemas';
import { MAX_NOTES_LENGTH, type ShippingAddress } from '../../contracts/orders';
import { queueRepOrder, TooManyLines, type RepCartView } from '../../lib/sync/rep-cart';
import { ruleMessages, showBrokenRules } from '../../lib/use-form';
import { canOrderFor, shippingAddressOf } from './customer-address';
import { SignaturePad } from './signature-pad';

export interface CheckoutProps {
  customer: RepCustomer;
  view: RepCartView;
  /** Called with the order's reference on this device once it is queued. */
  onPlaced: (localRef: string) => void;
}

/**
 * Taking the order with the customer: the delivery address (from the customer's record,
 * as corrected with it), a note and the customer's signature. The order is queued on the
 * device and sent when there is a connection.
 */
export function CartCheckout({ customer, view, onPlaced }: CheckoutProps) {
  const { t } = useTranslation();
  const id = useId();
  // What the rep typed wins over the record, also when a newer copy of it arrives.
  const [typed, setTyped] = useState<Partial<Record<ShippingField, string>>>({});
  const address: ShippingAddress = { ...shippingAddressOf(customer), ...typed };
  const [notes, setNotes] = useState('');
  const signature = useRef<string | null>(null);
  // The picture of the last stroke is made in the background: the order waits for it.
  const signatureMade = useRef<Promise<void>>(Promise.resolve());
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const { cart, missing } = view;
  const blocked = !canOrderFor(customer)
    ? t('fieldSales.cart.checkout.notApproved')
    : missing.length > 0
      ? t('fieldSales.cart.checkout.missing')
      : cart.items.length === 0
        ? t('fieldSales.cart.checkout.empty')
        : null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || blocked) return;
    const shippingAddress = trimmedAddress(address);
    const found = validateShipping(shippingAddress);
    showBrokenRules(event.currentTarget, () => setErrors(ruleMessages(t, found)));
    if (found.length > 0) {
      setProblem(t('validation.reviewFields'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      await signatureMade.current;
      const localRef = await queueRepOrder({
        customerId: customer.id,
        cart,
        shippingAddress,
        notes: notes.trim(),
        signature: signature.current,
      });
      onPlaced(localRef);
    } catch (error) {
      setProblem(
        error instanceof TooManyLines
          ? t('fieldSales.cart.quick.tooManyLines', { max: MAX_ORDER_LINES })
          : t('fieldSales.cart.checkout.failed'),
      );
      setBusy(false);
    }
  };

  return (
    <form
      className="card rep-cart__checkout"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`}>{t('fieldSales.cart.checkout.title')}</h2>
      <p>{t('fieldSales.cart.checkout.lead', { name: customer.name })}</p>
      <fieldset className="rep-cart__address">
        <legend>{t('fieldSales.cart.checkout.address')}</legend>
        <div className="form-grid">
          {SHIPPING_FIELDS.map((field) => (
            <FormField
              key={field}
              label={t(`checkout.fields.${field}`)}
              value={address[field]}
              error={errors[field]}
              type={field === 'phone' ? 'tel' : 'text'}
              // The customer's address, not the rep's own that the browser may know.
              autoComplete="off"
              onChange={(event) => {
                setTyped((current) => ({ ...current, [field]: event.target.value }));
                setErrors(({ [field]: _cleared, ...rest }) => rest);
              }}
            />
          ))}
        </div>
      </fieldset>
      <div className="form-field">
        <label htmlFor={`${id}-notes`}>{t('fieldSales.cart.checkout.notes')}</label>
        <textarea
          id={`${id}-notes`}
          rows={3}
          maxLength={MAX_NOTES_LENGTH}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </div>
      <SignaturePad
        onChange={(png) => {
          signature.current = png;
        }}
        onPictureStarted={(handedOver) => {
          signatureMade.current = handedOver;
        }}
        disabled={busy}
      />
      <p className="form-field__hint">{t('fieldSales.cart.checkout.signatureOptional')}</p>
      {problem && (
        <p className="banner banner--error" role="alert">
          {problem}
        </p>
      )}
      {blocked && (
        <p className="notice notice--offline" id={`${id}-blocked`}>
          {blocked}
        </p>
      )}
      <div className="card__actions">
        <button
          type="submit"
          className="button button--large"
          disabled={busy || blocked !== null}
          aria-describedby={blocked ? `${id}-blocked` : undefined}
        >
          {busy ? t('fieldSales.cart.checkout.placing') : t('fieldSales.cart.checkout.place')}
        </button>
      </div>
    </form>
  );
}
