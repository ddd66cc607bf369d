/**
 * The sync engine as the first screens reach it (see ./engine-loader): the device's
 * database and live queries, the catalogue mirror, the outbox and signing out. Everything
 * here loads in one chunk, after the first page is up.
 */
import { MAX_ORDER_LINES } from '../../contracts/field-sales';
import { quantityToAdd } from '../../contracts/order-lines';
import { getSession, signedInUserId } from '../auth/session-store';
import { db } from '../db/db';
import { storageRefusal } from '../db/storage-errors';
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

/** Why nothing went into the cart: a text of the page's, with its values. */
export class CannotAdd extends Error {
  constructor(
    readonly textKey:
      'cart.allInCart' | 'cart.soldOut' | 'cart.full' | 'cart.noStorage' | 'cart.storageFull',
    readonly textParams: Record<string, unknown> = {},
  ) {
    super(textKey);
    this.name = 'CannotAdd';
  }
}

/**
 * A salon's addition, within the stock the device knows of and counting what the cart
 * holds: the server refuses a line above its stock (or past an order's lines), and a
 * refused change holds up every later checkout until it is discarded
 * (docs/product.md#offline). Rejects with CannotAdd when nothing fits; a product the device
 * lacks, or has no price for, is left to the server.
 */
async function addToSalonCartWithinStock(productId: number, quantity: number): Promise<Added> {
  const [product, { cart }] = await Promise.all([
    readProduct(db, productId),
    readCart(signedInUserId()),
  ]);
  const line = cart.items.find((item) => item.productId === productId);
  if (!line && cart.items.length >= MAX_ORDER_LINES) {
    throw new CannotAdd('cart.full', { max: MAX_ORDER_LINES });
  }
  const check = product ? quantityToAdd(product, line?.quantity ?? 0, quantity) : null;
  if (check?.ok === false && check.problem === 'allInCart') throw new CannotAdd('cart.allInCart');
  if (check?.ok === false && check.problem === 'outOfStock') throw new CannotAdd('cart.soldOut');
  await addToSalonCart(productId, check?.ok ? check.quantity : quantity);
  return { limited: check?.ok === true && check.limited };
}

/**
 * The salon's additions one after the other: two quick clicks on the last unit must not
 * both read a cart without it.
 */
let adding: Promise<unknown> = Promise.resolve();
const addInTurn = (productId: number, quantity: number): Promise<Added> => {
  const added = adding.then(() => addToSalonCartWithinStock(productId, quantity));
  adding = added.catch(() => undefined);
  return added;
};

/** What an addition put into the cart: fewer than asked when `limited` (the stock left). */
export interface Added {
  limited: boolean;
}

/**
 * Adds to the signed-in user's cart: a salon's, through the outbox, one addition after the
 * other (see addToSalonCartWithinStock); a sales rep's, to the cart of the customer it is ordering
 * for (./rep-cart), which rejects with NoCustomerChosen when it has chosen none.
 */
export const addToCart = (productId: number, quantity: number): Promise<Added> =>
  (getSession()?.user.role === 'SALES_REP'
    ? // Loaded when a rep first adds: the first screens' list of the engine's files stays short.
      import('./rep-cart')
        .then((m) => m.addToRepCart(productId, quantity))
        .then(() => ({ limited: false }))
    : addInTurn(productId, quantity)
  ).catch((error: unknown) => {
    const refusal = storageRefusal(error);
    if (refusal) throw new CannotAdd(refusal === 'full' ? 'cart.storageFull' : 'cart.noStorage');
    throw error;
  });
