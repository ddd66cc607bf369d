/**
 * Routes that change something, declared as such: each takes an Idempotency-Key header and
 * runs its change once per key, in one transaction with the record of its response
 * (`once`, services/idempotency.ts), as the signed-in account it is given.
 *
 *   const change = changeRoutes(app, db);
 *   change.post('/cart/add', { body: CartAddBody, response }, async (tx, { body }, account) => ({
 *     status: 200,
 *     body: await addToCart(tx, account, body.productId, body.quantity),
 *   }));
 *
 * A route that must do work before its transaction (read an upload, check a password)
 * declares itself and calls `once` there.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { Db } from '../db/database.js';
import { accountOf } from '../plugins/auth.js';
import type { Account } from '../services/accounts.js';
import {
  IdempotencyHeaders,
  once,
  type EffectResult,
  type OnceOptions,
} from '../services/idempotency.js';

type RouteApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What a change route declares of its request; the Idempotency-Key header is added. */
type ChangeSchema = Omit<FastifySchema, 'headers'>;

/** A request of a route with the schema `S`: its params, query and body typed from it. */
type RequestOf<S extends ChangeSchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  TypeBoxTypeProvider
>;

/** The change itself: run in the transaction `tx`, it says the status and body to answer. */
type Change<S extends ChangeSchema, T> = (
  tx: Db,
  request: RequestOf<S>,
  account: Account,
) => Promise<EffectResult<T>>;

type Declare = <S extends ChangeSchema, T>(
  url: string,
  schema: S,
  change: Change<S, T>,
  options?: OnceOptions<T>,
) => void;

export function changeRoutes(
  app: RouteApp,
  db: Db,
): Record<'post' | 'put' | 'patch' | 'delete', Declare> {
  const declare =
    (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'): Declare =>
    (url, schema, change, options) => {
      // Typed for its caller through `change`; here, as any route's schema.
      const routeSchema: FastifySchema = { ...schema, headers: IdempotencyHeaders };
      app.route({
        method,
        url,
        schema: routeSchema,
        handler: (request, reply) => {
          const account = accountOf(request);
          // The route's schema validated the request: it has the shape its type says.
          const typed = request as unknown as RequestOf<typeof schema>;
          return once(db, request, reply, (tx) => change(tx, typed, account), options);
        },
      });
    };
  return {
    post: declare('POST'),
    put: declare('PUT'),
    patch: declare('PATCH'),
    delete: declare('DELETE'),
  };
}
