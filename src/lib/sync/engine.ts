/**
 * The sync engine as the first screens reach it (see ./engine-loader): the device's
 * database and live queries, the catalogue mirror, the outbox and signing out. Everything
 * here loads in one chunk, after the first page is up.
 */
import { MAX_ORDER_LINES } from '../../contracts/field-sales';
import { quantityToAdd } from '../../contracts/order-lines';
import { getSession, signedInUserId } from '../auth/session-store';
import { db } from '../db/db';
import { readProduct } from '../db/stored-products';
import { readCart } from './device-data';
import { addToCart as addToSalonCart } from './outbox';

export { liveQuery } from 'dexie';
export { signOut } from '../auth/session-actions';
export { db } from '../db/db';
export { readProduct } from '../db/stored-products';
export { forgetProduct, refreshCatalogue, storeProduct } from './catalogue-mirror';
export { readCompany, refreshCompany } from './company';
export { queryLocalCatalogue } from './local-catalogue';
export { readCart, readOrders, readOutbox, readOutboxSummary } from './device-data';

/** Nothing more of a product can go into the cart: it holds all of its stock already. */
export class CartHoldsAllStock extends Error {
  readonly textKey = 'cart.allInCart';
  constructor() {
    super('The cart already holds all of this product that is in stock');
    this.name = 'CartHoldsAllStock';
  }
}

/** A new product cannot go into the cart: it holds as many as an order may have. */
export class CartFull extends Error {
  readonly textKey = 'cart.full';
  readonly textParams = { max: MAX_ORDER_LINES };
  constructor() {
    super(`A cart holds at most ${MAX_ORDER_LINES} products`);
    this.name = 'CartFull';
  }
}

/**
 * A salon's addition, within the stock the device knows of and counting what the cart
 * holds: the server refuses a line above its stock, and a refused change holds up every
 * later checkout until it is discarded (docs/product.md#offline). Rejects with
 * CartHoldsAllStock when nothing more fits, CartFull when a new line would not; a product
 * the device lacks is left to the server.
 */
async function addToSalonCartWithinStock(productId: number, quantity: number): Promise<Added> {
  const [product, { cart }] = await Promise.all([
    readProduct(db, productId),
    readCart(signedInUserId()),
  ]);
  const line = cart.items.find((item) => item.productId === productId);
  // The server refuses a line past an order's (docs/api.md#cart).
  if (!line && cart.items.length >= MAX_ORDER_LINES) throw new CartFull();
  const inCart = line?.quantity ?? 0;
  const check = product ? quantityToAdd(product, inCart, quantity) : null;
  if (check && !check.ok && check.problem === 'allInCart') throw new CartHoldsAllStock();
  const limited = check?.ok === true && check.limited;
  await addToSalonCart(productId, check?.ok ? check.quantity : quantity);
  return { limited };
}

/** What an addition put into the cart: fewer than asked when `limited` (the stock left). */
export interface Added {
  limited: boolean;
}

/**
 * Adds to the signed-in user's cart: a salon's, through the outbox (see
 * addToSalonCartWithinStock); a sales rep's, to the cart of the customer it is ordering
 * for (./rep-cart), which rejects with NoCustomerChosen when it has chosen none.
 */
export const addToCart = (productId: number, quantity: number): Promise<Added> =>
  getSession()?.user.role === 'SALES_REP'
    ? // Loaded when a rep first adds: the first screens' list of the engine's files stays short.
      import('./rep-cart')
        .then((m) => m.addToRepCart(productId, quantity))
        .then(() => ({ limited: false }))
    : addToSalonCartWithinStock(productId, quantity);
