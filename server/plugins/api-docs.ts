/**
 * The /api described for programs and people: an OpenAPI 3.1 document built from the
 * routes' own schemas (@fastify/swagger) at GET /api/openapi.json, and a page to read it
 * at /api/docs (Swagger UI, served from its npm package, so it works without a network).
 *
 * The routes' schemas say what is sent and answered; ./api-operations.ts adds what they
 * do not: a summary, a group, who may call and the route's own refusals. Here is added
 * what every route of a kind may answer (docs/api.md#errors): a bad token, an invalid
 * request, an Idempotency-Key still running or reused, a busy database, a fault.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { Type, type TSchema } from 'typebox';
import {
  CompanyDocumentSchema,
  CompanySchema,
  UserSchema,
} from '../../src/contracts/accounts-schemas.js';
import { isTokenFreePath } from '../../src/contracts/accounts.js';
import {
  AdminCategorySchema,
  AdminProductSchema,
} from '../../src/contracts/admin-catalogue-schemas.js';
import { AdminMailRowSchema } from '../../src/contracts/admin-mail-schemas.js';
import {
  AdminOrderEventSchema,
  AdminOrderRowSchema,
  OrderConflictSchema,
} from '../../src/contracts/admin-orders-schemas.js';
import {
  AdminCompanyRowSchema,
  AdminPaginationSchema,
  AuditEntrySchema,
  StaffMemberSchema,
} from '../../src/contracts/admin-schemas.js';
import {
  CategorySchema,
  MirrorLineSchema,
  PaginationSchema,
  ProductSchema,
} from '../../src/contracts/catalogue-schemas.js';
import { ErrorBodySchema } from '../../src/contracts/error-schema.js';
import { RepCustomerSchema, RepOrderSchema } from '../../src/contracts/field-sales-schemas.js';
import { OrderListSchema } from '../../src/contracts/order-lists-schemas.js';
import {
  CartSchema,
  OrderSchema,
  ShippingAddressSchema,
} from '../../src/contracts/orders-schemas.js';
import { SessionSchema } from '../routes/schemas.js';
import { OPERATIONS, TAGS, type Operation, type RefusalStatus } from './api-operations.js';

/** Where the document is served. */
const OPENAPI_PATH = '/api/openapi.json';
/** Where the page that shows it is; Swagger UI's files are under it too. */
const DOCS_PATH = '/api/docs';

/**
 * The page's own policy, in place of the API's `default-src 'none'`: Swagger UI's code and
 * styles from this server only (its components set styles inline), its icons as data:
 * addresses, and "Try it out" calls to this API alone. Nothing may frame it.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The name of the bearer scheme in the document. */
const BEARER = 'bearerAuth';

/**
 * Shapes shown once, under a name, and referred to wherever an answer carries them: the
 * document is read, and weighs, a tenth of what it would with every shape written out.
 */
const NAMED_SHAPES: Record<string, TSchema> = {
  Error: ErrorBodySchema,
  OrderConflict: OrderConflictSchema,
  Session: SessionSchema,
  User: UserSchema,
  Company: CompanySchema,
  CompanyDocument: CompanyDocumentSchema,
  Category: CategorySchema,
  Product: ProductSchema,
  Pagination: PaginationSchema,
  MirrorLine: MirrorLineSchema,
  Cart: CartSchema,
  ShippingAddress: ShippingAddressSchema,
  Order: OrderSchema,
  OrderList: OrderListSchema,
  AdminPagination: AdminPaginationSchema,
  AdminCompanyRow: AdminCompanyRowSchema,
  AuditEntry: AuditEntrySchema,
  StaffMember: StaffMemberSchema,
  AdminOrderRow: AdminOrderRowSchema,
  AdminOrderEvent: AdminOrderEventSchema,
  AdminProduct: AdminProductSchema,
  AdminCategory: AdminCategorySchema,
  AdminMailRow: AdminMailRowSchema,
  RepCustomer: RepCustomerSchema,
  RepOrder: RepOrderSchema,
};

/** The Idempotency-Key header as the idempotency service reads it (docs/api.md#idempotency). */
const IdempotencyKey = Type.String({
  minLength: 8,
  maxLength: 100,
  pattern: '^[A-Za-z0-9_-]+$',
  description:
    'Makes a repeated request count once: the same key with the same request answers the recorded response again (with `Idempotent-Replayed: true`); with another request, 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409 REQUEST_IN_PROGRESS. Kept 30 days, per user.',
});

const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    type: 'string',
    enum: ['true'],
    description: 'Present when this is the recorded response of an earlier request with the key.',
  },
};

const RETRY_AFTER_HEADER = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again.' },
};

type Responses = Record<string, unknown>;

/** What a success says when its schema does not say more. */
const SUCCESS: Record<string, string> = {
  '200': 'OK.',
  '201': 'Created.',
  '202': 'Accepted: what was asked goes on after the answer.',
};

/** The status of a response schema's key, or null for `default`, `2xx` and the like. */
const statusOf = (key: string): number | null => (/^\d{3}$/.test(key) ? Number(key) : null);

