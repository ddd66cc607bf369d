/**
 * Buttons pressed on a server-rendered screen before the page has taken it over do
 * nothing by themselves. Until the takeover is complete, presses are held back (the
 * page's own handlers never see them, so none counts twice) and noted; then they are
 * pressed again (taking over keeps the markup, and so the same buttons). Only a press on a
 * screen that failed to load is dropped: its buttons are gone.
 *
 * "Complete" means the screen itself has been taken over, not only the layout around it:
 * React takes over the screen's boundary in a pass of its own, and a button pressed again
 * before that pass would reach no handler. So the replay is called from inside that
 * boundary (see ScreenTakenOver in app/app.tsx), or by the error boundary when the
 * screen failed instead.
 */
const pressed: HTMLElement[] = [];
let noting = false;

const note = (event: Event) => {
  const button = (event.target as Element | null)?.closest<HTMLElement>('button[type="button"]');
  if (!button) return;
  event.stopPropagation();
  pressed.push(button);
};

export function startNotingPresses(): void {
  noting = true;
  document.addEventListener('click', note, true);
}

/** Once the screen has been taken over: the page hears presses itself, and the noted ones again. */
export function replayPresses(): void {
  if (!noting) return;
  noting = false;
  document.removeEventListener('click', note, true);
  for (const button of pressed.splice(0)) if (button.isConnected) button.click();
}
