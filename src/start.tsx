/** The app starting in the page (loaded by ./main.ts). */
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPage } from './app/pages';
import { readFirstScreen } from './lib/first-screen';
import { noteTypingBeforeHydration } from './lib/typing-before-hydration';
import { detectLanguage, initI18n, loadAllTexts, switchLanguage } from './lib/i18n';
import { registerServiceWorker } from './lib/pwa/register-service-worker';
import { whenKept } from './lib/kept-on-device';

/** Set when the server rendered this page's first screen: the page hydrates that markup. */
const firstScreen = readFirstScreen();
/** The language this device asks for (read before the server's is applied). */
const chosen = detectLanguage();

function start(): void {
  const container = document.getElementById('root') as HTMLElement;
  const app = (
    <StrictMode>
      <App firstScreen={firstScreen} />
    </StrictMode>
  );
  // As a transition, the first screen is built (or hydrated) in slices the browser can interrupt.
  startTransition(() => {
    if (firstScreen) {
      noteTypingBeforeHydration(container);
      hydrateRoot(container, app);
    } else createRoot(container).render(app);
  });
  // The server could not know a choice kept only on this device: apply it once the page is up.
  if (firstScreen && chosen !== firstScreen.language) void switchLanguage(chosen);
}

/** Ends the browser's current task: a tap or a frame waiting behind it goes first. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// Each step of the start in a task of its own, none long enough to keep a tap waiting on
// a slow phone. The texts and the screen being opened load side by side; a screen that
// fails to load is reported by the error boundary when it renders.
void (async () => {
  try {
    await nextTask();
    const texts = initI18n(firstScreen?.language);
    await nextTask();
    const screen = preloadPage(window.location.pathname).catch(() => undefined);
    await Promise.all([texts, screen]);
    // The texts that just arrived were taken in by the task that ends here.
    await nextTask();
    start();
  } finally {
    await nextTask();
    registerServiceWorker();
  }
})();
// The other screens' texts, for offline use too, once the visitor stays.
void whenKept()
  .then(loadAllTexts)
  .catch(() => undefined);
