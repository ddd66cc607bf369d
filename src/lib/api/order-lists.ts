/**
 * The signed-in salon user's order lists (docs/api.md#order-lists). Only the read is here:
 * every change goes through the outbox (src/lib/sync/list-changes.ts).
 */
import type { OrderList } from '../../contracts/order-lists';
import { api } from './client';

export const fetchOrderLists = () =>
  api
    .get('lists')
    .json<{ lists: OrderList[] }>()
    .then((body) => body.lists);
