/**
 * Buttons clicked on a server-rendered screen before hydration do nothing by themselves.
 * Until the screen is hydrated, clicks are held back (the page's own handlers never see
 * them, so none counts twice) and noted; then they are made again (hydration keeps the
 * markup, and so the same buttons). Only a click on a screen that failed to load is
 * dropped: its buttons are gone.
 *
 * What was typed in a field meanwhile is noted too, and told to the field's handlers once
 * the screen is hydrated: otherwise its state stays the server's value, and the next
 * render puts that back over what the user typed.
 *
 * "Hydrated" means the screen itself, not only the layout around it: React hydrates the
 * screen's Suspense boundary in a pass of its own, and a click made again before that pass
 * would reach no handler. So the replay is called from inside that boundary (see
 * ScreenHydrated in app/app.tsx), or by the error boundary when the screen failed instead.
 */
type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const held: HTMLElement[] = [];
const typed = new Map<Field, string>();
let holding = false;

const hold = (event: Event) => {
  const button = (event.target as Element | null)?.closest<HTMLElement>('button[type="button"]');
  if (!button) return;
  event.stopPropagation();
  held.push(button);
};

const note = (event: Event) => {
  const field = event.target as Field;
  // A chosen file stays chosen, and no script may set one.
  if (field.type !== 'file') typed.set(field, field.value);
};

export function holdClicksUntilHydrated(): void {
  holding = true;
  document.addEventListener('click', hold, true);
  document.addEventListener('input', note, true);
}

/** Once the screen is hydrated: the page hears clicks itself, and the held ones again. */
export function replayHeldClicks(): void {
  if (!holding) return;
  holding = false;
  document.removeEventListener('click', hold, true);
  document.removeEventListener('input', note, true);
  for (const [field, value] of typed) {
    if (!field.isConnected) continue;
    // Emptied through React's own setter first, so that its onChange hears the value.
    field.value = '';
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value);
    for (const type of ['input', 'change']) field.dispatchEvent(new Event(type, { bubbles: true }));
  }
  typed.clear();
  for (const button of held.splice(0)) if (button.isConnected) button.click();
}
