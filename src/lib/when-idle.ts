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
