/**
 * "Order again" (docs/product.md#orders): the lines of one of the salon's orders put into
 * its cart at today's prices and stock, as the device's catalogue has them, so offline too.
 * Every line goes through the cart's usual intent (one outbox entry per line, sent exactly
 * once); what could not go in as ordered is said line by line.
 */
import type { Product } from '../../contracts/catalogue';
import { MAX_ORDER_LINES } from '../../contracts/field-sales';
import type { Cart, OrderItem } from '../../contracts/orders';
import { fetchProduct } from '../api/catalogue';
import { isNotFound } from '../api/errors';
import { signedInUserId } from '../auth/session-store';
import { db } from '../db/db';
import { readProducts } from '../db/stored-products';
import { quantityToAdd, type AddProblem } from './catalogue-lookup';
import { loadSyncEngine } from './engine-loader';
import { addLinesToCart } from './outbox';

/**
 * Why a line does not go in as ordered: no longer sold (not in the catalogue), not checked
 * (the device lacks the whole catalogue and the server could not be asked), without a price,
 * out of stock, all of its stock already in the cart, fewer than ordered (the stock left),
 * or a new product for a cart that holds as many as an order takes (MAX_ORDER_LINES).
 */
export type ReorderProblem = 'notSold' | 'unchecked' | AddProblem | 'reduced' | 'cartFull';

export interface ReorderLine {
  /** Null for a product deleted since the order was placed. */
  productId: number | null;
  /** The product's name and SKU as the order has them (a product no longer sold has no other). */
  name: string;
  sku: string;
  /** How many the order had. */
  ordered: number;
  /** How many go into the cart now. */
  added: number;
  /** How many the cart held already. */
  inCart: number;
  /** The stock the device knows of, when it has the product. */
  stock?: number | undefined;
  problem?: ReorderProblem | undefined;
}

export interface ReorderPlan {
  lines: ReorderLine[];
  /** What goes into the cart, one addition per product. */
  additions: { productId: number; quantity: number }[];
}

type OrderedLine = Pick<OrderItem, 'productId' | 'productName' | 'productSku' | 'quantity'>;

/**
 * What of `items` goes into `cart` now, with `products` the catalogue's products by id
 * (one missing, or deleted, is no longer sold, unless it is among `unchecked`): each product
 * within its stock, counting what the cart holds already. A product on several lines counts
 * once.
 */
export function planReorder(
  items: readonly OrderedLine[],
  products: ReadonlyMap<number, Product>,
  cart: Cart,
  unchecked: ReadonlySet<number> = new Set(),
): ReorderPlan {
  const ordered = new Map<number | string, OrderedLine>();
  for (const item of items) {
    const key = item.productId ?? `sku:${item.productSku}`;
    const same = ordered.get(key);
    ordered.set(key, same ? { ...same, quantity: same.quantity + item.quantity } : { ...item });
  }
  const plan: ReorderPlan = { lines: [], additions: [] };
  let cartProducts = cart.items.length;
  for (const item of ordered.values()) {
    const id = item.productId;
    const product = id === null ? undefined : products.get(id);
    const inCart = cart.items.find((line) => line.productId === id)?.quantity ?? 0;
    const line: ReorderLine = {
      productId: item.productId,
      name: item.productName,
      sku: item.productSku,
      ordered: item.quantity,
      added: 0,
      inCart,
      stock: product?.stock,
    };
    plan.lines.push(line);
    if (id === null || !product) {
      line.problem = id !== null && unchecked.has(id) ? 'unchecked' : 'notSold';
      continue;
    }
    const check = quantityToAdd(product, inCart, item.quantity);
    if (!check.ok) {
      line.problem = check.problem;
      continue;
    }
    if (inCart === 0) {
      if (cartProducts >= MAX_ORDER_LINES) {
        line.problem = 'cartFull';
        continue;
      }
      cartProducts += 1;
    }
    line.added = check.quantity;
    if (check.limited) line.problem = 'reduced';
    plan.additions.push({ productId: id, quantity: check.quantity });
  }
  return plan;
}

/**
 * Puts the lines of `items` (an order's) into the signed-in salon's cart, as planReorder
 * decides with the device's catalogue and cart, and says what went in. Until the whole
 * catalogue is on the device, a product it lacks is asked of the server.
 */
export async function orderAgain(items: readonly OrderedLine[]): Promise<ReorderPlan> {
  const userId = signedInUserId();
  if (userId === null) throw new Error('Sign in first');
  const ids = [
    ...new Set(items.flatMap((item) => (item.productId === null ? [] : [item.productId]))),
  ];
  // The cart as the user sees it (the engine's, with the waiting changes on top).
  const { readCart } = await loadSyncEngine();
  const [{ cart }, products, mirror] = await Promise.all([
    readCart(userId),
    readProducts(db, ids),
    db.mirrorState.get('catalogue'),
  ]);
  const unchecked = new Set<number>();
  if (mirror?.complete !== true) {
    for (const id of ids.filter((id) => !products.has(id))) {
      try {
        products.set(id, await fetchProduct(id));
      } catch (error) {
        if (!isNotFound(error)) unchecked.add(id);
      }
    }
  }
  const plan = planReorder(items, products, cart, unchecked);
  await addLinesToCart(plan.additions);
  return plan;
}
