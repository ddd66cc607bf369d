/**
 * /api/cart: the signed-in user's cart and its checkout. Every change goes through `once`
 * (services/idempotency.ts), so that a change replayed by a device's outbox counts once.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import {
  addToCart,
  clearCart,
  readCart,
  removeFromCart,
  setCartQuantity,
} from '../services/cart.js';
import { IdempotencyHeaders, once } from '../services/idempotency.js';
import { checkout } from '../services/orders.js';
import {
  CartAddBodySchema,
  CartQuantityBodySchema,
  CartSchema,
  CheckoutBodySchema,
  OrderSchema,
} from '../../src/contracts/orders-schemas.js';
import { errorResponses, IdParams } from './schemas.js';

const cartResponse = { 200: CartSchema, ...errorResponses };

export const cartRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireUser);

  app.get('/cart', { schema: { response: cartResponse } }, async (request) =>
    readCart(db, accountOf(request)),
  );

  app.post(
    '/cart/add',
    {
      schema: {
        headers: IdempotencyHeaders,
        body: CartAddBodySchema,
        response: cartResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: await addToCart(
          tx,
          accountOf(request),
          request.body.productId,
          request.body.quantity,
        ),
      })),
  );

  app.put(
    '/cart/items/:id',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: CartQuantityBodySchema,
        response: cartResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: await setCartQuantity(
          tx,
          accountOf(request),
          request.params.id,
          request.body.quantity,
        ),
      })),
  );

  app.delete(
    '/cart/items/:id',
    { schema: { headers: IdempotencyHeaders, params: IdParams, response: cartResponse } },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: await removeFromCart(tx, accountOf(request), request.params.id),
      })),
  );

  app.delete(
    '/cart',
    { schema: { headers: IdempotencyHeaders, response: cartResponse } },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: await clearCart(tx, accountOf(request)),
      })),
  );

  app.post(
    '/cart/checkout',
    {
      schema: {
        headers: IdempotencyHeaders,
        body: CheckoutBodySchema,
        response: {
          201: Type.Object({ message: Type.String(), order: OrderSchema }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => {
        const order = await checkout(tx, accountOf(request), request.body);
        return {
          status: 201,
          body: { message: `Order ${order.orderNumber} created successfully!`, order },
        };
      }),
  );
};
