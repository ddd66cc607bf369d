/**
 * Keeps the device's copy of the catalogue in step with the server. The first refresh
 * pages through every product; later ones ask only for products changed since the
 * newest one received (`updatedSince`). A full refresh also drops products the server
 * no longer has. Only one refresh runs at a time.
 */
import {
  MAX_PRODUCTS_LIMIT,
  type Category,
  type Product,
  type ProductPage,
} from '../../contracts/catalogue';
import {
  fetchCategories,
  fetchProductIds,
  fetchProducts,
  type FetchProductsParams,
} from '../api/catalogue';
import type { CatalogueMirrorState, PortalDb } from '../db/db';

/** Products per request while mirroring: the largest page the API allows. */
const MIRROR_PAGE_SIZE = MAX_PRODUCTS_LIMIT;
/** Pages requested at once: hides the round trips of a slow link without flooding it. */
const MIRROR_PARALLEL_PAGES = 4;

/** Where the mirror reads the catalogue from: the /api by default. */
export interface CatalogueSource {
  categories(): Promise<Category[]>;
  products(params: FetchProductsParams): Promise<ProductPage>;
  /** Every product id the server has (to drop deleted ones after an incremental refresh). */
  productIds(): Promise<number[]>;
}

const apiSource: CatalogueSource = {
  categories: fetchCategories,
  products: fetchProducts,
  productIds: fetchProductIds,
};

export interface RefreshOptions {
  /** Whose prices the products carry; a different viewer than the mirror's refetches all. */
  viewer?: string;
  source?: CatalogueSource;
}

const running = new WeakMap<PortalDb, { viewer: string; refresh: Promise<CatalogueMirrorState> }>();

export function refreshCatalogue(
  db: PortalDb,
  options: RefreshOptions = {},
): Promise<CatalogueMirrorState> {
  const viewer = options.viewer ?? 'visitor';
  const current = running.get(db);
  if (current?.viewer === viewer) return current.refresh;
  // A refresh for another viewer (someone signed in or out) runs after the current one.
  const refresh = (current?.refresh.catch(() => undefined) ?? Promise.resolve())
    .then(() => runRefresh(db, viewer, options.source ?? apiSource))
    .finally(() => {
      if (running.get(db)?.refresh === refresh) running.delete(db);
    });
  running.set(db, { viewer, refresh });
  return refresh;
}

async function runRefresh(
  db: PortalDb,
  viewer: string,
  source: CatalogueSource,
): Promise<CatalogueMirrorState> {
  const previous = await db.mirrorState.get('catalogue');
  const incremental =
    previous?.complete === true && previous.viewer === viewer && previous.cursor !== null;
  const since = incremental ? (previous.cursor ?? undefined) : undefined;

  const categories = await source.categories();
  await db.transaction('rw', db.categories, async () => {
    await db.categories.clear();
    await db.categories.bulkPut(categories);
  });

  const seen = new Set<number>();
  let cursor = since ?? null;
  const fetchPage = async (page: number) => {
    const result = await source.products({
      page,
      limit: MIRROR_PAGE_SIZE,
      sortBy: 'newest',
      ...(since ? { updatedSince: since } : {}),
    });
    await db.products.bulkPut(result.products);
    for (const product of result.products) {
      seen.add(product.id);
      if (cursor === null || product.updatedAt > cursor) cursor = product.updatedAt;
    }
    return result.pagination.totalPages;
  };
  // The first page tells how many there are; the rest come a few at a time.
  const totalPages = await fetchPage(1);
  let nextPage = 2;
  const worker = async () => {
    while (nextPage <= totalPages) await fetchPage(nextPage++);
  };
  await Promise.all(Array.from({ length: MIRROR_PARALLEL_PAGES }, worker));

  // An incremental refresh does not see deletions: ask which products still exist.
  const existing = incremental ? new Set(await source.productIds()) : seen;

  const state: CatalogueMirrorState = {
    key: 'catalogue',
    cursor,
    syncedAt: new Date().toISOString(),
    complete: true,
    viewer,
  };
  await db.transaction('rw', db.products, db.mirrorState, async () => {
    // Anything the server no longer has is gone from the device too.
    const stale = (await db.products.toCollection().primaryKeys()).filter(
      (id) => !existing.has(id),
    );
    await db.products.bulkDelete(stale);
    await db.mirrorState.put(state);
  });
  return state;
}

/** Keeps one product fresh after it was fetched on its own (the detail page). */
export async function storeProduct(db: PortalDb, product: Product): Promise<void> {
  await db.products.put(product);
}

export async function forgetProduct(db: PortalDb, id: number): Promise<void> {
  await db.products.delete(id);
}

/** Removes priced products from the device (signing out); a visitor's copy is kept. */
export async function forgetPricedCatalogue(db: PortalDb): Promise<void> {
  await db.transaction('rw', db.products, db.mirrorState, async () => {
    const state = await db.mirrorState.get('catalogue');
    const priced = await db.products.filter((p) => p.price !== undefined).count();
    if ((state && state.viewer !== 'visitor') || priced > 0) {
      await db.products.clear();
      await db.mirrorState.delete('catalogue');
    }
  });
}
