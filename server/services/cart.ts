/**
 * The cart: one line per product, quantities whole and never above stock. Only a
 * verified, APPROVED company's users may change it; prices are always the catalogue's.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { canSeePrices } from '../../src/contracts/accounts.js';
import { cartLine, cartOf, type Cart } from '../../src/contracts/orders.js';
import type { Db } from '../db/database.js';
import { cartItems, products } from '../db/schema.js';
import type { Account } from './accounts.js';
import { forbidden, HttpError, notFound } from './errors.js';

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
  return new HttpError(422, message, [
    {
      field: `product:${product.id}`,
      message,
      code: product.stock <= 0 ? 'outOfStock' : 'insufficientStock',
    },
  ]);
}

export async function readCart(db: Db, account: Account): Promise<Cart> {
  const rows = await db
    .select({ item: cartItems, product: products })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, account.user.id))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.productId));
  const priced = canSeePrices(account.company);
  return cartOf(
    rows.map(({ item, product }) =>
      cartLine(product, item.quantity, priced ? Number(product.price) : 0),
    ),
  );
}

async function productForUpdate(db: Db, productId: number): Promise<ProductRow> {
  const [product] = await db
    .select()
    .from(products)
    .where(eq(products.id, productId))
    .for('update');
  if (!product) throw notFound('Product not found', 'PRODUCT_NOT_FOUND');
  return product;
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
  const updated = await db
    .update(cartItems)
    .set({ quantity, updatedAt: new Date() })
    .where(and(eq(cartItems.userId, account.user.id), eq(cartItems.productId, productId)))
    .returning({ productId: cartItems.productId });
  if (updated.length === 0) throw notFound('This product is not in your cart', 'NOT_IN_CART');
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
  await db.delete(cartItems).where(eq(cartItems.userId, account.user.id));
  return readCart(db, account);
}

/** The cart's lines with their products locked, in product order (no deadlocks). */
export async function lockCartLines(db: Db, userId: number) {
  const lines = await db
    .select()
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.productId))
    .for('update');
  if (lines.length === 0) return [];
  const locked = await db
    .select()
    .from(products)
    .where(
      inArray(
        products.id,
        lines.map((l) => l.productId),
      ),
    )
    .orderBy(asc(products.id))
    .for('update');
  return lines.map((line) => ({
    line,
    product: locked.find((p) => p.id === line.productId) as ProductRow,
  }));
}