/**
 * What every route of its kind may refuse, by status, from what its schema reads and who
 * may call it. The route's own refusals (api-operations.ts) are said after these.
 */
function commonRefusals(
  schema: FastifySchema,
  operation: Operation,
  url: string,
  method: string,
): Map<number, string[]> {
  const refusals = new Map<number, string[]>();
  const add = (status: number, text: string) =>
    refusals.set(status, [...(refusals.get(status) ?? []), text]);
  const idempotent = takesIdempotencyKey(schema);
  const multipart = schema.consumes?.includes('multipart/form-data') ?? false;

  if (schema.body || schema.querystring || schema.params || schema.headers || multipart) {
    add(
      400,
      'The request does not fit its schema: `"Invalid request: <field> <what>"`, with `details` naming the field.',
    );
  }
  if (idempotent) {
    add(
      400,
      'IDEMPOTENCY_KEY_REPEATED: the header sent more than once; a key not of 8–100 of `A–Z a–z 0–9 - _`.',
    );
  }
  if (operation.who === 'everyone') {
    if (!isTokenFreePath(url)) {
      add(
        401,
        '"Your session has expired. Please sign in again.": the bearer token is malformed, past its end or its session ended. Renew it, or call without it.',
      );
    }
  } else {
    add(
      401,
      '"Please sign in to continue." without a bearer token; "Your session has expired. Please sign in again." for one past its end or whose session ended.',
    );
  }
  if (operation.who === 'staff') add(403, '"This area is for staff only."');
  if (operation.who === 'rep') add(403, '"This area is for sales reps only."');
  if (schema.params && !operation.refusals?.[404]) add(404, 'Not found.');
  if (idempotent) {
    add(409, 'REQUEST_IN_PROGRESS: a request with the same Idempotency-Key is still running.');
    add(422, 'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was sent with another request.');
  }
  if (schema.body) {
    add(413, 'The JSON body is over 1 MB.');
    add(415, 'The body is not `application/json`.');
  }
  if (method !== 'GET') {
    add(
      503,
      'BUSY: simultaneous changes of the same rows kept meeting; retry after `retryAfter` seconds.',
    );
  }
  return refusals;
}

function takesIdempotencyKey(schema: FastifySchema): boolean {
  const headers = schema.headers as { properties?: Record<string, unknown> } | undefined;
  return headers?.properties?.['idempotency-key'] !== undefined;
}

/** The route's headers as the document names them: Idempotency-Key described. */
function documentedHeaders(headers: FastifySchema['headers']): FastifySchema['headers'] {
  const shape = headers as { properties?: Record<string, unknown> } | undefined;
  if (!shape?.properties) return headers;
  const properties = Object.fromEntries(
    Object.entries(shape.properties).map(([name, value]) =>
      name === 'idempotency-key' ? ['Idempotency-Key', IdempotencyKey] : [name, value],
    ),
  );
  return { ...shape, properties };
}

/** An error body without its $id: the document names it once, as a component. */
function errorShape(declared: unknown): Record<string, unknown> {
  const { $id: _id, ...shape } = (declared ?? ErrorBodySchema) as Record<string, unknown>;
  return shape;
}

/**
 * The route's answers: its successes as its schema states them, 304 where a copy is
 * revalidated, and every refusal with the error body, its description and codes.
 */
function documentedResponses(
  schema: FastifySchema,
  operation: Operation,
  url: string,
  method: string,
): Responses {
  const declared = (schema.response ?? {}) as Responses;
  const responses: Responses = {};
  const idempotent = takesIdempotencyKey(schema);
  for (const [key, value] of Object.entries(declared)) {
    const status = statusOf(key);
    if (status === null || status >= 400) continue;
    const described = (value as { description?: string }).description !== undefined;
    responses[key] = {
      ...(value as object),
      ...(described ? {} : { 'x-response-description': SUCCESS[key] ?? 'OK.' }),
      ...(idempotent ? { headers: REPLAYED_HEADER } : {}),
    };
  }
  if (operation.revalidated) {
    responses['304'] = {
      type: 'null',
      'x-response-description':
        'Not modified: the `If-None-Match` request header names the caller’s current copy (its `ETag`).',
    };
  }
  const refusals = commonRefusals(schema, operation, url, method);
  for (const [status, text] of Object.entries(operation.refusals ?? {})) {
    const code = Number(status) as RefusalStatus;
    refusals.set(code, [...(refusals.get(code) ?? []), text]);
  }
  refusals.set(500, [
    'A fault: always `{"message": "Something went wrong on our side. Please try again."}`.',
  ]);
  for (const [status, texts] of [...refusals].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      ...errorShape(declared[String(status)]),
      'x-response-description': texts.map((text) => `- ${text}`).join('\n'),
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER_HEADER } : {}),
    };
  }
  return responses;
}

/** Who may call, as security requirements: none, an optional token, or a required one. */
function securityOf(operation: Operation, url: string): NonNullable<FastifySchema['security']> {
  if (isTokenFreePath(url)) return [];
  return operation.who === 'everyone' ? [{}, { [BEARER]: [] }] : [{ [BEARER]: [] }];
}

