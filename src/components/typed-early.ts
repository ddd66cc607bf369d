import { useEffect, type RefObject } from 'react';

/**
 * Text typed into a field the server rendered, before the page took the screen over,
 * becomes the field's value instead of being lost.
 */
export function useTypedEarly(
  field: RefObject<HTMLInputElement | null>,
  value: string,
  setValue: (typed: string) => void,
): void {
  useEffect(() => {
    const typed = field.current?.value;
    if (typed !== undefined && typed !== value) setValue(typed);
    // Once, when the page takes over; later changes come through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
