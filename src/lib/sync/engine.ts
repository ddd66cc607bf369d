/**
 * The sync engine as the first screens reach it (see ./engine-loader): the device's
 * database and live queries, the catalogue mirror, the outbox and signing out. Everything
 * here loads in one chunk, after the first page is up.
 */
import { getSession } from '../auth/session-store';
import { addToCart as addToSalonCart } from './outbox';

export { liveQuery } from 'dexie';
export { signOut } from '../auth/session-actions';
export { db } from '../db/db';
export { readProduct } from '../db/stored-products';
export { forgetProduct, refreshCatalogue, storeProduct } from './catalogue-mirror';
export { readCompany, refreshCompany } from './company';
export { queryLocalCatalogue } from './local-catalogue';
export { readCart, readOrders, readOutbox, readOutboxSummary } from './device-data';

/**
 * Adds to the signed-in user's cart: a salon's, through the outbox; a sales rep's, to the
 * cart of the customer it is ordering for (./rep-cart), which rejects with
 * NoCustomerChosen when it has chosen none.
 */
export const addToCart = (productId: number, quantity: number): Promise<void> =>
  getSession()?.user.role === 'SALES_REP'
    ? // Loaded when a rep first adds: the first screens' list of the engine's files stays short.
      import('./rep-cart').then((m) => m.addToRepCart(productId, quantity))
    : addToSalonCart(productId, quantity);
