/**
 * What the catalogue screens read: the device's mirror through live queries, refreshed
 * from the network. Until the mirror is complete (a first visit), the requested page is
 * fetched from the server directly, so that nobody waits for the whole catalogue, nor
 * for the sync engine: a first visit shows its page before the engine has loaded.
 */
import { startTransition, useEffect, useRef, useState } from 'react';
import { markServerDataUsed, unusedServerData, useFirstScreen } from '../first-screen';
import type { Category, Product, ProductPage, ProductQuery } from '../../contracts/catalogue';
import { fetchProduct, fetchProducts } from '../api/catalogue';
import { isNotFound, serverMessage } from '../api/errors';
import { classifyFailure } from '../api/failure';
import { useUser, viewerKey } from '../auth/session';
import { useAppKept } from '../kept-on-device';
import { onReconnect } from './connectivity';
import {
  deviceHasCatalogue,
  loadSyncEngine,
  loadSyncEngineWhenIdle,
  rememberMirroredCatalogue,
  useDeviceQuery,
} from './engine-loader';

export type CatalogueView =
  | { status: 'loading' }
  | { status: 'error'; message: string | undefined; offline: boolean }
  | {
      status: 'ready';
      page: ProductPage;
      /** 'device' when answered by the mirror, 'network' when fetched for this query. */
      source: 'device' | 'network';
      /** When the mirror was last refreshed, if it answered. */
      syncedAt: string | undefined;
      /** The last refresh failed because the server cannot be reached. */
      offline: boolean;
    };

/**
 * Refreshes the mirror when a screen opens (and on start); tells whether the last refresh
 * failed because the server cannot be reached. The catalogue comes to a device once the
 * app is kept on it (see lib/kept-on-device), and after the page is up.
 */
export function useMirrorRefresh(): { offline: boolean; attempt: number; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [offline, setOffline] = useState(false);
  const viewer = viewerKey(useUser());
  const kept = useAppKept();
  // Back online: refresh the catalogue again.
  useEffect(() => onReconnect(() => setAttempt((n) => n + 1)), []);
  useEffect(() => {
    if (!kept && !deviceHasCatalogue()) return;
    let live = true;
    const engine = deviceHasCatalogue() ? loadSyncEngine() : loadSyncEngineWhenIdle();
    engine
      .then(({ db, refreshCatalogue }) => refreshCatalogue(db, { viewer }))
      .then(
        () => {
          rememberMirroredCatalogue();
          if (live) setOffline(false);
        },
        async (error: unknown) => {
          // Offline only when the server cannot be reached: a server fault is not the device's.
          const failure = await classifyFailure(error);
          if (live) setOffline(failure.kind === 'offline');
        },
      );
    return () => {
      live = false;
    };
  }, [attempt, viewer, kept]);
  return { offline, attempt, retry: () => setAttempt((n) => n + 1) };
}

