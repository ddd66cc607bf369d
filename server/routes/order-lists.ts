/**
 * /api/lists: the signed-in salon user's order lists (docs/api.md#order-lists). Every change
 * goes through `once` (services/idempotency.ts), as the cart's do, so that a change
 * replayed by a device's outbox counts once.
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
import { IdempotencyHeaders, once } from '../services/idempotency.js';
import {
  deleteOrderList,
  readOrderLists,
  removeOrderListItem,
  saveOrderList,
  setOrderListItem,
} from '../services/order-lists.js';
import { errorResponses } from './schemas.js';

const listResponse = { 200: OrderListSchema, ...errorResponses };

export const orderListRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/lists',
    { schema: { response: { 200: OrderListsSchema, ...errorResponses } } },
    (request) => readOrderLists(db, accountOf(request)),
  );

  app.put(
    '/lists/:listId',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: OrderListParams,
        body: OrderListBodySchema,
        response: { 201: OrderListSchema, ...listResponse },
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => {
        const { created, list } = await saveOrderList(
          tx,
          accountOf(request),
          request.params.listId,
          request.body.name,
        );
        return { status: created ? 201 : 200, body: list };
      }),
  );

  app.delete(
    '/lists/:listId',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: OrderListParams,
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses },
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => {
        await deleteOrderList(tx, accountOf(request), request.params.listId);
        return { status: 200, body: { message: 'Order list deleted.' } };
      }),
  );

  app.put(
    '/lists/:listId/items/:productId',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: OrderListItemParams,
        body: OrderListItemBodySchema,
        response: listResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: await setOrderListItem(
          tx,
          accountOf(request),
          request.params.listId,
          request.params.productId,
          request.body.quantity,
        ),
      })),
  );

  app.delete(
    '/lists/:listId/items/:productId',
    {
      schema: { headers: IdempotencyHeaders, params: OrderListItemParams, response: listResponse },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: await removeOrderListItem(
          tx,
          accountOf(request),
          request.params.listId,
          request.params.productId,
        ),
      })),
  );
};
