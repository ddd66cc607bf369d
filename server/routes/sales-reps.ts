/**
 * /api/rep: what a sales rep reads of the companies assigned to it, the orders it takes
 * for them (and those it took since a moment, for its day), and the salons it registers
 * at the booth with their documents (docs/api.md#field-sales). Only a SALES_REP account
 * passes (403 for others); a company not assigned to the caller is not found (404),
 * whether it exists or not.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { accountOf, requireSalesRep } from '../plugins/auth.js';
import { HttpError } from '../services/errors.js';
import {
  listCustomerOrders,
  listRepCustomers,
  listRepOrdersSince,
  placeRepOrder,
  registerRepCustomer,
  repCustomer,
  requireOwnCustomer,
} from '../services/sales-reps.js';
import {
  RepCustomerListSchema,
  RepCustomerRegisteredSchema,
  RepCustomerSchema,
  RepOrderBodySchema,
  RepOrderListSchema,
  RepOrderQuerySchema,
} from '../../src/contracts/field-sales-schemas.js';
import { REP_ORDERS_MAX_DAYS } from '../../src/contracts/field-sales.js';
import { bodyOf, RepCustomerFormSchema } from '../../src/contracts/form-schemas.js';
import { OrderSchema } from '../../src/contracts/orders-schemas.js';
import { DocumentUploadSchema, uploadDocuments } from './companies.js';
import { changeRoutes } from './change-routes.js';
import { errorResponses, IdParams } from './schemas.js';
import { instantOf } from '../validation.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The instant `since` names, read as the schema's format read it, and no further back than
 * REP_ORDERS_MAX_DAYS (else 400 on the field, as a schema refusal reads).
 */
function repOrdersSince(since: string, now = new Date()): Date {
  const instant = instantOf(since);
  if (instant && instant.getTime() >= now.getTime() - REP_ORDERS_MAX_DAYS * DAY_MS) return instant;
  const message = instant
    ? `must be within the last ${REP_ORDERS_MAX_DAYS} days`
    : 'must be a date-time between 1970 and 9999';
  throw new HttpError(400, `Invalid request: since ${message}`, [{ field: 'since', message }]);
}

export const salesRepRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireSalesRep);

  app.get(
    '/rep/customers',
    { schema: { response: { 200: RepCustomerListSchema, ...errorResponses } } },
    async (request) => ({ customers: await listRepCustomers(db, accountOf(request).user.id) }),
  );

  const change = changeRoutes(app, db);

  change.post(
    '/rep/customers',
    {
      body: bodyOf(RepCustomerFormSchema),
      response: {
        200: RepCustomerRegisteredSchema,
        201: RepCustomerRegisteredSchema,
        ...errorResponses,
      },
    },
    async (tx, { body }, { user }) => {
      const { customer, created } = await registerRepCustomer(tx, user.id, body);
      const message = created
        ? `${customer.name} is registered and waits for verification.`
        : `${customer.name} is already your customer.`;
      return { status: created ? 201 : 200, body: { message, customer } };
    },
  );

  app.get(
    '/rep/customers/:id',
    {
      schema: {
        params: IdParams,
        response: { 200: Type.Object({ customer: RepCustomerSchema }), ...errorResponses },
      },
    },
    async (request) => ({
      customer: await repCustomer(db, accountOf(request).user.id, request.params.id),
    }),
  );

  app.get(
    '/rep/customers/:id/orders',
    {
      schema: {
        params: IdParams,
        response: { 200: Type.Object({ orders: Type.Array(OrderSchema) }), ...errorResponses },
      },
    },
    async (request) => ({
      orders: await listCustomerOrders(db, accountOf(request).user.id, request.params.id),
    }),
  );

  app.get(
    '/rep/orders',
    {
      schema: {
        querystring: RepOrderQuerySchema,
        response: { 200: RepOrderListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orders: await listRepOrdersSince(
        db,
        accountOf(request).user.id,
        repOrdersSince(request.query.since),
      ),
    }),
  );

  change.post(
    '/rep/customers/:id/orders',
    {
      params: IdParams,
      body: RepOrderBodySchema,
      response: {
        201: Type.Object({ message: Type.String(), order: OrderSchema }),
        ...errorResponses,
      },
    },
    async (tx, { params, body }, { user }) => {
      const order = await placeRepOrder(tx, user, params.id, body);
      return {
        status: 201,
        body: { message: `Order ${order.orderNumber} created successfully!`, order },
      };
    },
  );
};

/**
 * A customer's documents, uploaded as the salon uploads its own; registered with the
 * routes that read multipart forms (app.ts).
 */
export const repDocumentRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireSalesRep);

  app.post(
    '/rep/customers/:id/documents',
    { schema: { ...DocumentUploadSchema, params: IdParams } },
    async (request, reply) => {
      const { id } = request.params;
      await requireOwnCustomer(db, accountOf(request).user.id, id);
      return uploadDocuments(db, request, reply, id);
    },
  );
};
