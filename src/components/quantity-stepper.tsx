import { useEffect, useState } from 'react';
import { clampQuantity } from '../contracts/orders';

export interface QuantityStepperProps {
  quantity: number;
  stock: number;
  label: string;
  labels: { decrease: string; increase: string; update: string };
  /** A new quantity (already clamped); 0 means remove the line. */
  onChange: (quantity: number) => void;
}

/**
 * The cart's stepper (spec §5): minus at 1 removes the line, plus stops at the stock;
 * a typed quantity is clamped and applied on blur, Enter or the update button.
 */
export function QuantityStepper({
  quantity,
  stock,
  label,
  labels,
  onChange,
}: QuantityStepperProps) {
  const [draft, setDraft] = useState(String(quantity));
  useEffect(() => setDraft(String(quantity)), [quantity]);
  const commit = () => {
    const next = clampQuantity(Number(draft), stock);
    setDraft(String(next));
    if (next !== quantity) onChange(next);
  };
  return (
    <div className="stepper">
      <button
        type="button"
        className="stepper__button"
        aria-label={labels.decrease}
        onClick={() => onChange(quantity <= 1 ? 0 : quantity - 1)}
      >
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        max={Math.max(1, stock)}
        aria-label={label}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
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
        onClick={() => onChange(clampQuantity(quantity + 1, stock))}
      >
        +
      </button>
      <button type="button" className="button button--ghost button--small" onClick={commit}>
        {labels.update}
      </button>
    </div>
  );
}
