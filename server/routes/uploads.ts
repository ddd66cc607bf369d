import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { media } from '../db/schema.js';
import { notFound } from '../services/errors.js';

/** Product pictures change rarely and get a new name when they do: a day is safe. */
const UPLOAD_MAX_AGE_SECONDS = 86_400;
/**
 * A picture uploaded by staff is named by a random id and never changes under its name (a
 * new picture is a new name): kept for a year without asking again.
 */
const UPLOADED_PICTURE = /^pic-[0-9a-f]{32}-\d+\.webp$/;
const UPLOADED_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export const uploadRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/uploads/products/:file',
    {
      schema: {
        params: Type.Object({ file: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,120}$' }) }),
      },
    },
    async (request, reply) => {
      const [file] = await db
        .select({ contentType: media.contentType, data: media.data })
        .from(media)
        .where(eq(media.path, `/uploads/products/${request.params.file}`));
      if (!file) throw notFound('File not found');
      return reply
        .type(file.contentType)
        .header(
          'cache-control',
          UPLOADED_PICTURE.test(request.params.file)
            ? UPLOADED_CACHE_CONTROL
            : `public, max-age=${UPLOAD_MAX_AGE_SECONDS}`,
        )
        .send(file.data);
    },
  );
};
