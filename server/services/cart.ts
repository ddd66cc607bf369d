/**
 * The cart: one line per product, quantities whole and never above stock. Only a
 * verified, APPROVED company's users may see or change it; prices are always the
 * catalogue's. Rows are locked in the order of transactions.ts: products, then cart lines.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { canSeePrices } from '../../src/contracts/accounts.js';
import { MAX_ORDER_LINES } from '../../src/contracts/field-sales.js';
import { cartLine, cartOf, MAX_LINE_QUANTITY, type Cart } from '../../src/contracts/orders.js';
import type { Db } from '../db/database.js';
import { cartItems, products } from '../db/schema.js';
import type { Account } from './accounts.js';
import { forbidden, HttpError, notFound } from './errors.js';
import { RestartTransaction } from './transactions.js';

export const NOT_APPROVED =
  'Your company account is inactive or not approved yet, so the cart and orders are not available.';

export function requireApproved(account: Account): void {
  if (!canSeePrices(account.company)) throw forbidden(NOT_APPROVED, 'NOT_APPROVED');
}

type ProductRow = typeof products.$inferSelect;

export function stockError(
  product: Pick<ProductRow, 'name' | 'stock' | 'id'>,
  wanted: number,
): HttpError {
  const message =
    product.stock <= 0
      ? `${product.name} is out of stock.`
      : `Only ${product.stock} of ${product.name} left in stock (you asked for ${wanted}).`;
  const code = product.stock <= 0 ? 'outOfStock' : 'insufficientStock';
  // The code and its values also at the top, for the client to say it in the user's language.
  return new HttpError(422, message, [{ field: `product:${product.id}`, message, code }], {
    code,
    params: { name: product.name, stock: Math.max(0, product.stock), wanted },
  });
}

/**
 * A line past the most one cart line holds (docs/product.md#limits), added to a little at
 * a time: each request's quantity is within it, the line's sum is not.
 */
export function lineLimitError(
  product: Pick<ProductRow, 'name' | 'id'>,
  wanted: number,
): HttpError {
  const message = `At most ${MAX_LINE_QUANTITY} of ${product.name} fit in one cart line (you asked for ${wanted}).`;
  const code = 'LINE_LIMIT';
  return new HttpError(422, message, [{ field: `product:${product.id}`, message, code }], {
    code,
    params: { name: product.name, max: MAX_LINE_QUANTITY, wanted },
  });
}

/**
 * A cart holds at most as many lines as an order may have: a cart of more could never be
 * ordered (a checkout names at most MAX_ORDER_LINES lines).
 */
async function refuseNewLineOfFullCart(db: Db, userId: number): Promise<void> {
  // The lines locked first (after the product, in the lock order): two new lines added at
  // once by two devices are counted one after the other, not both against 199.
  await lockLines(db, userId);
  const [row] = await db
    .select({ lines: sql<number>`count(*)::int` })
    .from(cartItems)
    .where(eq(cartItems.userId, userId));
  if ((row?.lines ?? 0) < MAX_ORDER_LINES) return;
  const message = `A cart holds at most ${MAX_ORDER_LINES} products: order these first, or remove some.`;
  throw new HttpError(422, message, undefined, {
    code: 'CART_FULL',
    params: { max: MAX_ORDER_LINES },
  });
}

/**
 * A product as carts and checkout see it: one staff took off sale has nothing to sell, so it
 * is refused (and shown) as out of stock, whatever units it still holds.
 */
export const asSold = (product: ProductRow): ProductRow =>
  product.active ? product : { ...product, stock: 0 };

/** The caller's cart; like every cart call, only for a company that may order. */
export async function readCart(db: Db, account: Account): Promise<Cart> {
  requireApproved(account);
  const rows = await db
    .select({ item: cartItems, product: products })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, account.user.id))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.productId));
  return cartOf(
    rows.map(({ item, product }) =>
      cartLine(asSold(product), item.quantity, Number(product.price)),
    ),
  );
}

/** Locks products by ascending id: the first step of the lock order (transactions.ts). */
export async function lockProducts(db: Db, ids: number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(asc(products.id))
    .for('update');
  return rows.map(asSold);
}

