/**
 * /api/admin: the back office (role ADMIN): companies, their documents and orders (list,
 * CSV export, page, status and payment), and the audit log. Every change is a change route
 * (change-routes.ts): it runs once per Idempotency-Key, works in the transaction it is
 * given and records the staff member in the audit log in that same transaction. The log
 * itself is only read here: no route adds, changes or removes an entry.
 */
import { Readable } from 'node:stream';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { requireAdmin } from '../plugins/auth.js';
import {
  companyDetail,
  decideCompany,
  editCompany,
  listCompanyPage,
  removeDocument,
  reviewDocument,
} from '../services/admin.js';
import { listAudit } from '../services/audit.js';
import { dismissBoothDetails } from '../services/booth-details.js';
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
import { changeRoutes } from './change-routes.js';
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
  const change = changeRoutes(app, db);

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

  change.patch(
    '/admin/companies/:id',
    {
      params: IdParams,
      body: AdminCompanyEditSchema,
      response: companyResponse,
    },
    async (tx, { params, body }, { user }) => ({
      status: 200,
      body: {
        company: await editCompany(tx, params.id, body, user),
      },
    }),
  );

  change.put(
    '/admin/companies/:id/sales-rep',
    {
      params: IdParams,
      body: SalesRepAssignSchema,
      response: { 200: SalesRepAssignedSchema, ...errorResponses },
    },
    async (tx, { params, body }, { user }) => ({
      status: 200,
      body: {
        salesRep: await assignSalesRep(tx, params.id, body.salesRepId, user),
      },
    }),
  );

  for (const action of [
    'approve',
    'reject',
    'suspend',
    'reactivate',
  ] as const satisfies CompanyAction[]) {
    change.post(
      `/admin/companies/:id/${action}`,
      {
        params: IdParams,
        body: Type.Optional(
          action === 'reject' || action === 'suspend' ? ReasonBodySchema : noReasonBody,
        ),
        response: companyResponse,
      },
      async (tx, { params, body }, { user }) => ({
        status: 200,
        body: {
          company: await decideCompany(
            tx,
            params.id,
            action,
            (body as { reason?: string } | undefined)?.reason ?? '',
            user,
          ),
        },
      }),
    );
  }

  // Details a rep typed at the booth that staff decide not to apply (services/booth-details.ts).
  change.post(
    '/admin/booth-details/:id/dismiss',
    {
      params: IdParams,
      body: Type.Optional(noReasonBody),
      response: {
        200: Type.Object({
          companyId: Type.Integer(),
          settledAs: Type.Union([Type.Literal('dismissed'), Type.Literal('applied')]),
        }),
        ...errorResponses,
      },
    },
    async (tx, { params }, { user }) => ({
      status: 200,
      body: await dismissBoothDetails(tx, params.id, user),
    }),
  );

  for (const [action, status] of [
    ['approve', 'APPROVED'],
    ['reject', 'REJECTED'],
  ] as const) {
    change.post(
      `/admin/documents/:id/${action}`,
      {
        params: IdParams,
        body: Type.Optional(notesBody),
        response: { 200: Type.Object({ document: CompanyDocumentSchema }), ...errorResponses },
      },
      async (tx, { params, body }, { user }) => ({
        status: 200,
        body: {
          document: await reviewDocument(tx, params.id, status, body?.reviewNotes ?? '', user),
        },
      }),
    );
  }

  // An old or wrong document, so that a company at its document limit can upload again.
  change.delete(
    '/admin/documents/:id',
    {
      params: IdParams,
      response: { 200: Type.Object({ deleted: Type.Integer() }), ...errorResponses },
    },
    async (tx, { params }, { user }) => {
      await removeDocument(tx, params.id, user);
      return { status: 200, body: { deleted: params.id } };
    },
  );

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

  change.post(
    '/admin/orders/:id/status',
    {
      params: IdParams,
      body: AdminOrderStatusBodySchema,
      response: orderChangeResponse,
    },
    async (tx, { params, body }, { user }) => ({
      status: 200,
      body: {
        order: await moveOrder(tx, params.id, body, user),
      },
    }),
  );

  change.post(
    '/admin/orders/:id/payment',
    {
      params: IdParams,
      body: AdminOrderPaymentBodySchema,
      response: orderChangeResponse,
    },
    async (tx, { params, body }, { user }) => ({
      status: 200,
      body: {
        order: await setPaymentStatus(tx, params.id, body, user),
      },
    }),
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
  change.post(
    '/admin/staff',
    {
      body: StaffCreateSchema,
      response: { 201: StaffCreatedSchema, ...errorResponses },
    },
    async (tx, { body }, { user }) => ({
      status: 201,
      body: await createStaff(tx, body, user),
    }),
    { recordAs: withoutPassword },
  );
  change.post(
    '/admin/staff/:id/reset-password',
    {
      params: IdParams,
      body: Type.Optional(noReasonBody),
      response: { 200: StaffCreatedSchema, ...errorResponses },
    },
    async (tx, { params }, { user }) => ({
      status: 200,
      body: await resetStaffPassword(tx, params.id, user),
    }),
    { recordAs: withoutPassword },
  );
  for (const [action, changeStaff] of [
    ['deactivate', deactivateStaff],
    ['reactivate', reactivateStaff],
  ] as const) {
    change.post(
      `/admin/staff/:id/${action}`,
      {
        params: IdParams,
        body: Type.Optional(noReasonBody),
        response: { 200: Type.Object({ member: StaffMemberSchema }), ...errorResponses },
      },
      async (tx, { params }, { user }) => ({
        status: 200,
        body: { member: await changeStaff(tx, params.id, user) },
      }),
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
