/**
 * The device's database (IndexedDB through Dexie): one instance, one versioned schema.
 * The catalogue pages read from it, the mirror writes to it.
 */
import { Dexie, type EntityTable } from 'dexie';
import type { Category, Product } from '../../contracts/catalogue';
import { DB_NAME } from '../../contracts/storage-names';

/** How far the device's copy of the catalogue has got, kept under the key 'catalogue'. */
export interface CatalogueMirrorState {
  key: 'catalogue';
  /** updatedAt of the newest product received: the next refresh asks only for newer ones. */
  cursor: string | null;
  /** When the last refresh finished, on this device's clock. */
  syncedAt: string;
  /** True once every product has been received at least once. */
  complete: boolean;
  /** Whose prices the mirror holds: 'visitor' for none. A change of viewer refetches all. */
  viewer: string;
}

/**
 * The session for code that cannot read local storage (the service worker): written and
 * cleared together with it, under the key 'current'.
 */
export interface StoredSession {
  key: 'current';
  userId: number;
  accessToken: string;
  refreshToken: string;
}

export type PortalDb = Dexie & {
  products: EntityTable<Product, 'id'>;
  categories: EntityTable<Category, 'id'>;
  mirrorState: EntityTable<CatalogueMirrorState, 'key'>;
  session: EntityTable<StoredSession, 'key'>;
};

export function createPortalDb(name = DB_NAME): PortalDb {
  const db = new Dexie(name) as PortalDb;
  db.version(1).stores({
    // The catalogue as the server sent it. categoryId narrows the catalogue query;
    // updatedAt finds the newest product for the next incremental refresh.
    products: 'id, categoryId, updatedAt',
    // Categories of the filter panel and the footer.
    categories: 'id',
    // One row per mirror telling how far it has got.
    mirrorState: 'key',
  });
  db.version(2).stores({
    // The signed-in session, for the service worker's background replays.
    session: 'key',
  });
  return db;
}

export const db = createPortalDb();
