/**
 * /api/admin: the back office (role ADMIN): companies, their documents and orders (list,
 * CSV export, page, status and payment), and the audit log. Every change goes through `once` (services/idempotency.ts), works in the
 * transaction it is given and records the staff member in the audit log in that same
 * transaction. The log itself is only read here: no route adds, changes or removes an entry.
 */
import { Readable } from 'node:stream';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { accountOf, requireAdmin } from '../plugins/auth.js';
import {
  companyDetail,
  decideCompany,
  editCompany,
  listCompanyPage,
  reviewDocument,
} from '../services/admin.js';
import { listAudit } from '../services/audit.js';
import { assignSalesRep } from '../services/sales-reps.js';
import { adminSummary } from '../services/dashboard.js';
import {
  createStaff,
  deactivateStaff,
  listStaff,
  reactivateStaff,
  resetStaffPassword,
} from '../services/staff.js';
import { readDocumentFile } from '../services/documents.js';
import { IdempotencyHeaders, once } from '../services/idempotency.js';
import {
  exportFileName,
  exportOrders,
  listOrderPage,
  moveOrder,
  orderDetail,
  setPaymentStatus,
} from '../services/admin-orders.js';
import { CompanyDocumentSchema, CompanySchema } from '../../src/contracts/accounts-schemas.js';
import type { CompanyAction } from '../../src/contracts/admin.js';
import {
  AdminCompanyDetailSchema,
  AdminCompanyEditSchema,
  AdminCompanyPageSchema,
  AdminCompanyQuerySchema,
  AdminSummarySchema,
  AuditPageSchema,
  AuditQuerySchema,
  MAX_REASON_LENGTH,
  ReasonBodySchema,
  SalesRepAssignedSchema,
  SalesRepAssignSchema,
  StaffCreatedSchema,
  StaffCreateSchema,
  StaffListSchema,
  StaffMemberSchema,
  type StaffMember,
} from '../../src/contracts/admin-schemas.js';
import {
  AdminOrderDetailSchema,
  AdminOrderExportQuerySchema,
  AdminOrderPageSchema,
  AdminOrderPaymentBodySchema,
  AdminOrderQuerySchema,
  AdminOrderStatusBodySchema,
  OrderConflictSchema,
} from '../../src/contracts/admin-orders-schemas.js';
import { OrderSchema } from '../../src/contracts/orders-schemas.js';
import { DocumentFileAnswer, sendDocument } from './companies.js';
import { errorResponses, fileAnswer, IdParams, ShortText } from './schemas.js';

const companyResponse = { 200: Type.Object({ company: CompanySchema }), ...errorResponses };
/** Approving or reactivating clears the reason the salon is shown, so it takes none. */
const noReasonBody = Type.Object({}, { additionalProperties: false });
const notesBody = Type.Object(
  { reviewNotes: Type.Optional(ShortText({ maxLength: MAX_REASON_LENGTH })) },
  { additionalProperties: false },
);

