/**
 * "Move up" and "Move down" of a list staff put in order (categories, a product's
 * pictures). While the order is sent every button is disabled, and focus falls to the
 * page; once it is saved, focus goes back to the moved row's button that was clicked, or
 * to its other one where the row can go no further that way.
 */
import { useEffect, useState } from 'react';

/**
 * Call the returned function with the moved row (the `data-move` of its two buttons, "Move
 * up" first) and the way it went, once the move is saved; `busy`: the buttons are disabled
 * for a change being sent.
 */
export function useMoveFocus(busy: boolean): (row: string, up: boolean) => void {
  const [moved, setMoved] = useState<{ row: string; up: boolean } | null>(null);
  useEffect(() => {
    if (!moved) return;
    const [up, down] = document.querySelectorAll<HTMLButtonElement>(
      `[data-move="${CSS.escape(moved.row)}"]`,
    );
    const target = moved.up ? (up?.disabled ? down : up) : down?.disabled ? up : down;
    // Still disabled: the change is not through yet; tried again when it is.
    if (!target || target.disabled) return;
    target.focus();
    setMoved(null);
  }, [moved, busy]);
  return (row, up) => setMoved({ row, up });
}
