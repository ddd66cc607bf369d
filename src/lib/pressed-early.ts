/**
 * Buttons pressed on a server-rendered screen before the page has taken it over do
 * nothing by themselves. Until the takeover is complete, presses are held back (the
 * page's own handlers never see them, so none counts twice) and noted; then they are
 * pressed again. Only a press on a screen that failed to load is dropped: its buttons are gone.
 *
 * "Complete" means the screen itself has been taken over, not only the layout around it:
 * React takes over the screen's boundary in a pass of its own, and a button pressed again
 * before that pass would reach no handler. So the replay is called from inside that
 * boundary (see ScreenTakenOver in app/app.tsx), or by the error boundary when the
 * screen failed instead.
 */
interface Press {
  button: HTMLElement;
  /** Its place among the page's buttons, and what it says: finds it again if it was re-rendered. */
  index: number;
  says: string;
}

const BUTTONS = 'button[type="button"]';
/** Its name and text: "Add to cart" buttons differ only by their label. */
const saysOf = (button: Element): string =>
  `${button.getAttribute('aria-label') ?? ''}|${button.textContent ?? ''}`;
const pressed: Press[] = [];
let noting = false;

const note = (event: Event) => {
  const button = (event.target as Element | null)?.closest<HTMLElement>(BUTTONS);
  if (!button) return;
  event.stopPropagation();
  const index = [...document.querySelectorAll(BUTTONS)].indexOf(button);
  pressed.push({ button, index, says: saysOf(button) });
};

export function startNotingPresses(): void {
  noting = true;
  document.addEventListener('click', note, true);
}

/** The pressed button, or the one that took its place when the screen was rendered anew. */
function current({ button, index, says }: Press): HTMLElement | undefined {
  if (button.isConnected) return button;
  const same = document.querySelectorAll<HTMLElement>(BUTTONS)[index];
  return same && saysOf(same) === says ? same : undefined;
}

/** Once the screen has been taken over: the page hears presses itself, and the noted ones again. */
export function replayPresses(): void {
  if (!noting) return;
  noting = false;
  document.removeEventListener('click', note, true);
  for (const press of pressed.splice(0)) current(press)?.click();
}
