/**
 * /api/lists: the signed-in salon user's order lists (docs/api.md#order-lists). Every change
 * is a change route (change-routes.ts), as the cart's are, so that a change replayed by a
 * device's outbox counts once.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  OrderListBodySchema,
  OrderListItemBodySchema,
  OrderListItemParams,
  OrderListParams,
  OrderListSchema,
  OrderListsSchema,
} from '../../src/contracts/order-lists-schemas.js';
import type { Db } from '../db/database.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import {
  deleteOrderList,
  readOrderLists,
  removeOrderListItem,
  saveOrderList,
  setOrderListItem,
} from '../services/order-lists.js';
import { changeRoutes } from './change-routes.js';
import { errorResponses } from './schemas.js';

const listResponse = { 200: OrderListSchema, ...errorResponses };

export const orderListRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/lists',
    { schema: { response: { 200: OrderListsSchema, ...errorResponses } } },
    (request) => readOrderLists(db, accountOf(request)),
  );

  const change = changeRoutes(app, db);

  change.put(
    '/lists/:listId',
    {
      params: OrderListParams,
      body: OrderListBodySchema,
      response: { 201: OrderListSchema, ...listResponse },
    },
    async (tx, { params, body }, account) => {
      const { created, list } = await saveOrderList(tx, account, params.listId, body.name);
      return { status: created ? 201 : 200, body: list };
    },
  );

  change.delete(
    '/lists/:listId',
    {
      params: OrderListParams,
      response: { 200: Type.Object({ message: Type.String() }), ...errorResponses },
    },
    async (tx, { params }, account) => {
      await deleteOrderList(tx, account, params.listId);
      return { status: 200, body: { message: 'Order list deleted.' } };
    },
  );

  change.put(
    '/lists/:listId/items/:productId',
    { params: OrderListItemParams, body: OrderListItemBodySchema, response: listResponse },
    async (tx, { params, body }, account) => ({
      status: 200,
      body: await setOrderListItem(tx, account, params.listId, params.productId, body.quantity),
    }),
  );

  change.delete(
    '/lists/:listId/items/:productId',
    { params: OrderListItemParams, response: listResponse },
    async (tx, { params }, account) => ({
      status: 200,
      body: await removeOrderListItem(tx, account, params.listId, params.productId),
    }),
  );
};
