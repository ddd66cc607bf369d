/**
 * The page's entry, kept tiny. A screen the server rendered (the root already holds its
 * markup) is painted first: the app (./start) is loaded only after that paint, so that
 * its scripts never hold back the screen's styles and pictures. Otherwise it starts at once.
 */
import { holdClicksUntilHydrated } from './lib/clicks-before-hydration';
import './styles.css';

const start = () => void import('./start');

if (document.getElementById('root')?.hasChildNodes()) {
  holdClicksUntilHydrated();
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  start();
}
