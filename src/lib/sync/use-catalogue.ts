/**
 * What the catalogue screens read: the device's mirror through live queries, refreshed
 * from the network. Until the mirror is complete (a first visit), the requested page is
 * fetched from the server directly so that nobody waits for the whole catalogue.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { Category, Product, ProductPage, ProductQuery } from '../../contracts/catalogue';
import { fetchProduct, fetchProducts } from '../api/catalogue';
import { isNotFound, serverMessage } from '../api/client';
import { useUser, viewerKey } from '../auth/session';
import { db } from '../db/db';
import { forgetProduct, refreshCatalogue, storeProduct } from './catalogue-mirror';
import { onReconnect, reportNetworkFailure } from './connectivity';
import { queryLocalCatalogue } from './local-catalogue';

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
      /** The last attempt to reach the server failed. */
      offline: boolean;
    };

/** Refreshes the mirror when a screen opens (and on start); tells whether the server answered. */
export function useMirrorRefresh(): { offline: boolean; attempt: number; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [offline, setOffline] = useState(false);
  const viewer = viewerKey(useUser());
  // Back online: refresh the catalogue again.
  useEffect(() => onReconnect(() => setAttempt((n) => n + 1)), []);
  useEffect(() => {
    let live = true;
    refreshCatalogue(db, { viewer }).then(
      () => live && setOffline(false),
      () => {
        if (live) setOffline(true);
        reportNetworkFailure();
      },
    );
    return () => {
      live = false;
    };
  }, [attempt, viewer]);
  return { offline, attempt, retry: () => setAttempt((n) => n + 1) };
}

export function useCatalogueQuery(query: ProductQuery): CatalogueView & { retry: () => void } {
  const { offline, attempt, retry } = useMirrorRefresh();
  const mirror = useLiveQuery(() => db.mirrorState.get('catalogue').then((s) => s ?? null), []);
  const complete = mirror?.complete === true;
  const key = JSON.stringify(query);
  const local = useLiveQuery(async () => {
    if (!complete) return null;
    // Timed with the User Timing API, so that the benchmark (and field monitoring) can read it.
    const started = performance.now();
    const page = await queryLocalCatalogue(db, query);
    performance.measure('catalogue-query', { start: started, end: performance.now() });
    return { key, page };
  }, [complete, key]);

  const [remote, setRemote] = useState<{
    key: string;
    page?: ProductPage;
    error?: string | undefined;
  } | null>(null);
  useEffect(() => {
    if (mirror === undefined || complete) return;
    let live = true;
    fetchProducts(query).then(
      (page) => live && setRemote({ key, page }),
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
  }, [key, complete, mirror === undefined, attempt]);

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

export function useCategories(): Category[] {
  return useLiveQuery(() => db.categories.toArray(), [], []);
}

export type ProductView =
  | { status: 'loading' }
  | { status: 'notFound' }
  | { status: 'error'; message: string | undefined }
  | { status: 'ready'; product: Product; offline: boolean };

export function useProduct(id: number): ProductView {
  const stored = useLiveQuery(() => db.products.get(id).then((p) => p ?? null), [id]);
  const [remote, setRemote] = useState<{
    id: number;
    outcome: 'ok' | 'notFound' | 'error';
    message?: string | undefined;
  } | null>(null);
  useEffect(() => {
    let live = true;
    fetchProduct(id).then(
      async (product) => {
        await storeProduct(db, product);
        if (live) setRemote({ id, outcome: 'ok' });
      },
      async (error: unknown) => {
        if (isNotFound(error)) {
          await forgetProduct(db, id);
          if (live) setRemote({ id, outcome: 'notFound' });
          return;
        }
        const message = await serverMessage(error);
        if (live) setRemote({ id, outcome: 'error', message });
      },
    );
    return () => {
      live = false;
    };
  }, [id]);

  const outcome = remote?.id === id ? remote : null;
  if (outcome?.outcome === 'notFound') return { status: 'notFound' };
  if (stored) return { status: 'ready', product: stored, offline: outcome?.outcome === 'error' };
  if (outcome?.outcome === 'error') return { status: 'error', message: outcome.message };
  return { status: 'loading' };
}
