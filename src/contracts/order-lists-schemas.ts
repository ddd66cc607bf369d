/**
 * Order lists as JSON schemas (docs/api.md#order-lists), stated once: the server answers
 * with them and the types of ./order-lists.ts are derived from them.
 */
import { Type, type Static } from 'typebox';
import { MAX_LIST_NAME_LENGTH } from './order-lists';
import { Id, Quantity } from './orders-schemas';

export const OrderListItemSchema = Type.Object({
  productId: Type.Integer(),
  quantity: Type.Integer(),
});

export const OrderListSchema = Type.Object({
  /** Chosen by the device that made the list (a UUID). */
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  /** In the order they were added. */
  items: Type.Array(OrderListItemSchema),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const OrderListsSchema = Type.Object({ lists: Type.Array(OrderListSchema) });

export const OrderListParams = Type.Object({ listId: Type.String({ format: 'uuid' }) });
export const OrderListItemParams = Type.Object({
  listId: Type.String({ format: 'uuid' }),
  productId: Id,
});

/** A list's name: words, not only spaces. */
export const OrderListBodySchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: MAX_LIST_NAME_LENGTH, pattern: '\\S' }) },
  { additionalProperties: false },
);
export const OrderListItemBodySchema = Type.Object(
  { quantity: Quantity },
  { additionalProperties: false },
);

export type OrderListItem = Static<typeof OrderListItemSchema>;
export type OrderList = Static<typeof OrderListSchema>;
export type OrderLists = Static<typeof OrderListsSchema>;
