/**
 * JSON schemas of the /api contract's shared shapes (docs/api.md#errors,
 * docs/api.md#catalogue).
 */
import { Type } from '@fastify/type-provider-typebox';

export const ErrorSchema = Type.Object(
  {
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String(),
          message: Type.String(),
          code: Type.Optional(Type.String()),
          params: Type.Optional(
            Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
          ),
        }),
      ),
    ),
    retryAfter: Type.Optional(Type.Integer()),
    code: Type.Optional(Type.String()),
    params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  },
  { $id: 'Error' },
);

export const errorResponses = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  409: ErrorSchema,
  413: ErrorSchema,
  415: ErrorSchema,
  422: ErrorSchema,
  429: ErrorSchema,
};

export const CategorySchema = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
});

export const ProductSchema = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  shortDescription: Type.String(),
  description: Type.String(),
  price: Type.Optional(Type.Number()),
  currency: Type.Literal('EUR'),
  stock: Type.Integer(),
  stockQuantity: Type.Integer(),
  inStock: Type.Boolean(),
  images: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  categoryId: Type.Integer(),
  category: CategorySchema,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  searchText: Type.String(),
  nameKey: Type.String(),
});

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  totalPages: Type.Integer(),
  totalProducts: Type.Integer(),
});