async function productForUpdate(db: Db, productId: number): Promise<ProductRow> {
  const [product] = await lockProducts(db, [productId]);
  if (!product) throw notFound('Product not found', 'PRODUCT_NOT_FOUND');
  return product;
}

/** Locks the user's cart lines by ascending product id: the step after the products. */
function lockLines(db: Db, userId: number) {
  return db
    .select()
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.productId))
    .for('update');
}

export async function addToCart(
  db: Db,
  account: Account,
  productId: number,
  quantity: number,
): Promise<Cart> {
  requireApproved(account);
  const product = await productForUpdate(db, productId);
  const [line] = await db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.userId, account.user.id), eq(cartItems.productId, productId)));
  const wanted = (line?.quantity ?? 0) + quantity;
  if (wanted > product.stock) throw stockError(product, wanted);
  if (wanted > MAX_LINE_QUANTITY) throw lineLimitError(product, wanted);
  if (!line) await refuseNewLineOfFullCart(db, account.user.id);
  await db
    .insert(cartItems)
    .values({ userId: account.user.id, productId, quantity })
    .onConflictDoUpdate({
      target: [cartItems.userId, cartItems.productId],
      set: { quantity: sql`${cartItems.quantity} + ${quantity}`, updatedAt: new Date() },
    });
  return readCart(db, account);
}

export async function setCartQuantity(
  db: Db,
  account: Account,
  productId: number,
  quantity: number,
): Promise<Cart> {
  requireApproved(account);
  const product = await productForUpdate(db, productId);
  if (quantity > product.stock) throw stockError(product, quantity);
  // A line another device of the user removed meanwhile is made again: the quantity the
  // user typed is what they want (docs/product.md#one-user-on-two-devices).
  const [line] = await db
    .select({ productId: cartItems.productId })
    .from(cartItems)
    .where(and(eq(cartItems.userId, account.user.id), eq(cartItems.productId, productId)));
  if (!line) await refuseNewLineOfFullCart(db, account.user.id);
  await db
    .insert(cartItems)
    .values({ userId: account.user.id, productId, quantity })
    .onConflictDoUpdate({
      target: [cartItems.userId, cartItems.productId],
      set: { quantity, updatedAt: new Date() },
    });
  return readCart(db, account);
}

/** Removing a line that is not there is not an error: the cart ends up as asked. */
export async function removeFromCart(db: Db, account: Account, productId: number): Promise<Cart> {
  requireApproved(account);
  await db
    .delete(cartItems)
    .where(and(eq(cartItems.userId, account.user.id), eq(cartItems.productId, productId)));
  return readCart(db, account);
}

export async function clearCart(db: Db, account: Account): Promise<Cart> {
  requireApproved(account);
  // The lines in product order first: a DELETE alone locks them in whatever order it finds
  // them, and could deadlock with a checkout locking the same lines.
  await lockLines(db, account.user.id);
  await db.delete(cartItems).where(eq(cartItems.userId, account.user.id));
  return readCart(db, account);
}

/**
 * The cart's lines with their products, all locked in the lock order (transactions.ts):
 *
 * 1. Read which products the cart holds, without a lock.
 * 2. Lock those products, by id.
 * 3. Lock the cart's lines, by product id.
 * 4. A line whose product was not locked in step 2 was added in between: its product
 *    cannot be locked now without breaking the order, so the transaction starts again.
 */
export async function lockCart(db: Db, userId: number, alsoProducts: number[] = []) {
  const held = await db
    .select({ productId: cartItems.productId })
    .from(cartItems)
    .where(eq(cartItems.userId, userId));
  // Products a checkout names beside the cart's are locked in the same ordered pass.
  const locked = await lockProducts(db, [
    ...new Set([...held.map((line) => line.productId), ...alsoProducts]),
  ]);
  const lines = await lockLines(db, userId);
  const productOf = new Map(locked.map((product) => [product.id, product]));
  return {
    lines: lines.map((line) => {
      const product = productOf.get(line.productId);
      if (!product) throw new RestartTransaction('A line was added to the cart while locking it');
      return { line, product };
    }),
    productOf,
  };
}
