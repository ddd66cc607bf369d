import { useEffect, useRef } from 'react';

/**
 * For the buttons and links of a prompt that appears over the page (held at the bottom of
 * the window): whether a click began before the prompt was there. Such a tap was aimed at
 * the page under it and must not answer the prompt ("Reload" in the middle of a form): its
 * default is prevented and the caller ignores it. A click from the keyboard always counts.
 */
export function useClickBeganBefore(): (event: {
  detail: number;
  preventDefault: () => void;
}) => boolean {
  const pressedSince = useRef(false);
  useEffect(() => {
    const pressed = () => (pressedSince.current = true);
    document.addEventListener('pointerdown', pressed, true);
    return () => document.removeEventListener('pointerdown', pressed, true);
  }, []);
  return (event) => {
    if (event.detail === 0 || pressedSince.current) return false;
    event.preventDefault();
    return true;
  };
}
