/**
 * Buttons clicked on a server-rendered screen before hydration do nothing by themselves.
 * Until the screen is hydrated, clicks are held back (the page's own handlers never see
 * them, so none counts twice) and noted; then they are made again (hydration keeps the
 * markup, and so the same buttons). Only a click on a screen that failed to load is
 * dropped: its buttons are gone.
 *
 * "Hydrated" means the screen itself, not only the layout around it: React hydrates the
 * screen's Suspense boundary in a pass of its own, and a click made again before that pass
 * would reach no handler. So the replay is called from inside that boundary (see
 * ScreenHydrated in app/app.tsx), or by the error boundary when the screen failed instead.
 */
const held: HTMLElement[] = [];
let holding = false;

const hold = (event: Event) => {
  const button = (event.target as Element | null)?.closest<HTMLElement>('button[type="button"]');
  if (!button) return;
  event.stopPropagation();
  held.push(button);
};

export function holdClicksUntilHydrated(): void {
  holding = true;
  document.addEventListener('click', hold, true);
}

/** Once the screen is hydrated: the page hears clicks itself, and the held ones again. */
export function replayHeldClicks(): void {
  if (!holding) return;
  holding = false;
  document.removeEventListener('click', hold, true);
  for (const button of held.splice(0)) if (button.isConnected) button.click();
}
