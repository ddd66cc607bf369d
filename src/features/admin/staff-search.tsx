import { useEffect, useState } from 'react';

/**
 * The search of a staff list (companies, orders, products): typed freely, applied when
 * sent, and showing the address's search again when it changes (back, a link, "Clear").
 */
export function StaffSearch({
  id,
  value,
  label,
  button,
  hint,
  onSearch,
}: {
  /** The field's id; its hint is `${id}-hint`. */
  id: string;
  /** The search in the address. */
  value: string;
  label: string;
  button: string;
  hint: string;
  onSearch: (search: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <form
      role="search"
      className="staff-filters__search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(draft);
      }}
    >
      <div className="form-field">
        <label htmlFor={id}>{label}</label>
        <div className="staff-filters__row">
          <input
            id={id}
            type="search"
            value={draft}
            maxLength={200}
            aria-describedby={`${id}-hint`}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="button">
            {button}
          </button>
        </div>
        <p id={`${id}-hint`} className="form-field__hint">
          {hint}
        </p>
      </div>
    </form>
  );
}
