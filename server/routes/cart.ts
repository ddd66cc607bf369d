/**
 * /api/cart: the signed-in user's cart and its checkout. Every change is a change route
 * (change-routes.ts), so that a change replayed by a device's outbox counts once.
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
import { checkout } from '../services/orders.js';
import {
  CartAddBodySchema,
  CartQuantityBodySchema,
  CartSchema,
  CheckoutBodySchema,
  OrderSchema,
} from '../../src/contracts/orders-schemas.js';
import { changeRoutes } from './change-routes.js';
import { errorResponses, IdParams } from './schemas.js';

const cartResponse = { 200: CartSchema, ...errorResponses };

export const cartRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireUser);

  app.get('/cart', { schema: { response: cartResponse } }, async (request) =>
    readCart(db, accountOf(request)),
  );

  const change = changeRoutes(app, db);

  change.post(
    '/cart/add',
    { body: CartAddBodySchema, response: cartResponse },
    async (tx, { body }, account) => ({
      status: 200,
      body: await addToCart(tx, account, body.productId, body.quantity),
    }),
  );

  change.put(
    '/cart/items/:id',
    { params: IdParams, body: CartQuantityBodySchema, response: cartResponse },
    async (tx, { params, body }, account) => ({
      status: 200,
      body: await setCartQuantity(tx, account, params.id, body.quantity),
    }),
  );

  change.delete(
    '/cart/items/:id',
    { params: IdParams, response: cartResponse },
    async (tx, { params }, account) => ({
      status: 200,
      body: await removeFromCart(tx, account, params.id),
    }),
  );

  change.delete('/cart', { response: cartResponse }, async (tx, _request, account) => ({
    status: 200,
    body: await clearCart(tx, account),
  }));

  change.post(
    '/cart/checkout',
    {
      body: CheckoutBodySchema,
      response: {
        201: Type.Object({ message: Type.String(), order: OrderSchema }),
        ...errorResponses,
      },
    },
    async (tx, { body }, account) => {
      const order = await checkout(tx, account, body);
      return {
        status: 201,
        body: { message: `Order ${order.orderNumber} created successfully!`, order },
      };
    },
  );
};
