import { useEffect, useRef, useState } from 'react';
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
 * The cart's stepper (docs/product.md#cart): minus at 1 removes the line, plus stops at the
 * stock; a typed quantity is clamped and applied on blur, Enter or the update button.
 */
export function QuantityStepper({
  quantity,
  stock,
  label,
  labels,
  onChange,
}: QuantityStepperProps) {
  const [draft, setDraft] = useState(String(quantity));
  // The quantity last asked for, until the new `quantity` comes back: typing then clicking
  // Update commits on blur and again on click, and must ask once.
  const asked = useRef(quantity);
  useEffect(() => {
    asked.current = quantity;
    setDraft(String(quantity));
  }, [quantity]);
  const change = (next: number) => {
    if (next === asked.current) return;
    asked.current = next;
    onChange(next);
  };
  const commit = () => {
    const next = clampQuantity(Number(draft), stock);
    setDraft(String(next));
    change(next);
  };
  return (
    <div className="stepper">
      <button
        type="button"
        className="stepper__button"
        aria-label={labels.decrease}
        onClick={() => change(asked.current <= 1 ? 0 : asked.current - 1)}
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
        onClick={() => change(clampQuantity(asked.current + 1, stock))}
      >
        +
      </button>
      <button type="button" className="button button--ghost button--small" onClick={commit}>
        {labels.update}
      </button>
    </div>
  );
}
