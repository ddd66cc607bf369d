/**
 * /api/admin products, pictures and categories: the back office's catalogue (role ADMIN,
 * the same guard as ./admin.ts). Every change runs once per Idempotency-Key (a change
 * route, or `once` itself for the picture upload), works in its transaction and records the staff member in the audit log in that same transaction
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
import { changeRoutes } from './change-routes.js';
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
  const change = changeRoutes(app, db);

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

  change.post(
    '/admin/products',
    {
      body: AdminProductInputSchema,
      response: createdProduct,
    },
    async (tx, { body }, { user }) => ({
      status: 201,
      body: { product: await createProduct(tx, body, user) },
    }),
  );

  app.get(
    '/admin/products/:id',
    { schema: { params: IdParams, response: productResponse } },
    async (request) => ({ product: await productDetail(db, request.params.id) }),
  );

  change.patch(
    '/admin/products/:id',
    {
      params: IdParams,
      body: AdminProductEditSchema,
      response: productResponse,
    },
    async (tx, { params, body }, { user }) => ({
      status: 200,
      body: {
        product: await editProduct(tx, params.id, body, user),
      },
    }),
  );

  for (const action of ['activate', 'deactivate'] as const) {
    change.post(
      `/admin/products/:id/${action}`,
      {
        params: IdParams,
        body: Type.Optional(Type.Object({}, { additionalProperties: false })),
        response: productResponse,
      },
      async (tx, { params }, { user }) => ({
        status: 200,
        body: {
          product: await setProductActive(tx, params.id, action === 'activate', user),
        },
      }),
    );
  }

  change.delete(
    '/admin/products/:id',
    {
      params: IdParams,
      response: { 200: Type.Object({ deleted: Type.Integer() }), ...errorResponses },
    },
    async (tx, { params }, { user }) => {
      await deleteProduct(tx, params.id, user);
      return { status: 200, body: { deleted: params.id } };
    },
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

  change.put(
    '/admin/products/:id/pictures',
    {
      params: IdParams,
      body: PictureOrderSchema,
      response: productResponse,
    },
    async (tx, { params, body }, { user }) => ({
      status: 200,
      body: {
        product: await orderPictures(tx, params.id, body.images, user),
      },
    }),
  );

  change.delete(
    '/admin/products/:id/pictures/:file',
    { params: PictureParams, response: productResponse },
    async (tx, { params }, { user }) => ({
      status: 200,
      body: {
        product: await removePicture(tx, params.id, params.file, user),
      },
    }),
  );

  app.get('/admin/categories', { schema: { response: categoriesResponse } }, async () => ({
    categories: await listAdminCategories(db),
  }));

  change.post(
    '/admin/categories',
    {
      body: AdminCategoryBodySchema,
      response: { 201: Type.Object({ category: AdminCategorySchema }), ...errorResponses },
    },
    async (tx, { body }, { user }) => ({
      status: 201,
      body: {
        category: await createCategory(tx, body.names, user),
      },
    }),
  );

  change.patch(
    '/admin/categories/:id',
    {
      params: IdParams,
      body: AdminCategoryBodySchema,
      response: categoryResponse,
    },
    async (tx, { params, body }, { user }) => ({
      status: 200,
      body: {
        category: await renameCategory(tx, params.id, body.names, user),
      },
    }),
  );

  change.put(
    '/admin/categories/order',
    {
      body: CategoryOrderSchema,
      response: categoriesResponse,
    },
    async (tx, { body }, { user }) => ({
      status: 200,
      body: {
        categories: await orderCategories(tx, body.ids, user),
      },
    }),
  );
};
