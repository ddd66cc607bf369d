// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuantityStepper } from '../../src/components/form-field';
import { quantityLimit, type QuantityLimit } from '../../src/contracts/order-lines';

afterEach(cleanup);

const said = (limit: QuantityLimit) => `${limit.kind} ${limit.count}`;

function stepper(
  stock: number,
  quantity = 2,
  onChange = vi.fn<(quantity: number) => void | Promise<boolean>>(),
) {
  render(
    <QuantityStepper
      quantity={quantity}
      stock={stock}
      label="Quantity of Shampoo"
      labels={{ decrease: 'One less', increase: 'One more', update: 'Update', limited: said }}
      onChange={onChange}
    />,
  );
  const input = screen.getByRole('spinbutton', { name: 'Quantity of Shampoo' });
  const type = (value: string) => {
    fireEvent.change(input, { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
  };
  return { input, type, onChange, note: () => screen.getByRole('status').textContent };
}

describe('the rule a typed quantity broke', () => {
  it('names the stock, a line’s most, or the least, and nothing for a quantity kept', () => {
    expect(quantityLimit(99, 65)).toEqual({ kind: 'stock', count: 65 });
    expect(quantityLimit(20_000, 50_000)).toEqual({ kind: 'line', count: 9999 });
    expect(quantityLimit(0, 65)).toEqual({ kind: 'least', count: 1 });
    expect(quantityLimit(-3, 65)).toEqual({ kind: 'least', count: 1 });
    expect(quantityLimit(65, 65)).toBeNull();
    expect(quantityLimit(2.5, 65)).toBeNull();
  });
});

describe('the cart’s quantity stepper', () => {
  it('sets a quantity above the stock to the stock and says so under it', () => {
    const { input, type, onChange, note } = stepper(65);
    type('99999');
    expect(onChange).toHaveBeenCalledExactlyOnceWith(65);
    expect((input as HTMLInputElement).value).toBe('65');
    expect(note()).toBe('stock 65');
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByRole('status').id);
  });

  it('sets 0 to 1 and says how to take the product out', () => {
    const { type, onChange, note } = stepper(65);
    type('0');
    expect(onChange).toHaveBeenCalledExactlyOnceWith(1);
    expect(note()).toBe('least 1');
  });

  it('says nothing of a quantity kept as typed, and forgets the note once typing again', () => {
    const { input, type, onChange, note } = stepper(65);
    type('7');
    expect(onChange).toHaveBeenCalledExactlyOnceWith(7);
    expect(note()).toBe('');
    type('100');
    expect(note()).toBe('stock 65');
    fireEvent.change(input, { target: { value: '3' } });
    expect(note()).toBe('');
    expect(input.getAttribute('aria-describedby')).toBeNull();
  });

  it('forgets the note when a step button is clicked', () => {
    const { type, note } = stepper(65);
    type('100');
    fireEvent.click(screen.getByRole('button', { name: 'One less' }));
    expect(note()).toBe('');
  });

  it('shows the quantity it has again when a change was not kept, and lets it be asked again', async () => {
    const onChange = vi.fn(() => Promise.resolve(false));
    const { input, type } = stepper(65, 2, onChange);
    type('5');
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('2'));
    type('5');
    expect(onChange.mock.calls).toEqual([[5], [5]]);

    // Nor does it keep saying why a refused quantity was changed.
    type('100');
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('2'));
    expect(screen.getByRole('status').textContent).toBe('');

    // A step after a change not kept counts from the quantity the line has.
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('2'));
    fireEvent.click(screen.getByRole('button', { name: 'One more' }));
    expect(onChange).toHaveBeenLastCalledWith(3);
  });
});
