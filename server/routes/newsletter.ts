import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LANGUAGES } from '../../src/contracts/languages.js';
import type { Db } from '../db/database.js';
import { newsletterSubscriptions } from '../db/schema.js';
import { errorResponses } from './schemas.js';

export const newsletterRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/newsletter',
    {
      schema: {
        body: Type.Object(
          {
            email: Type.String({ format: 'email', maxLength: 254 }),
            locale: Type.Union(
              LANGUAGES.map((language) => Type.Literal(language)),
              { default: 'ro' },
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ subscribed: Type.Literal(true) }), ...errorResponses },
      },
    },
    async (request) => {
      // Subscribing twice is not an error: the address is simply on the list.
      await db
        .insert(newsletterSubscriptions)
        .values({ email: request.body.email.trim().toLowerCase(), locale: request.body.locale })
        .onConflictDoNothing();
      return { subscribed: true as const };
    },
  );
};
