/** Most page buttons shown at once (docs/product.md#catalogue). */
export const MAX_PAGE_BUTTONS = 7;

/**
 * The page numbers to show as buttons: at most `max`, a window around the current page,
 * shifted at either end so that it always shows `max` pages when there are that many.
 */
export function paginationWindow(
  current: number,
  totalPages: number,
  max = MAX_PAGE_BUTTONS,
): number[] {
  if (totalPages <= 0) return [];
  const count = Math.min(max, totalPages);
  const page = Math.min(Math.max(current, 1), totalPages);
  let first = page - Math.floor((count - 1) / 2);
  first = Math.max(1, Math.min(first, totalPages - count + 1));
  return Array.from({ length: count }, (_, i) => first + i);
}