export function useCatalogueQuery(query: ProductQuery): CatalogueView & { retry: () => void } {
  const { offline, attempt, retry } = useMirrorRefresh();
  const mirror = useDeviceQuery(
    ({ db }) => db.mirrorState.get('catalogue').then((s) => s ?? null),
    [],
  );
  const viewer = viewerKey(useUser());
  // Another viewer's copy (a visitor's, without this user's prices) is not this user's
  // catalogue, offline either: until their own has arrived whole, the server answers.
  const complete = mirror?.complete === true && mirror.viewer === viewer;
  const key = JSON.stringify(query);
  const local = useDeviceQuery(
    async ({ db, queryLocalCatalogue }) => {
      if (!complete) return null;
      // Timed with the User Timing API, so that the benchmark (and field monitoring) can read it.
      const started = performance.now();
      const page = await queryLocalCatalogue(db, query);
      performance.measure('catalogue-query', { start: started, end: performance.now() });
      return { key, page };
    },
    [complete, key],
  );

  // The network answers unless the device holds the catalogue (or may: it is still being read).
  const [expectDevice] = useState(deviceHasCatalogue);
  const fromNetwork = !complete && !(mirror === undefined && expectDevice);
  // The page the server rendered this screen with, if it is this query's.
  const served = unusedServerData(useFirstScreen()?.catalogue);
  const [remote, setRemote] = useState<{
    key: string;
    page?: ProductPage;
    error?: string | undefined;
  } | null>(() => (served?.key === key ? served : null));
  // The server renders for a visitor: someone signed in asks again, for their prices.
  const fresh = useRef(served?.key === key ? served : undefined);
  useEffect(() => {
    markServerDataUsed(fresh.current);
    if (!fromNetwork) return;
    if (fresh.current && viewer === 'visitor') {
      // Just rendered by the server: no need to ask again.
      fresh.current = undefined;
      return;
    }
    let live = true;
    fetchProducts(query).then(
      (page) => live && startTransition(() => setRemote({ key, page })),
      async (error: unknown) => {
        const message = await serverMessage(error);
        if (live) setRemote({ key, error: message ?? '' });
      },
    );
    return () => {
      live = false;
    };
    // `key` stands for `query`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, fromNetwork, attempt, viewer]);

  if (local && local.key === key) {
    return {
      status: 'ready',
      page: local.page,
      source: 'device',
      syncedAt: mirror?.syncedAt,
      offline,
      retry,
    };
  }
  if (!complete && remote?.key === key) {
    if (remote.page) {
      return {
        status: 'ready',
        page: remote.page,
        source: 'network',
        syncedAt: undefined,
        offline,
        retry,
      };
    }
    return { status: 'error', message: remote.error || undefined, offline, retry };
  }
  return { status: 'loading', retry };
}

const NO_CATEGORIES: Category[] = [];

export function useCategories(): Category[] {
  return useDeviceQuery(({ db }) => db.categories.toArray(), []) ?? NO_CATEGORIES;
}

export type ProductView =
  | { status: 'loading' }
  | { status: 'notFound' }
  | { status: 'error'; message: string | undefined }
  | { status: 'ready'; product: Product; offline: boolean };

/** One product: the server's answer (kept on the device), or the device's copy offline. */
export function useProduct(id: number): ProductView {
  const stored = useDeviceQuery(
    ({ db, readProduct }) => readProduct(db, id).then((p) => p ?? null),
    [id],
  );
  // The product the server rendered this screen with, if it is this one.
  const served = unusedServerData(useFirstScreen()?.product);
  const [remote, setRemote] = useState<{
    id: number;
    outcome: 'ok' | 'notFound' | 'error';
    product?: Product;
    message?: string | undefined;
  } | null>(() =>
    served?.id === id
      ? served.product
        ? { id, outcome: 'ok', product: served.product }
        : { id, outcome: 'notFound' }
      : null,
  );
  // The server renders for a visitor: someone signed in asks again, for their price.
  const viewer = viewerKey(useUser());
  const fresh = useRef(served?.id === id ? served : undefined);
  useEffect(() => {
    markServerDataUsed(fresh.current);
    if (fresh.current && viewer === 'visitor') {
      // Just rendered by the server (the catalogue mirror keeps it on the device).
      fresh.current = undefined;
      return;
    }
    let live = true;
    // The device's copy answers at once where the catalogue is kept, else when the network fails.
    if (deviceHasCatalogue()) void loadSyncEngine().catch(() => undefined);
    fetchProduct(id).then(
      (product) => {
        if (live) setRemote({ id, outcome: 'ok', product });
        void loadSyncEngine().then(({ db, storeProduct }) => storeProduct(db, product));
      },
      async (error: unknown) => {
        if (isNotFound(error)) {
          if (live) setRemote({ id, outcome: 'notFound' });
          void loadSyncEngine().then(({ db, forgetProduct }) => forgetProduct(db, id));
          return;
        }
        void loadSyncEngine().catch(() => undefined);
        const message = await serverMessage(error);
        if (live) setRemote({ id, outcome: 'error', message });
      },
    );
    return () => {
      live = false;
    };
  }, [id, viewer]);

  const outcome = remote?.id === id ? remote : null;
  if (outcome?.outcome === 'notFound') return { status: 'notFound' };
  const product = stored ?? outcome?.product;
  if (product) return { status: 'ready', product, offline: outcome?.outcome === 'error' };
  if (outcome?.outcome === 'error') return { status: 'error', message: outcome.message };
  return { status: 'loading' };
}
