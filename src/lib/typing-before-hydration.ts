/**
 * Text typed into a field of a server-rendered screen before hydration. Hydration resets
 * controlled fields to their rendered value, so the page notes what was typed just before
 * (by field id) and the field's owner picks it up once.
 */
import { useEffect, useSyncExternalStore } from 'react';

const typed = new Map<string, string>();

/** Called just before the page hydrates the server's markup in `root`. */
export function noteTypingBeforeHydration(root: HTMLElement): void {
  for (const field of root.querySelectorAll('input')) {
    if (field.id && field.value !== field.defaultValue) typed.set(field.id, field.value);
  }
}

/** Gives the field `id` what was typed into it before hydration, if anything. */
export function useTypingBeforeHydration(id: string, setValue: (value: string) => void): void {
  useEffect(() => {
    const value = typed.get(id);
    if (value === undefined) return;
    typed.delete(id);
    setValue(value);
    // Once, at hydration; later changes come through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** False on the server's markup until the page has hydrated it: for actions that need the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}

const noop = () => () => undefined;
