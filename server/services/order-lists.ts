/**
 * A salon user's order lists (docs/product.md#order-lists). Every change is a setting, not
 * a step: naming a list, setting a product's quantity in it, removing either. So a change
 * the device's outbox sends twice leaves the list as once, and the lists of a user's two
 * devices agree once both have sent their changes (the last change of a line wins).
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import {
  MAX_LIST_ITEMS,
  MAX_ORDER_LISTS,
  type OrderList,
  type OrderLists,
} from '../../src/contracts/order-lists.js';
import type { Db } from '../db/database.js';
import { orderListItems, orderLists, products } from '../db/schema.js';
import type { Account } from './accounts.js';
import { requireApproved } from './cart.js';
import { HttpError, notFound } from './errors.js';

const LIST_NOT_FOUND = 'Order list not found';

type ListRow = typeof orderLists.$inferSelect;

async function itemsOf(db: Db, listIds: string[]) {
  if (listIds.length === 0) return [];
  return db
    .select()
    .from(orderListItems)
    .where(inArray(orderListItems.listId, listIds))
    .orderBy(asc(orderListItems.addedAt), asc(orderListItems.productId));
}

async function withItems(db: Db, rows: ListRow[]): Promise<OrderList[]> {
  const items = await itemsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    items: items
      .filter((item) => item.listId === row.id)
      .map(({ productId, quantity }) => ({ productId, quantity })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** The user's lists, oldest first. */
export async function readOrderLists(db: Db, account: Account): Promise<OrderLists> {
  requireApproved(account);
  const rows = await db
    .select()
    .from(orderLists)
    .where(eq(orderLists.userId, account.user.id))
    .orderBy(asc(orderLists.createdAt), asc(orderLists.id));
  return { lists: await withItems(db, rows) };
}

/** One of the user's lists, locked for a change; another user's is not found. */
async function ownList(db: Db, account: Account, listId: string): Promise<ListRow> {
  const [row] = await db
    .select()
    .from(orderLists)
    .where(and(eq(orderLists.id, listId), eq(orderLists.userId, account.user.id)))
    .for('update');
  if (!row) throw notFound(LIST_NOT_FOUND, 'LIST_NOT_FOUND');
  return row;
}

/**
 * Whether the user has a list of this id, locked for a change; another user's list of
 * that id is not found (LIST_NOT_FOUND), as if it did not exist.
 */
async function lockedOwner(db: Db, account: Account, listId: string): Promise<boolean> {
  const [existing] = await db
    .select({ userId: orderLists.userId })
    .from(orderLists)
    .where(eq(orderLists.id, listId))
    .for('update');
  if (existing && existing.userId !== account.user.id) {
    throw notFound(LIST_NOT_FOUND, 'LIST_NOT_FOUND');
  }
  return existing !== undefined;
}

async function readList(db: Db, listId: string): Promise<OrderList> {
  const rows = await db.select().from(orderLists).where(eq(orderLists.id, listId));
  const [list] = await withItems(db, rows);
  if (!list) throw notFound(LIST_NOT_FOUND, 'LIST_NOT_FOUND');
  return list;
}

/**
 * `PUT /api/lists/{listId}`: makes the list under the device's id, or renames it. An id
 * another user's list has is not found, as if it did not exist.
 */
export async function saveOrderList(
  db: Db,
  account: Account,
  listId: string,
  name: string,
): Promise<{ created: boolean; list: OrderList }> {
  requireApproved(account);
  const existing = await lockedOwner(db, account, listId);
  const trimmed = name.trim();
  if (existing) {
    await db
      .update(orderLists)
      .set({ name: trimmed, updatedAt: new Date() })
      .where(eq(orderLists.id, listId));
    return { created: false, list: await readList(db, listId) };
  }
  const [kept] = await db
    .select({ lists: count() })
    .from(orderLists)
    .where(eq(orderLists.userId, account.user.id));
  if ((kept?.lists ?? 0) >= MAX_ORDER_LISTS) {
    throw new HttpError(422, `You can keep at most ${MAX_ORDER_LISTS} order lists.`, undefined, {
      code: 'TOO_MANY_LISTS',
      params: { max: MAX_ORDER_LISTS },
    });
  }
  await db.insert(orderLists).values({ id: listId, userId: account.user.id, name: trimmed });
  return { created: true, list: await readList(db, listId) };
}

/**
 * `DELETE /api/lists/{listId}`: the list and its lines. A list that no longer exists (the
 * user deleted it on another device) is not an error: it is gone, as asked.
 */
export async function deleteOrderList(db: Db, account: Account, listId: string): Promise<void> {
  requireApproved(account);
  if (!(await lockedOwner(db, account, listId))) return;
  await db.delete(orderLists).where(eq(orderLists.id, listId));
}

/**
 * `PUT /api/lists/{listId}/items/{productId}`: the product's quantity in the list, added
 * when the list did not hold it. A list is a plan: its quantities may exceed the stock,
 * which is checked when the list goes into the cart.
 */
export async function setOrderListItem(
  db: Db,
  account: Account,
  listId: string,
  productId: number,
  quantity: number,
): Promise<OrderList> {
  requireApproved(account);
  await ownList(db, account, listId);
  const [product] = await db
    .select({ active: products.active })
    .from(products)
    .where(eq(products.id, productId));
  if (!product?.active) throw notFound('Product not found', 'PRODUCT_NOT_FOUND');
  const [held] = await db
    .select({ quantity: orderListItems.quantity })
    .from(orderListItems)
    .where(and(eq(orderListItems.listId, listId), eq(orderListItems.productId, productId)));
  if (held) {
    await db
      .update(orderListItems)
      .set({ quantity })
      .where(and(eq(orderListItems.listId, listId), eq(orderListItems.productId, productId)));
  } else {
    const [lines] = await db
      .select({ items: count() })
      .from(orderListItems)
      .where(eq(orderListItems.listId, listId));
    if ((lines?.items ?? 0) >= MAX_LIST_ITEMS) {
      throw new HttpError(
        422,
        `An order list holds at most ${MAX_LIST_ITEMS} products.`,
        undefined,
        { code: 'TOO_MANY_LIST_ITEMS', params: { max: MAX_LIST_ITEMS } },
      );
    }
    await db.insert(orderListItems).values({ listId, productId, quantity });
  }
  await db.update(orderLists).set({ updatedAt: new Date() }).where(eq(orderLists.id, listId));
  return readList(db, listId);
}

/** `DELETE /api/lists/{listId}/items/{productId}`: a product the list no longer holds is fine. */
export async function removeOrderListItem(
  db: Db,
  account: Account,
  listId: string,
  productId: number,
): Promise<OrderList> {
  requireApproved(account);
  await ownList(db, account, listId);
  await db
    .delete(orderListItems)
    .where(and(eq(orderListItems.listId, listId), eq(orderListItems.productId, productId)));
  await db.update(orderLists).set({ updatedAt: new Date() }).where(eq(orderLists.id, listId));
  return readList(db, listId);
}
