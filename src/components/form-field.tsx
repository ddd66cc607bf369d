import {
  useEffect,
  useId,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { clampQuantity, quantityLimit, type QuantityLimit } from '../contracts/order-lines';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The message shown under the field and announced with it. */
  error?: string | undefined;
  hint?: ReactNode;
}

/** The hint and error under a field, and the ids that tie them to its input. */
function useFieldMessages(error: string | undefined, hint: ReactNode) {
  const id = useId();
  const describedBy =
    [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const messages = (
    <>
      {hint && (
        <p id={`${id}-hint`} className="form-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-field__error">
          {error}
        </p>
      )}
    </>
  );
  return { id, describedBy, messages };
}

const fieldClass = (error: string | undefined, className: string | undefined) =>
  `form-field${error ? ' has-error' : ''}${className ? ` ${className}` : ''}`;

/** A labelled input whose error is tied to it for assistive technology. */
export function FormField({ label, error, hint, className, ...input }: FormFieldProps) {
  const { id, describedBy, messages } = useFieldMessages(error, hint);
  return (
    <div className={fieldClass(error, className)}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {messages}
    </div>
  );
}

export interface PasswordFieldProps extends FormFieldProps {
  showLabel: string;
  hideLabel: string;
}

/** A password input with a button that shows or hides what was typed. */
export function PasswordField({
  label,
  error,
  hint,
  showLabel,
  hideLabel,
  className,
  ...input
}: PasswordFieldProps) {
  const { id, describedBy, messages } = useFieldMessages(error, hint);
  const [visible, setVisible] = useState(false);
  return (
    <div className={fieldClass(error, className)}>
      <label htmlFor={id}>{label}</label>
      <div className="form-field__password">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        <button
          type="button"
          className="button button--ghost button--small"
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? hideLabel : showLabel}
        </button>
      </div>
      {messages}
    </div>
  );
}

interface FormFieldsOptions<F extends string> {
  values: Record<F, string>;
  errors: Partial<Record<string, string>>;
  change: (name: F, value: string) => void;
  /** The label of each field. */
  label: (name: F) => string;
  /** The password fields' button, to show or hide what was typed. */
  showLabel: string;
  hideLabel: string;
}

/**
 * The inputs of a form that keeps its values and errors by field name: `field` makes a
 * labelled input bound to one value, `password` a new password with its show button.
 */
export function formFields<F extends string>(options: FormFieldsOptions<F>) {
  const { values, errors, change, label, showLabel, hideLabel } = options;
  const field = (name: F, type = 'text', autoComplete?: string, labelText = label(name)) => (
    <FormField
      label={labelText}
      type={type}
      autoComplete={autoComplete}
      value={values[name]}
      error={errors[name]}
      onChange={(event) => change(name, event.target.value)}
    />
  );
  const password = (name: F, hint?: string) => (
    <PasswordField
      label={label(name)}
      autoComplete="new-password"
      value={values[name]}
      error={errors[name]}
      hint={hint}
      showLabel={showLabel}
      hideLabel={hideLabel}
      onChange={(event) => change(name, event.target.value)}
    />
  );
  return { field, password };
}

export interface QuantityStepperProps {
  quantity: number;
  stock: number;
  label: string;
  labels: {
    decrease: string;
    increase: string;
    update: string;
    /** What is said under the stepper when a typed quantity was changed. */
    limited: (limit: QuantityLimit) => string;
  };
  /**
   * A new quantity (already clamped); 0 means remove the line. Resolving to false says it
   * was not kept: the stepper shows the quantity it has again, and the same change can be
   * asked once more.
   */
  onChange: (quantity: number) => void | Promise<boolean>;
}

/**
 * The cart's stepper (docs/product.md#cart): minus at 1 removes the line, plus stops at the
 * stock; a typed quantity is clamped and applied on blur, Enter or the update button, and
 * a clamped one says why under the stepper.
 */
export function QuantityStepper({
  quantity,
  stock,
  label,
  labels,
  onChange,
}: QuantityStepperProps) {
  const noteId = useId();
  const [draft, setDraft] = useState(String(quantity));
  const [limit, setLimit] = useState<QuantityLimit | null>(null);
  // The quantity last asked for, until the new `quantity` comes back: typing then clicking
  // Update commits on blur and again on click, and must ask once.
  const asked = useRef(quantity);
  const shown = useRef(quantity);
  useEffect(() => {
    shown.current = quantity;
    asked.current = quantity;
    setDraft(String(quantity));
  }, [quantity]);
  const change = (next: number) => {
    if (next === asked.current) return;
    asked.current = next;
    void Promise.resolve(onChange(next)).then((kept) => {
      if (kept !== false || asked.current !== next) return;
      asked.current = shown.current;
      setDraft(String(shown.current));
      setLimit(null);
    });
  };
  const step = (next: number) => {
    setLimit(null);
    change(next);
  };
  const commit = () => {
    const typed = Number(draft);
    const next = clampQuantity(typed, stock);
    // An empty field or a quantity typed again is no news; a clamped one is.
    if (draft.trim() !== '' && String(next) !== draft.trim()) setLimit(quantityLimit(typed, stock));
    setDraft(String(next));
    change(next);
  };
  return (
    <div className="stepper">
      <button
        type="button"
        className="stepper__button"
        aria-label={labels.decrease}
        onClick={() => step(asked.current <= 1 ? 0 : asked.current - 1)}
      >
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        max={Math.max(1, stock)}
        aria-label={label}
        aria-describedby={limit ? noteId : undefined}
        value={draft}
        onChange={(event) => {
          setLimit(null);
          setDraft(event.target.value);
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
      />
      <button
        type="button"
        className="stepper__button"
        aria-label={labels.increase}
        disabled={quantity >= stock}
        onClick={() => step(clampQuantity(asked.current + 1, stock))}
      >
        +
      </button>
      <button type="button" className="button button--ghost button--small" onClick={commit}>
        {labels.update}
      </button>
      <p id={noteId} className="stepper__note" role="status">
        {limit && labels.limited(limit)}
      </p>
    </div>
  );
}
