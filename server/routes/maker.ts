import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MakerDetailsSchema, type MakerDetails } from '../../src/contracts/maker-schemas.js';

/**
 * The maker's details for pro-formas (docs/api.md#the-makers-details): public, as on any
 * invoice, and read by devices with the catalogue so that a pro-forma made offline has them.
 */
export const makerRoutes: FastifyPluginAsyncTypebox<{ maker: MakerDetails }> = async (
  app,
  { maker },
) => {
  app.get(
    '/maker',
    {
      schema: { response: { 200: MakerDetailsSchema } },
    },
    async (_request, reply) => {
      // Asked again each time: a change of configuration reaches devices at their next refresh.
      reply.header('cache-control', 'no-cache');
      return maker;
    },
  );
};
