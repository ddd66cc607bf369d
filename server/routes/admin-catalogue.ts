/**
 * /api/admin products, pictures and categories: the back office's catalogue (role ADMIN,
 * the same guard as ./admin.ts). Every change goes through `once`, works in its
 * transaction and records the staff member in the audit log in that same transaction
 * (services/admin-catalogue.ts). Registered in a scope of its own that reads multipart
 * forms, for the picture upload.
 */
import { createHash } from 'node:crypto';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { accountOf, requireAdmin } from '../plugins/auth.js';
import {
  addPicture,
  createCategory,
  createProduct,
  deleteProduct,
  editProduct,
  listAdminCategories,
  listProductPage,
  orderCategories,
  orderPictures,
  productDetail,
  removePicture,
  renameCategory,
  setProductActive,
} from '../services/admin-catalogue.js';
import { HttpError } from '../services/errors.js';
import { IdempotencyHeaders, once } from '../services/idempotency.js';
import { makePicture, pictureTooLarge, pictureUnsupported } from '../services/product-pictures.js';
import { clientGone, withUploadSlot } from '../services/upload-gate.js';
import {
  AdminCategoryBodySchema,
  AdminCategorySchema,
  AdminProductEditSchema,
  AdminProductInputSchema,
  AdminProductPageSchema,
  AdminProductQuerySchema,
  AdminProductSchema,
  CategoryOrderSchema,
  PictureOrderSchema,
} from '../../src/contracts/admin-catalogue-schemas.js';
import { ErrorBodySchema, errorResponses, IdParams } from './schemas.js';

const productResponse = { 200: Type.Object({ product: AdminProductSchema }), ...errorResponses };
const createdProduct = { 201: Type.Object({ product: AdminProductSchema }), ...errorResponses };
const categoryResponse = {
  200: Type.Object({ category: AdminCategorySchema }),
  ...errorResponses,
};
const categoriesResponse = {
  200: Type.Object({ categories: Type.Array(AdminCategorySchema) }),
  ...errorResponses,
};
const PictureParams = Type.Object({
  id: IdParams.properties.id,
  file: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,120}$' }),
});

/** Reads the one file of a picture upload; 413 past the limit, 415 for no file. */
async function readPicture(request: Parameters<typeof requireAdmin>[0]): Promise<Buffer> {
  if (!request.isMultipart()) throw new HttpError(415, 'Send the picture as multipart/form-data.');
  let file;
  try {
    file = await request.file();
  } catch {
    throw new HttpError(400, 'The upload was interrupted before the form was complete.');
  }
  if (!file) throw pictureUnsupported();
  try {
    return await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw pictureTooLarge();
    throw new HttpError(400, 'The upload was interrupted before it was complete.');
  }
}

export const adminCatalogueRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireAdmin);

  app.get(
    '/admin/products',
    {
      schema: {
        querystring: AdminProductQuerySchema,
        response: { 200: AdminProductPageSchema, ...errorResponses },
      },
    },
    async (request) => listProductPage(db, request.query),
  );

  app.post(
    '/admin/products',
    {
      schema: {
        headers: IdempotencyHeaders,
        body: AdminProductInputSchema,
        response: createdProduct,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 201,
        body: { product: await createProduct(tx, request.body, accountOf(request).user) },
      })),
  );

  app.get(
    '/admin/products/:id',
    { schema: { params: IdParams, response: productResponse } },
    async (request) => ({ product: await productDetail(db, request.params.id) }),
  );

  app.patch(
    '/admin/products/:id',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: AdminProductEditSchema,
        response: productResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          product: await editProduct(tx, request.params.id, request.body, accountOf(request).user),
        },
      })),
  );

  for (const action of ['activate', 'deactivate'] as const) {
    app.post(
      `/admin/products/:id/${action}`,
      {
        schema: {
          headers: IdempotencyHeaders,
          params: IdParams,
          body: Type.Optional(Type.Object({}, { additionalProperties: false })),
          response: productResponse,
        },
      },
      async (request, reply) =>
        once(db, request, reply, async (tx) => ({
          status: 200,
          body: {
            product: await setProductActive(
              tx,
              request.params.id,
              action === 'activate',
              accountOf(request).user,
            ),
          },
        })),
    );
  }

  app.delete(
    '/admin/products/:id',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        response: { 200: Type.Object({ deleted: Type.Integer() }), ...errorResponses },
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => {
        await deleteProduct(tx, request.params.id, accountOf(request).user);
        return { status: 200, body: { deleted: request.params.id } };
      }),
  );

  app.post(
    '/admin/products/:id/pictures',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        consumes: ['multipart/form-data'],
        response: { ...createdProduct, 503: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const signal = clientGone(reply);
      return withUploadSlot(reply, signal, async () => {
        const data = await readPicture(request);
        // The file's digest stands for the body: the same key with another picture is a 422.
        request.body = { sha256: createHash('sha256').update(data).digest('hex') };
        // Resized before the transaction: its work must not hold the database.
        const picture = await makePicture(data);
        return once(db, request, reply, async (tx) => ({
          status: 201,
          body: {
            product: await addPicture(tx, request.params.id, picture, accountOf(request).user),
          },
        }));
      });
    },
  );

  app.put(
    '/admin/products/:id/pictures',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: PictureOrderSchema,
        response: productResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          product: await orderPictures(
            tx,
            request.params.id,
            request.body.images,
            accountOf(request).user,
          ),
        },
      })),
  );

  app.delete(
    '/admin/products/:id/pictures/:file',
    { schema: { headers: IdempotencyHeaders, params: PictureParams, response: productResponse } },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          product: await removePicture(
            tx,
            request.params.id,
            request.params.file,
            accountOf(request).user,
          ),
        },
      })),
  );

  app.get('/admin/categories', { schema: { response: categoriesResponse } }, async () => ({
    categories: await listAdminCategories(db),
  }));

  app.post(
    '/admin/categories',
    {
      schema: {
        headers: IdempotencyHeaders,
        body: AdminCategoryBodySchema,
        response: { 201: Type.Object({ category: AdminCategorySchema }), ...errorResponses },
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 201,
        body: {
          category: await createCategory(tx, request.body.names, accountOf(request).user),
        },
      })),
  );

  app.patch(
    '/admin/categories/:id',
    {
      schema: {
        headers: IdempotencyHeaders,
        params: IdParams,
        body: AdminCategoryBodySchema,
        response: categoryResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          category: await renameCategory(
            tx,
            request.params.id,
            request.body.names,
            accountOf(request).user,
          ),
        },
      })),
  );

  app.put(
    '/admin/categories/order',
    {
      schema: {
        headers: IdempotencyHeaders,
        body: CategoryOrderSchema,
        response: categoriesResponse,
      },
    },
    async (request, reply) =>
      once(db, request, reply, async (tx) => ({
        status: 200,
        body: {
          categories: await orderCategories(tx, request.body.ids, accountOf(request).user),
        },
      })),
  );
};
