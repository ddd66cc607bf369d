/**
 * Buttons pressed on a server-rendered screen before the page has taken it over do
 * nothing by themselves. Until the takeover is complete, presses are held back (the
 * page's own handlers never see them, so none counts twice) and noted; then they are
 * pressed again (the markup, and so the buttons, stay the same elements): a tap is never lost.
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

/** Once the page has taken over: the page hears presses itself, and the noted ones again. */
export function replayPresses(): void {
  if (!noting) return;
  noting = false;
  document.removeEventListener('click', note, true);
  for (const button of pressed.splice(0)) if (button.isConnected) button.click();
}
