import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';

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