/** A route's path as OpenAPI writes it: `{id}` for `:id`. */
const documentPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** The key of a route in OPERATIONS. */
const operationKey = (method: string, url: string) => `${method} ${documentPath(url)}`;

/** Whether a route is described: the /api routes, but not the document and its page. */
const isDescribed = (url: string) =>
  url.startsWith('/api/') && url !== OPENAPI_PATH && !url.startsWith(DOCS_PATH);

/**
 * A copy of a JSON schema as @fastify/swagger writes it into an OpenAPI 3.1 document: no
 * $id or $schema, `const` as a one-value `enum`, a record's pattern as
 * `additionalProperties`. Property names are kept as they are.
 */
function asWritten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asWritten);
  if (typeof value !== 'object' || value === null) return value;
  const written: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$id' || key === '$schema') continue;
    if (key === 'const') written.enum = [inner];
    else if (key === 'patternProperties') {
      written.additionalProperties = asWritten(Object.values(inner as object)[0]);
    } else if (key === 'properties') {
      written.properties = Object.fromEntries(
        Object.entries(inner as object).map(([name, property]) => [name, asWritten(property)]),
      );
    } else written[key] = asWritten(inner);
  }
  return written;
}

/** JSON with object keys sorted: one text for one shape, whatever order its keys came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Puts the named shapes under components.schemas and replaces each place that spells one
 * out by a reference to it, from the outside in: an order's address goes with the order,
 * and inside the Order component it refers to ShippingAddress.
 */
function nameShapes(document: Record<string, unknown>): Record<string, unknown> {
  const components = (document.components ?? {}) as Record<string, unknown>;
  const schemas: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const [name, shape] of Object.entries(NAMED_SHAPES)) {
    const written = asWritten(shape);
    schemas[name] = written;
    names.set(canonical(written), name);
  }
  const refer = (value: unknown, isRoot = false): unknown => {
    if (Array.isArray(value)) return value.map((item) => refer(item));
    if (typeof value !== 'object' || value === null) return value;
    const name = isRoot ? undefined : names.get(canonical(value));
    if (name) return { $ref: `#/components/schemas/${name}` };
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, refer(inner)]));
  };
  for (const [name, shape] of Object.entries(schemas)) schemas[name] = refer(shape, true);
  return {
    ...document,
    paths: refer(document.paths),
    components: { ...components, schemas: { ...(components.schemas as object), ...schemas } },
  };
}

/**
 * Marks the request bodies a route may go without as not required (@fastify/swagger
 * marks every body required). `optional` holds "method path" of each such operation.
 */
function markOptionalBodies(
  document: Record<string, unknown>,
  optional: ReadonlySet<string>,
): Record<string, unknown> {
  const paths = document.paths as Record<string, Record<string, { requestBody?: object }>>;
  for (const key of optional) {
    const [method = '', path = ''] = key.split(' ');
    const operation = paths[path]?.[method];
    if (operation?.requestBody)
      operation.requestBody = { ...operation.requestBody, required: false };
  }
  return document;
}

export const apiDocs = fp(async (app) => {
  /** The operations whose body may be left out (TypeBox's Optional around it). */
  const optionalBodies = new Set<string>();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Floravia Professional ordering portal API',
        version: '1',
        description:
          'The /api of the ordering portal: JSON in and out (uploads are multipart/form-data). The guide for people, with the rules behind each answer, is docs/api.md in the repository.',
      },
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The `accessToken` of POST /api/auth/login or /api/auth/refresh, valid 15 minutes and while its session lasts. Without it the caller is a visitor; the server reads no cookie for who is signed in.',
          },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const method = [route.method].flat()[0] ?? 'GET';
      if (!isDescribed(url)) return { schema: { ...schema, hide: true }, url };
      const operation = OPERATIONS[operationKey(method, url)];
      // A route missing from the table is left bare: the OpenAPI test names it.
      if (!operation) return { schema, url };
      if ((schema.body as { '~optional'?: boolean } | undefined)?.['~optional'] === true) {
        optionalBodies.add(`${method.toLowerCase()} ${documentPath(url)}`);
      }
      return {
        url,
        schema: {
          ...schema,
          summary: operation.summary,
          tags: [operation.tag],
          security: securityOf(operation, url),
          ...(schema.headers ? { headers: documentedHeaders(schema.headers) } : {}),
          ...(operation.form ? { body: operation.form } : {}),
          response: documentedResponses(schema, operation, url, method),
        },
      };
    },
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? nameShapes(
            markOptionalBodies(
              documentObject.openapiObject as Record<string, unknown>,
              optionalBodies,
            ),
          )
        : documentObject.swaggerObject,
  });

  // The routes do not change once the server is ready: the document is written out once.
  let documentText: string | undefined;
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
    documentText ??= JSON.stringify(app.swagger());
    return reply.type('application/json; charset=utf-8').send(documentText);
  });

  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: DOCS_CSP,
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    theme: { title: 'Floravia Professional API' },
  });
});
