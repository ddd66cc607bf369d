import { useEffect, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import type { Product } from '../contracts/catalogue';
import './product-combobox.css';

export interface ProductComboboxProps {
  /** The input's id: the caller's label points at it. */
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The products suggested for what is typed (none when too little is typed). */
  suggestions: readonly Product[];
  /** Whether the list of suggestions is shown. */
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A suggestion picked, with the mouse or the keyboard. */
  onChoose: (product: Product) => void;
  /** What an option shows of its product. */
  renderOption: (product: Product) => ReactNode;
  /** The accessible name of the list of suggestions. */
  listLabel: string;
  inputRef?: Ref<HTMLInputElement> | undefined;
  describedBy?: string | undefined;
  invalid?: boolean | undefined;
  onBlur?: (() => void) | undefined;
  onFocus?: (() => void) | undefined;
  enterKeyHint?: 'done' | 'next' | undefined;
}

/**
 * A text field with a list of product suggestions under it (the ARIA combobox pattern):
 * the field keeps the focus, the arrow keys move through the list, Enter picks the
 * highlighted product and Escape closes the list.
 */
export function ProductCombobox({
  id,
  value,
  onValueChange,
  suggestions,
  open,
  onOpenChange,
  onChoose,
  renderOption,
  listLabel,
  inputRef,
  describedBy,
  invalid,
  onBlur,
  onFocus,
  enterKeyHint,
}: ProductComboboxProps) {
  const [active, setActive] = useState(-1);
  const shown = open ? suggestions : [];
  const activeProduct = shown[active];
  const listId = `${id}-suggestions`;
  const optionId = (product: Product) => `${id}-option-${product.id}`;
  const activeId = activeProduct ? optionId(activeProduct) : undefined;
  // The option chosen with the arrow keys stays in sight in a list that scrolls.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const choose = (product: Product) => {
    onOpenChange(false);
    setActive(-1);
    onChoose(product);
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = suggestions.length;
    if (event.key === 'ArrowDown' && count > 0) {
      event.preventDefault();
      onOpenChange(true);
      setActive((index) => Math.min(index + 1, count - 1));
    } else if (event.key === 'ArrowUp' && shown.length > 0) {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter' && activeProduct) {
      event.preventDefault();
      choose(activeProduct);
    } else if (event.key === 'Escape' && shown.length > 0) {
      event.preventDefault();
      onOpenChange(false);
      setActive(-1);
    }
  };

  return (
    <div className="product-combobox">
      <input
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint={enterKeyHint}
        aria-autocomplete="list"
        aria-expanded={shown.length > 0}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        value={value}
        onChange={(event) => {
          onValueChange(event.target.value);
          onOpenChange(true);
          setActive(-1);
        }}
        onKeyDown={keyDown}
        onFocus={onFocus}
        onBlur={() => {
          onOpenChange(false);
          onBlur?.();
        }}
      />
      <ul
        id={listId}
        role="listbox"
        className="product-combobox__list"
        aria-label={listLabel}
        hidden={shown.length === 0}
      >
        {shown.map((product, index) => (
          // The field keeps the focus and handles the keys (aria-activedescendant).
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={product.id}
            id={optionId(product)}
            role="option"
            aria-selected={index === active}
            className="product-combobox__option"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(product)}
          >
            {renderOption(product)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What an option usually shows: the product's name, SKU and price, and a note when out of stock. */
export function ProductOption({
  name,
  sku,
  price,
  stockNote,
}: {
  name: string;
  sku: string;
  price: string;
  /** Shown when the product is out of stock. */
  stockNote?: string | undefined;
}) {
  return (
    <>
      <span className="product-combobox__name">{name}</span>{' '}
      <span className="product-combobox__sku">{sku}</span> <span>{price}</span>
      {stockNote && (
        <>
          {' '}
          <span className="product-combobox__stock">{stockNote}</span>
        </>
      )}
    </>
  );
}
