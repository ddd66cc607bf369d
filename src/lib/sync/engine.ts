/**
 * The sync engine as the first screens reach it (see ./engine-loader): the device's
 * database and live queries, the catalogue mirror, the outbox and signing out. Everything
 * here loads in one chunk, after the first page is up.
 */
export { liveQuery } from 'dexie';
export { signOut } from '../auth/session-actions';
export { db } from '../db/db';
export { readProduct } from '../db/stored-products';
export { forgetProduct, refreshCatalogue, storeProduct } from './catalogue-mirror';
export { readCompany, refreshCompany } from './company';
export { queryLocalCatalogue } from './local-catalogue';
export { readCart, readOrders, readOutbox, readOutboxSummary } from './device-data';
export { addToCart } from './outbox';
