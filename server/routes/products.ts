import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DEFAULT_SORT,
  MAX_PRODUCTS_LIMIT,
  MAX_SEARCH_LENGTH,
  PRODUCTS_PAGE_SIZE,
  SORT_OPTIONS,
} from '../../src/contracts/catalogue.js';
import type { Db } from '../db/database.js';
import { getProduct, listCategories, listProductIds, listProducts } from '../services/catalogue.js';
import { notFound } from '../services/errors.js';
import { viewerOf } from '../plugins/auth.js';
import { CategorySchema, errorResponses, PaginationSchema, ProductSchema } from './schemas.js';

/** Deepest page a caller may ask for; keeps OFFSET within what a catalogue can have. */
const MAX_PAGE = 100_000;

export const productRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/products',
    {
      schema: {
        querystring: Type.Object(
          {
            page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
            limit: Type.Integer({
              minimum: 1,
              maximum: MAX_PRODUCTS_LIMIT,
              default: PRODUCTS_PAGE_SIZE,
            }),
            search: Type.String({ maxLength: MAX_SEARCH_LENGTH, default: '' }),
            categoryId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
            sortBy: Type.Union(
              SORT_OPTIONS.map((option) => Type.Literal(option)),
              { default: DEFAULT_SORT },
            ),
            updatedSince: Type.Optional(Type.String({ format: 'date-time' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ products: Type.Array(ProductSchema), pagination: PaginationSchema }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { updatedSince, ...query } = request.query;
      return listProducts(
        db,
        { ...query, updatedSince: updatedSince === undefined ? undefined : new Date(updatedSince) },
        viewerOf(request),
      );
    },
  );

  app.get(
    '/products/ids',
    { schema: { response: { 200: Type.Object({ ids: Type.Array(Type.Integer()) }) } } },
    async () => ({ ids: await listProductIds(db) }),
  );

  app.get(
    '/products/categories',
    { schema: { response: { 200: Type.Object({ categories: Type.Array(CategorySchema) }) } } },
    async () => ({ categories: await listCategories(db) }),
  );

  app.get(
    '/products/:id',
    {
      schema: {
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
        response: { 200: Type.Object({ product: ProductSchema }), ...errorResponses },
      },
    },
    async (request) => {
      const product = await getProduct(db, request.params.id, viewerOf(request));
      if (!product) throw notFound('Product not found');
      return { product };
    },
  );
};
