import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DEFAULT_SORT,
  MAX_PRODUCTS_LIMIT,
  MAX_SEARCH_LENGTH,
  MIRROR_CONTENT_TYPE,
  PRODUCTS_PAGE_SIZE,
  SORT_OPTIONS,
  type MirrorLine,
} from '../../src/contracts/catalogue.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import {
  createCatalogueCache,
  createMirrorCache,
  encodingFor,
  matchesEtag,
  type CachedAnswer,
} from '../services/catalogue-cache.js';
import {
  getProduct,
  listCategories,
  listProductIds,
  listProducts,
  mirrorCatalogue,
} from '../services/catalogue.js';
import { HttpError, notFound } from '../services/errors.js';
import { viewerOf } from '../plugins/auth.js';
import { instantOf } from '../validation.js';
import {
  CategorySchema,
  MirrorLineSchema,
  ProductPageSchema,
  ProductSchema,
} from '../../src/contracts/catalogue-schemas.js';
import { errorResponses } from './schemas.js';

/** Deepest page a caller may ask for; keeps OFFSET within what a catalogue can have. */
const MAX_PAGE = 100_000;

/**
 * The instant `updatedSince` names, read as the schema's format read it: `new Date` reads
 * some texts the format accepts differently or not at all (then PostgreSQL failed).
 */
function sinceOf(updatedSince: string | undefined): Date | undefined {
  if (updatedSince === undefined) return undefined;
  const instant = instantOf(updatedSince);
  if (instant) return instant;
  const message = 'must be a date-time between 1970 and 9999';
  throw new HttpError(400, `Invalid request: updatedSince ${message}`, [
    { field: 'updatedSince', message },
  ]);
}

/**
 * The mirror's answer, one JSON value per line; the first line is read before answering.
 * `keep` gets the whole text once the last line is sent (never for an answer cut short).
 */
async function* ndjson(
  lines: AsyncGenerator<MirrorLine>,
  first: MirrorLine | undefined,
  keep?: (text: string) => void,
) {
  const sent: string[] = [];
  for await (const line of first ? prepend(first, lines) : lines) {
    const text = `${JSON.stringify(line)}\n`;
    if (keep) sent.push(text);
    yield text;
  }
  keep?.(sent.join(''));
}

async function* prepend<T>(first: T, rest: AsyncGenerator<T>) {
  yield first;
  yield* rest;
}

/**
 * Routes answered by sendCatalogue choose their encoding themselves (a kept answer is
 * compressed once, with its own ETag): the compression plugin must not encode them again
 * under another ETag's name, e.g. with deflate for a caller taking neither br nor gzip.
 */
const OWN_ENCODING = { compress: false } as const;

/** 304: the caller's copy, named by its ETag, is still the answer. */
const notModified = (reply: FastifyReply) => reply.status(304).send();

/** The query of the product list: a page of a search, a category, a sort. */
const ListQuery = Type.Object(
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
);

/** The list query's fields in one order, so that one query has one key however it was written. */
const LIST_FIELDS = Object.keys(ListQuery.properties).sort();

/** The cache key of a list query, as read with its defaults: every field it has, in order. */
function listKey(query: Record<string, string | number | undefined>): string {
  let key = '/products?';
  for (const name of LIST_FIELDS) {
    const value = query[name];
    if (value !== undefined) {
      key += `${name}=${typeof value === 'string' ? encodeURIComponent(value) : String(value)}&`;
    }
  }
  return key;
}

