/**
 * The sync engine (the IndexedDB mirror, the outbox and their replay) is its own chunk.
 * A first visit shows its page without it and loads it once the page is up; a returning
 * visitor, whose catalogue is on the device, or a signed-in user loads it at once.
 * Screens read the device through `useDeviceQuery`, which answers once the engine is there.
 */
import {
  startTransition,
  useEffect,
  useState,
  useSyncExternalStore,
  type DependencyList,
} from 'react';
import { MIRROR_FLAG_KEY } from '../../contracts/storage-names';
import { createListeners } from '../listeners';
import { whenIdle } from '../when-idle';

export type SyncEngine = typeof import('./engine');

let engine: SyncEngine | undefined;
let loading: Promise<SyncEngine> | undefined;
const arrivals = createListeners();

/**
 * Loads the engine now (once). After a failed load (offline, an old deployment) the next
 * call asks again; Chromium, though, keeps a failed module download in the page's module
 * map, so there it fails until the page is reloaded (the texts ask again under another
 * address: see `importPart` in lib/i18n). The engine is kept by the service worker once
 * the app is, so this reaches only a visitor who stays while offline before that.
 */
export function loadSyncEngine(): Promise<SyncEngine> {
  loading ??= import('./engine').then(
    (module) => {
      engine = module;
      arrivals.emit();
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

let idle: Promise<SyncEngine> | undefined;

/** Loads the engine once the page has loaded and the browser is idle, unless asked sooner. */
export function loadSyncEngineWhenIdle(): Promise<SyncEngine> {
  idle ??= whenIdle().then(loadSyncEngine);
  return idle;
}

/** The engine once it has loaded, else undefined. */
export function useSyncEngine(): SyncEngine | undefined {
  return useSyncExternalStore(
    arrivals.add,
    () => engine,
    () => undefined,
  );
}

/**
 * A live query on the device: the value of `read`, kept current as the data changes.
 * Undefined until the engine has loaded and answered; the previous answer is kept while
 * a new one (after `deps` changed) is on its way. An error reaches the error boundary.
 */
export function useDeviceQuery<T>(
  read: (engine: SyncEngine) => Promise<T>,
  deps: DependencyList,
): T | undefined {
  // The engine arriving, like each answer, renders as a transition: a screen full of
  // products is updated in slices, never in one long task.
  const [loaded, setLoaded] = useState(engine);
  const [result, setResult] = useState<{ value: T } | { error: unknown } | undefined>();
  useEffect(() => {
    if (loaded) return;
    const arrived = () => {
      if (engine) startTransition(() => setLoaded(engine));
    };
    arrived();
    return arrivals.add(arrived);
  }, [loaded]);
  useEffect(() => {
    if (!loaded) return;
    const subscription = loaded
      .liveQuery(() => read(loaded))
      .subscribe({
        next: (value) => startTransition(() => setResult({ value })),
        error: (error: unknown) => setResult({ error }),
      });
    return () => subscription.unsubscribe();
    // `read` is a new function each render; `deps` are what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, ...deps]);
  if (result && 'error' in result) throw result.error;
  return result?.value;
}

/** Whether a whole catalogue was mirrored on this device (so its screens read the device first). */
export function deviceHasCatalogue(): boolean {
  try {
    return localStorage.getItem(MIRROR_FLAG_KEY) !== null;
  } catch {
    return false;
  }
}

export function rememberMirroredCatalogue(): void {
  try {
    localStorage.setItem(MIRROR_FLAG_KEY, new Date().toISOString());
  } catch {
    // storage unavailable: the next visit asks the network first, which still works
  }
}