export const adminRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireAdmin);

  app.get(
    '/admin/summary',
    { schema: { response: { 200: AdminSummarySchema, ...errorResponses } } },
    async () => adminSummary(db),
  );

  app.get(
    '/admin/companies',
    {
      schema: {
        querystring: AdminCompanyQuerySchema,
        response: { 200: AdminCompanyPageSchema, ...errorResponses },
      },
    },
    async (request) => listCompanyPage(db, request.query),
  );

  app.get(
    '/admin/companies/:id',
    {
      schema: {
        params: IdParams,
        response: { 200: AdminCompanyDetailSchema, ...errorResponses },
      },
    },
    async (request) => companyDetail(db, request.params.id),
  );

  app.patch(
    '/admin/companies/:id',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: AdminCompanyEditSchema,
        response: companyResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          company: await editCompany(tx, request.params.id, request.body, accountOf(request).user),
        },
      })),
  );

  app.put(
    '/admin/companies/:id/sales-rep',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: SalesRepAssignSchema,
        response: { 200: SalesRepAssignedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          salesRep: await assignSalesRep(
            tx,
            request.params.id,
            request.body.salesRepId,
            accountOf(request).user,
          ),
        },
      })),
  );

  for (const action of [
    'approve',
    'reject',
    'suspend',
    'reactivate',
  ] as const satisfies CompanyAction[]) {
    app.post(
      `/admin/companies/:id/${action}`,
      {
        schema: {
          headers: IdempotencyHeaders,
          params: IdParams,
          body: Type.Optional(
            action === 'reject' || action === 'suspend' ? ReasonBodySchema : noReasonBody,
          ),
          response: companyResponse,
        },
      },
      async (request, reply) =>
        once(db, request, reply, async (tx) => ({
          status: 200,
          body: {
            company: await decideCompany(
              tx,
              request.params.id,
              action,
              (request.body as { reason?: string } | undefined)?.reason ?? '',
              accountOf(request).user,
            ),
          },
        })),
    );
  }

  for (const [action, status] of [
    ['approve', 'APPROVED'],
    ['reject', 'REJECTED'],
  ] as const) {
    app.post(
      `/admin/documents/:id/${action}`,
      {
        schema: {
          headers: IdempotencyHeaders,
          params: IdParams,
          body: Type.Optional(notesBody),
          response: { 200: Type.Object({ document: CompanyDocumentSchema }), ...errorResponses },
        },
      },
      async (request, reply) =>
        once(db, request, reply, async (tx) => ({
          status: 200,
          body: {
            document: await reviewDocument(
              tx,
              request.params.id,
              status,
              request.body?.reviewNotes ?? '',
              accountOf(request).user,
            ),
          },
        })),
    );
  }

  app.get(
    '/admin/orders',
    {
      schema: {
        querystring: AdminOrderQuerySchema,
        response: { 200: AdminOrderPageSchema, ...errorResponses },
      },
    },
    async (request) => listOrderPage(db, request.query),
  );

  // Streamed a batch at a time: every matching order, however many (services/admin-orders.ts).
  app.get(
    '/admin/orders/export.csv',
    {
      schema: {
        querystring: AdminOrderExportQuerySchema,
        response: {
          200: fileAnswer<Readable>('The orders, a line each, after a header line.', ['text/csv']),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const lines = exportOrders(db, request.query);
      // The first batch before the answer starts: a refused filter is still a 4xx JSON.
      const first = await lines.next();
      async function* all() {
        if (!first.done) yield first.value;
        yield* lines;
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName()}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(all()));
    },
  );

  app.get(
    '/admin/orders/:id',
    {
      schema: { params: IdParams, response: { 200: AdminOrderDetailSchema, ...errorResponses } },
    },
    async (request) => orderDetail(db, request.params.id),
  );

  /** A 409 of these routes names the moves allowed (OrderConflictSchema). */
  const orderChangeResponse = {
    200: Type.Object({ order: OrderSchema }),
    ...errorResponses,
    409: OrderConflictSchema,
  };

  app.post(
    '/admin/orders/:id/status',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: AdminOrderStatusBodySchema,
        response: orderChangeResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          order: await moveOrder(tx, request.params.id, request.body, accountOf(request).user),
        },
      })),
  );

  app.post(
    '/admin/orders/:id/payment',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: AdminOrderPaymentBodySchema,
        response: orderChangeResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          order: await setPaymentStatus(
            tx,
            request.params.id,
            request.body,
            accountOf(request).user,
          ),
        },
      })),
  );

  // People: the maker's staff accounts (services/staff.ts). A temporary password is in the
  // answer that made it, never in the recorded answer a repeated request gets.
  const withoutPassword = (body: { member: StaffMember; temporaryPassword: string | null }) => ({
    ...body,
    temporaryPassword: null,
  });
  app.get(
    '/admin/staff',
    { schema: { response: { 200: StaffListSchema, ...errorResponses } } },
    async () => ({ staff: await listStaff(db) }),
  );
  app.post(
    '/admin/staff',
    {
      schema: {
        headers: IdempotencyHeaders,
        body: StaffCreateSchema,
        response: { 201: StaffCreatedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      once(
        db,
        request,
        reply,
        async (tx) => ({
          status: 201,
          body: await createStaff(tx, request.body, accountOf(request).user),
        }),
        { recordAs: withoutPassword },
      ),
  );
  app.post(
    '/admin/staff/:id/reset-password',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Type.Optional(noReasonBody),
        response: { 200: StaffCreatedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      once(
        db,
        request,
        reply,
        async (tx) => ({
          status: 200,
          body: await resetStaffPassword(tx, request.params.id, accountOf(request).user),
        }),
        { recordAs: withoutPassword },
      ),
  );
  for (const [action, change] of [
    ['deactivate', deactivateStaff],
    ['reactivate', reactivateStaff],
  ] as const) {
    app.post(
      `/admin/staff/:id/${action}`,
      {
        schema: {
          headers: IdempotencyHeaders,
          params: IdParams,
          body: Type.Optional(noReasonBody),
          response: { 200: Type.Object({ member: StaffMemberSchema }), ...errorResponses },
        },
      },
      async (request, reply) =>
        once(db, request, reply, async (tx) => ({
          status: 200,
          body: { member: await change(tx, request.params.id, accountOf(request).user) },
        })),
    );
  }

  app.get(
    '/admin/audit',
    {
      schema: {
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errorResponses },
      },
    },
    async (request) => listAudit(db, request.query),
  );

  // Shown in the staff screen: inline, with its real type, sandboxed (sendDocument).
  app.get(
    '/admin/documents/:id/file',
    { schema: { params: IdParams, response: { 200: DocumentFileAnswer, ...errorResponses } } },
    async (request, reply) =>
      sendDocument(reply, await readDocumentFile(db, request.params.id, null), { inline: true }),
  );
};
