/**
 * How answers are written as JSON: each response schema compiled once per process by
 * fast-json-stringify (as Fastify does by default), however many routes and servers use it.
 *
 * Most routes share their error schemas (routes/schemas.ts) and many their answers' shapes;
 * Fastify's default compiles every route's every status code again, in each server built,
 * which was most of the time a server took to start (half a second on 2 cores).
 *
 * Each schema is whole: the app adds no shared schemas (`app.addSchema`) for a `$ref` to
 * name, so none are passed on (a `$ref` to one would fail as the server starts).
 */
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

type Serializer = (data: unknown) => string;

/** Compiled serializers, by the schema object they were compiled from. */
const compiled = new WeakMap<object, Serializer>();

/** Fastify's serializer compiler, with the compiled serializers kept by schema. */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const key = schema as object;
  let serializer = compiled.get(key);
  if (!serializer) {
    serializer = fastJsonStringify(key) as Serializer;
    compiled.set(key, serializer);
  }
  return serializer;
};
