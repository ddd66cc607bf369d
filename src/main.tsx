import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPage } from './app/pages';
import { initI18n, loadAllTexts } from './lib/i18n';
import { registerServiceWorker } from './lib/pwa/register-service-worker';
import { whenIdle } from './lib/when-idle';
import './styles.css';

function render(): void {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// The texts and the screen being opened load side by side; a screen that fails to load
// is reported by the error boundary when it renders.
void Promise.all([initI18n(), preloadPage(window.location.pathname).catch(() => undefined)]).then(
  render,
);
registerServiceWorker();
void whenIdle()
  .then(loadAllTexts)
  .catch(() => undefined);
