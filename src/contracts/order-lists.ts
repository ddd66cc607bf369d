/**
 * A salon user's order lists (docs/product.md#order-lists): named lists of products and
 * quantities ("back-bar", "Christmas") to put into the cart in one go. A list's id is
 * chosen by the device that makes it, so that a list made offline is the same list on the
 * server once its outbox has been replayed.
 */
export type { OrderList, OrderListItem, OrderLists } from './order-lists-schemas';

/** How many lists one user keeps, and how many products one list holds. */
export const MAX_ORDER_LISTS = 50;
export const MAX_LIST_ITEMS = 200;
export const MAX_LIST_NAME_LENGTH = 60;