export const productRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const cache = createCatalogueCache();
  const mirrors = createMirrorCache();

  /** Sends a kept answer, or 304 when the caller holds it already. */
  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: CachedAnswer,
    priced: boolean,
  ) {
    const encoding = encodingFor(request.headers['accept-encoding'], answer.body.length);
    const { bytes, etag } = answer.encoded(encoding);
    reply.headers({
      vary: 'authorization, accept-encoding',
      'cache-control': priced ? 'private, no-store' : 'no-cache',
      etag,
    });
    if (matchesEtag(request.headers['if-none-match'], etag)) return notModified(reply);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.type('application/json; charset=utf-8').send(bytes);
  }

  /**
   * Sends a catalogue answer from the process's cache (computed when the catalogue changed),
   * or 304 when the caller holds it already. A visitor's answer may be kept by the browser
   * and revalidated; a priced one is never kept, so no price outlives a session.
   *
   * A kept answer at versions already known goes at once, without a promise: that is
   * nearly every request. Otherwise the versions are read (and the answer computed) first,
   * and a failure goes to the error handler as a thrown one would.
   */
  function sendCatalogue(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    compute: () => Promise<unknown>,
  ): void {
    const priced = viewerOf(request).canSeePrices;
    const known = request.knownVersions();
    const kept = known ? cache.kept(known.catalogue, key, priced) : undefined;
    if (kept) {
      send(request, reply, kept, priced);
      return;
    }
    request
      .versions()
      .then(({ catalogue }) =>
        cache.answer(catalogue, key, priced, async () => {
          const text = reply.serialize(await compute());
          // The route's serializer, compiled from its response schema, gives text.
          if (typeof text !== 'string') throw new TypeError('the serializer did not give text');
          return text;
        }),
      )
      .then((answer) => send(request, reply, answer, priced))
      .catch((error: unknown) =>
        reply.send(error instanceof Error ? error : new Error(String(error))),
      );
  }

  app.get(
    '/products',
    {
      ...OWN_ENCODING,
      schema: {
        querystring: ListQuery,
        response: {
          200: ProductPageSchema,
          ...errorResponses,
        },
      },
    },
    (request, reply) => {
      sendCatalogue(request, reply, listKey(request.query), () => {
        // Only when the answer is computed: a kept one needs nothing of this.
        const { updatedSince, ...query } = request.query;
        return listProducts(
          db,
          { ...query, updatedSince: sinceOf(updatedSince) },
          viewerOf(request),
        );
      });
    },
  );

  // The whole catalogue in one streamed answer, for the device's mirror (see MirrorLine).
  app.get(
    '/products/mirror',
    {
      // Compressed like every other JSON answer (NDJSON is not on the plugin's default list),
      // and flushed after each line so that the device can write a batch while the next
      // one is on its way, instead of waiting for the compressor to fill.
      compress: {
        customTypes: /^application\/(x-)?ndjson(;|$)/u,
        brotliOptions: { flush: zlib.constants.BROTLI_OPERATION_FLUSH },
        zlibOptions: { flush: zlib.constants.Z_SYNC_FLUSH },
      },
      schema: {
        querystring: Type.Object(
          { updatedSince: Type.Optional(Type.String({ format: 'date-time' })) },
          { additionalProperties: false },
        ),
        response: {
          200: {
            // Described for readers of the schema: a stream skips serialization.
            description: 'One MirrorLine per line: categories, product batches, then end.',
            content: { [MIRROR_CONTENT_TYPE]: { schema: MirrorLineSchema } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { updatedSince } = request.query;
      // The catalogue as one class of viewer sees it at one version. A device holding an
      // answer with this tag has the catalogue up to this version, whatever cursor it asks
      // with now: while the version stands, there is nothing newer to send.
      const since = sinceOf(updatedSince);
      const { catalogue } = await request.versions();
      const priced = viewerOf(request).canSeePrices;
      const etag = `"${catalogue}-${priced ? 'p' : 'v'}"`;
      reply
        .header('etag', etag)
        .header('vary', 'authorization, accept-encoding')
        .header('cache-control', 'no-store');
      if (matchesEtag(request.headers['if-none-match'], etag)) return notModified(reply);
      reply.type(MIRROR_CONTENT_TYPE);
      // The whole catalogue, as computed for an earlier device while the version stands.
      const kept = since === undefined ? mirrors.kept(catalogue, priced) : undefined;
      if (kept) {
        const encoding = encodingFor(request.headers['accept-encoding'], kept.size);
        if (encoding !== 'identity') reply.header('content-encoding', encoding);
        // Bytes of the lines the schema describes: Fastify's types know only whole bodies.
        return reply.send((await kept.encoded(encoding)) as unknown as MirrorLine);
      }
      const lines = mirrorCatalogue(db, { updatedSince: since }, viewerOf(request));
      // A database failure before anything was sent is still an ordinary JSON error.
      const first = await lines.next();
      // Computed after the version was read: a product changed meanwhile moved the version
      // on, and an answer kept under an older version is never sent.
      const keep =
        since === undefined ? (text: string) => mirrors.keep(catalogue, priced, text) : undefined;
      // Bytes, not objects: the stream reads at most one line ahead of a slow device.
      const body = Readable.from(ndjson(lines, first.done ? undefined : first.value, keep), {
        objectMode: false,
      });
      // A stream of the lines the schema describes: Fastify's types know only whole bodies.
      return reply.send(body as unknown as MirrorLine);
    },
  );

  app.get(
    '/products/ids',
    {
      ...OWN_ENCODING,
      schema: { response: { 200: Type.Object({ ids: Type.Array(Type.Integer()) }) } },
    },
    (request, reply) =>
      sendCatalogue(request, reply, '/products/ids', async () => ({
        ids: await listProductIds(db),
      })),
  );

  app.get(
    '/products/categories',
    {
      ...OWN_ENCODING,
      schema: { response: { 200: Type.Object({ categories: Type.Array(CategorySchema) }) } },
    },
    (request, reply) =>
      sendCatalogue(request, reply, '/products/categories', async () => ({
        categories: await listCategories(db),
      })),
  );

  app.get(
    '/products/:id',
    {
      ...OWN_ENCODING,
      schema: {
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
        response: { 200: Type.Object({ product: ProductSchema }), ...errorResponses },
      },
    },
    (request, reply) =>
      sendCatalogue(request, reply, `/products/${request.params.id}`, async () => {
        const product = await getProduct(db, request.params.id, viewerOf(request));
        if (!product) throw notFound('Product not found');
        return { product };
      }),
  );
};
