/**
 * The device's database (IndexedDB through Dexie): one instance, one versioned schema.
 * The catalogue pages read from it, the mirror writes to it.
 */
import { Dexie, type EntityTable, type Table } from 'dexie';
import type { Company } from '../../contracts/accounts';
import type { BoothDetails, RepCustomer } from '../../contracts/field-sales';
import type { Category, Product } from '../../contracts/catalogue';
import type { OrderList } from '../../contracts/order-lists';
import type { Cart, Order } from '../../contracts/orders';
import type { OutboxEntry } from '../sync/outbox-rules';
import { DB_NAME } from '../../contracts/storage-names';
import { blockRecord, inBlocks, type ProductBlock, type StoredCatalogue } from './stored-products';

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
  /** The server's ETag of the last answer: the catalogue's version as this viewer saw it. */
  etag?: string;
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

/** The last cart the server returned for a user; waiting outbox entries apply on top. */
export interface CartBase {
  userId: number;
  cart: Cart;
  syncedAt: string;
}

/**
 * An order as the device knows it: a server order ('order:<id>'), or one queued offline
 * and not yet confirmed ('local:<uuid>'), which never counts as placed.
 */
export interface StoredOrder {
  ref: string;
  userId: number;
  state: 'synced' | 'waiting' | 'attention';
  createdAt: string;
  order: Order;
  /** The reference the order had while it waited, kept for the user's records. */
  localRef?: string | undefined;
  /** What the server changed from what the user saw when queueing (prices, quantities). */
  changes?: OrderChange[] | undefined;
  /** The outbox entry of a queued order. */
  outboxId?: number | undefined;
  /** A sales rep's order: the customer it was taken for (version 8). */
  customerId?: number | undefined;
  /** A sales rep's order: the customer's signature (a PNG in base64), for its pro-forma. */
  signature?: string | undefined;
}

/**
 * The signed-in user's company as GET /api/companies/me last answered: its address and
 * contacts prefill the checkout, offline too. Bound to the user, removed at sign-out.
 */
export interface StoredCompany {
  userId: number;
  company: Company;
  syncedAt: string;
}

/** One of a sales rep's customers as GET /api/rep/customers last answered (version 7). */
export interface StoredRepCustomer {
  userId: number;
  id: number;
  customer: RepCustomer;
  syncedAt: string;
  /** The id a salon registered at the booth had on this device before the server's. */
  localId?: number | undefined;
  /**
   * What the rep typed at the booth for a salon the server found among its customers
   * already, where the maker's record does not hold it: kept until the rep dismisses it.
   */
  boothDetails?: BoothDetails | undefined;
}

/** Which customer a sales rep is ordering for on this device, if any. */
export interface RepState {
  userId: number;
  actingFor: number | null;
}

/** A line of a rep's cart: the product and how many; prices come from the device's catalogue. */
export interface RepCartLine {
  productId: number;
  quantity: number;
}

/**
 * A sales rep's cart for one customer (version 8), kept only on the device until the
 * order is taken: the rep serves several salons at once, and each keeps its own cart.
 * Bound to the rep; it stays at sign-out, as the outbox does, since it is work not yet sent.
 */
export interface RepCart {
  userId: number;
  customerId: number;
  /** In the order they were first added. */
  lines: RepCartLine[];
  updatedAt: string;
}

/**
 * One of a salon user's order lists as the server last answered it (version 9); the
 * changes still waiting in the outbox apply on top (src/lib/sync/list-changes.ts). Bound to
 * the user, removed at sign-out.
 */
export interface StoredOrderList {
  userId: number;
  /** The list's id, a UUID chosen by the device that made it. */
  id: string;
  list: OrderList;
  /** When this copy was stored, on this device's clock. */
  syncedAt: string;
  /**
   * The server answered this device's deletion of the list: not shown, and kept only so
   * that a read of the lists asked before that answer does not bring the list back (see
   * storeOrderLists in src/lib/sync/order-lists.ts).
   */
  deleted?: true | undefined;
}

export interface OrderChange {
  productName: string;
  kind: 'price' | 'quantity' | 'removed';
  before: number;
  after: number;
}

export type PortalDb = Dexie & {
  productBlocks: EntityTable<ProductBlock, 'block'>;
  storedCatalogue: EntityTable<StoredCatalogue, 'key'>;
  categories: EntityTable<Category, 'id'>;
  mirrorState: EntityTable<CatalogueMirrorState, 'key'>;
  session: EntityTable<StoredSession, 'key'>;
  outbox: EntityTable<OutboxEntry, 'id'>;
  carts: EntityTable<CartBase, 'userId'>;
  orders: EntityTable<StoredOrder, 'ref'>;
  companies: EntityTable<StoredCompany, 'userId'>;
  repCustomers: Table<StoredRepCustomer, [number, number]>;
  repState: EntityTable<RepState, 'userId'>;
  repCarts: Table<RepCart, [number, number]>;
  orderLists: Table<StoredOrderList, [number, string]>;
};

export function createPortalDb(name = DB_NAME): PortalDb {
  const db = new Dexie(name) as PortalDb;
  db.version(1).stores({
    // The catalogue as the server sent it, one record per product (until version 4).
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
  db.version(3).stores({
    // Mutations waiting for the server, replayed in id order. userId binds each entry to
    // its user (never sent for another); state finds the waiting ones.
    outbox: '++id, userId, state',
    // The server's cart of each user.
    carts: 'userId',
    // Orders of each user, server ones and queued ones, listed newest first.
    orders: 'ref, userId, [userId+createdAt]',
  });
  db.version(4)
    .stores({
      // The catalogue, read and written through ./stored-products: products in blocks of
      // consecutive ids (one record per product made a full mirror write-bound), and the
      // ids and revision of what is stored.
      productBlocks: 'block',
      storedCatalogue: 'key',
      // The table of one record per product is emptied but stays: a tab still running the
      // earlier version would otherwise create it again, upgrading the database under this one.
    })
    .upgrade(async (tx) => {
      // A device that already holds the catalogue keeps it, offline too.
      const products = await tx.table<Product, number>('products').toArray();
      await tx.table('products').clear();
      await tx
        .table('productBlocks')
        .bulkPut(inBlocks(products).map((group) => blockRecord(group.block, group.products)));
      await tx.table('storedCatalogue').put({
        key: 'catalogue',
        revision: 1,
        ids: products.map((product) => product.id).sort((a, b) => a - b),
      });
    });
  db.version(5).stores({
    // The company of each signed-in user (address, contacts, status), so that a checkout
    // taken offline is prefilled with its address; removed at sign-out with the cart.
    companies: 'userId',
  });
  db.version(6)
    .stores({})
    .upgrade(async (tx) => {
      // Blocks held their products as objects until this version; now as JSON text.
      await tx
        .table<ProductBlock | { block: number; products: Product[] }, number>('productBlocks')
        .toCollection()
        .modify((record, ref) => {
          if ('products' in record) ref.value = blockRecord(record.block, record.products);
        });
    });
  db.version(7).stores({
    // A sales rep's customers, searchable offline, and the one it is ordering for; bound
    // to the rep, removed at sign-out.
    repCustomers: '[userId+id], userId',
    repState: 'userId',
  });
  db.version(8).stores({
    // A sales rep's cart for each of its customers, until the order is taken.
    repCarts: '[userId+customerId], userId',
  });
  db.version(9).stores({
    // A salon user's order lists as the server has them, by user and the list's id; userId
    // finds the user's lists, to show them and to remove them at sign-out.
    orderLists: '[userId+id], userId',
  });
  return db;
}

export const db = createPortalDb();
