/**
 * Work the first screen does not need (the sync engine, the other texts, the service
 * worker) waits until that screen has been shown, the page has loaded and the browser is idle.
 */
let shown: () => void;
const firstScreen = new Promise<void>((resolve) => {
  shown = resolve;
});

/** Called once the first screen is on display; marked for the benchmark and field timing. */
export function markFirstScreen(): void {
  if (performance.getEntriesByName('first-screen').length === 0) performance.mark('first-screen');
  shown();
}

export function whenIdle(): Promise<void> {
  return firstScreen.then(
    () =>
      new Promise<void>((resolve) => {
        const later = () =>
          'requestIdleCallback' in window
            ? window.requestIdleCallback(() => resolve(), { timeout: 2_000 })
            : setTimeout(resolve, 200);
        if (document.readyState === 'complete') later();
        else window.addEventListener('load', later, { once: true });
      }),
  );
}

/**
 * Resolves in a later task (at once after the browser's pending work, not when idle): work
 * split this way never adds up to one long task that holds back a click on a slow phone.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
