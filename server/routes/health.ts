import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ database: Database }> = async (
  app,
  { database },
) => {
  app.get(
    '/health',
    {
      schema: {
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
            time: Type.String({ format: 'date-time' }),
          }),
        },
      },
    },
    async (_request, reply) => {
      await database.db.execute(sql`SELECT 1`);
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const, database: database.engine, time: new Date().toISOString() };
    },
  );
};
