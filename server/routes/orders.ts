/** /api/orders: the company's orders, read and cancelled (a change route) by its users. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import { cancelOrder, getOrder, listOrders } from '../services/orders.js';
import { orderSignature } from '../services/sales-reps.js';
import { DOCUMENT_PREVIEW_CSP } from './companies.js';
import { CancelOrderBodySchema, OrderSchema } from '../../src/contracts/orders-schemas.js';
import { changeRoutes } from './change-routes.js';
import { errorResponses, fileAnswer, IdParams } from './schemas.js';

/**
 * The reason recorded when the customer gives none: cancelled by the customer
 * (docs/api.md#orders).
 */
const DEFAULT_CANCELLATION_REASON = 'Anulată de client';

export const orderRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireUser);

  app.get(
    '/orders',
    {
      schema: {
        response: { 200: Type.Object({ orders: Type.Array(OrderSchema) }), ...errorResponses },
      },
    },
    async (request) => ({ orders: await listOrders(db, accountOf(request)) }),
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        params: IdParams,
        response: { 200: Type.Object({ order: OrderSchema }), ...errorResponses },
      },
    },
    async (request) => ({ order: await getOrder(db, accountOf(request), request.params.id) }),
  );

  // The customer's signature of an order a rep took (services/sales-reps.ts): its company's
  // users, its rep and staff may see it; never run or framed, only shown as a picture.
  app.get(
    '/orders/:id/signature',
    {
      schema: {
        params: IdParams,
        response: {
          200: fileAnswer<Buffer>('The signature, a PNG picture.', ['image/png']),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const data = await orderSignature(db, accountOf(request), request.params.id);
      return reply
        .type('image/png')
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', DOCUMENT_PREVIEW_CSP)
        .send(data);
    },
  );

  changeRoutes(app, db).delete(
    '/orders/:id',
    {
      params: IdParams,
      body: Type.Optional(CancelOrderBodySchema),
      response: {
        200: Type.Object({ message: Type.String(), order: OrderSchema }),
        ...errorResponses,
      },
    },
    async (tx, { params, body }, account) => {
      const reason = body?.cancellationReason?.trim() || DEFAULT_CANCELLATION_REASON;
      const order = await cancelOrder(tx, account, params.id, reason);
      return {
        status: 200,
        body: { message: `Order ${order.orderNumber} was cancelled.`, order },
      };
    },
  );
};
