/**
 * /api/admin: the back office (role ADMIN): companies, their documents and orders, and the
 * audit log. Every change goes through `once` (services/idempotency.ts), works in the
 * transaction it is given and records the staff member in the audit log in that same
 * transaction. The log itself is only read here: no route adds, changes or removes an entry.
 */
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
import { ORDER_STATUSES, PAYMENT_STATUSES } from '../../src/contracts/orders.js';
import { listAudit } from '../services/audit.js';
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
import { listAllOrders, moveOrder, setPaymentStatus } from '../services/orders.js';
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
  StaffCreatedSchema,
  StaffCreateSchema,
  StaffListSchema,
  StaffMemberSchema,
  type StaffMember,
} from '../../src/contracts/admin-schemas.js';
import { literals } from '../../src/contracts/literals.js';
import { OrderSchema } from '../../src/contracts/orders-schemas.js';
import { sendDocument } from './companies.js';
import { errorResponses, IdParams, ShortText } from './schemas.js';

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
        querystring: Type.Object(
          { status: Type.Optional(literals(ORDER_STATUSES)) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ orders: Type.Array(OrderSchema) }), ...errorResponses },
      },
    },
    async (request) => ({ orders: await listAllOrders(db, request.query.status) }),
  );

  app.post(
    '/admin/orders/:id/status',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Type.Object({ status: literals(ORDER_STATUSES) }, { additionalProperties: false }),
        response: { 200: Type.Object({ order: OrderSchema }), ...errorResponses },
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          order: await moveOrder(
            tx,
            request.params.id,
            request.body.status,
            accountOf(request).user,
          ),
        },
      })),
  );

  app.post(
    '/admin/orders/:id/payment',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Type.Object(
          { paymentStatus: literals(PAYMENT_STATUSES) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ order: OrderSchema }), ...errorResponses },
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          order: await setPaymentStatus(
            tx,
            request.params.id,
            request.body.paymentStatus,
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
  app.get('/admin/documents/:id/file', { schema: { params: IdParams } }, async (request, reply) =>
    sendDocument(reply, await readDocumentFile(db, request.params.id, null), { inline: true }),
  );
};
