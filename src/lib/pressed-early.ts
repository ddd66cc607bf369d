/**
 * Buttons pressed on a server-rendered screen before the page has taken it over do
 * nothing by themselves. They are noted, and pressed again once the page has taken over
 * (the markup, and so the buttons, stay the same elements): a tap is never lost.
 */
const pressed: HTMLElement[] = [];
let noting = false;

const note = (event: Event) => {
  const button = (event.target as Element | null)?.closest<HTMLElement>('button[type="button"]');
  if (button) pressed.push(button);
};

export function startNotingPresses(): void {
  noting = true;
  document.addEventListener('click', note, true);
}

/** From here on the page hears presses itself (it replays those during the takeover). */
export function stopNotingPresses(): void {
  if (!noting) return;
  noting = false;
  document.removeEventListener('click', note, true);
}

/** Once the page has taken over: the noted presses, again. */
export function replayPresses(): void {
  for (const button of pressed.splice(0)) if (button.isConnected) button.click();
}
