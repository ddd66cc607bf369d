import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_REASON_LENGTH } from '../../contracts/admin';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';

/**
 * A staff decision asked about first: with a reason or a note when `label` names it (reject,
 * suspend, a document's review), else only confirmed (approve, reactivate). What was typed
 * stays in the dialog when the change fails, with the reason for the failure.
 */
export function DecisionDialog({
  open,
  title,
  text,
  label,
  hint,
  confirmLabel,
  danger = false,
  busy,
  error,
  value,
  onChange,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  text: string;
  label?: string | undefined;
  hint?: string | undefined;
  confirmLabel: string;
  danger?: boolean;
  busy: boolean;
  error: string | null;
  /** The reason typed, with `label`. */
  value?: string;
  onChange?: (value: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={busy ? t('admin.sending') : confirmLabel}
      cancelLabel={t('common.cancel')}
      danger={danger}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{text}</p>
      {error && <Banner kind="error">{error}</Banner>}
      {label && (
        <div className="form-field">
          <label htmlFor={id}>{label}</label>
          <textarea
            id={id}
            rows={4}
            maxLength={MAX_REASON_LENGTH}
            value={value ?? ''}
            aria-describedby={hint ? `${id}-hint` : undefined}
            onChange={(event) => onChange?.(event.target.value)}
          />
          {hint && (
            <p id={`${id}-hint`} className="form-field__hint">
              {hint}
            </p>
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}
