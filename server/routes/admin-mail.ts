/**
 * /api/admin/mail: the back office's outgoing e-mail (role ADMIN), read only: the list of
 * queued messages and one message as it reads (services/mail/outbox.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { requireAdmin } from '../plugins/auth.js';
import { listMail, mailDetail } from '../services/mail/outbox.js';
import {
  AdminMailDetailSchema,
  AdminMailPageSchema,
  AdminMailQuerySchema,
} from '../../src/contracts/admin-mail-schemas.js';
import { errorResponses, IdParams } from './schemas.js';

export const adminMailRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireAdmin);

  app.get(
    '/admin/mail',
    {
      schema: {
        querystring: AdminMailQuerySchema,
        response: { 200: AdminMailPageSchema, ...errorResponses },
      },
    },
    async (request) => listMail(db, request.query),
  );

  app.get(
    '/admin/mail/:id',
    {
      schema: { params: IdParams, response: { 200: AdminMailDetailSchema, ...errorResponses } },
    },
    async (request) => mailDetail(db, request.params.id),
  );
};
