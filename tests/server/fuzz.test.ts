/**
 * Property-based fuzzing of every route the app registers: malformed bodies, path
 * parameters, query strings and headers derived from each route's own schema, arbitrary
 * JSON and raw bytes. Whatever arrives, the answer is never a 5xx, an error is JSON with a
 * message, and no answer shows a stack trace, SQL or a file of the server. Input the schema
 * refuses must be answered with a 4xx.
 */
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, registeredRoutes, type RegisteredRoute } from '../../server/app';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany, ensureAdmin } from '../../server/services/admin';
import { users } from '../../server/db/schema';
import { DOCUMENT_FIELDS } from '../../src/contracts/accounts';
import {
  bearer,
  JPEG,
  multipart,
  PDF,
  personPayload,
  PNG,
  signIn,
  wizardFields,
  type Tokens,
} from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * Requests per route: enough for every kind of malformed input to come up several times
 * per part, few enough that the file stays within a minute per engine on two shared cores.
 */
const RUNS_PER_ROUTE = 240;

/** Time one route may take, shrinking a failure included, so that one slow route cannot eat the budget. */
const TIME_LIMIT_PER_ROUTE_MS = 4_000;

/**
 * Time all the JSON routes may take together, within the test's 180 s: on a loaded machine
 * each route gets its share, so that more routes never make the test run out of time.
 */
const JSON_ROUTES_BUDGET_MS = 150_000;

/** Routes that read multipart bodies themselves, without a body schema. */
const MULTIPART_ROUTES = new Set([
  'POST /api/auth/register-company',
  'POST /api/companies/me/documents',
]);

/** An id no row has, within the range every id schema accepts. */
const MISSING_ID = 2_000_000_000;

/** What betrays the server's insides in an answer: a stack frame, SQL, a source file. */
const LEAK_MARKERS = [
  '    at ',
  'select ',
  'insert ',
  'update ',
  'from "',
  '/work/',
  'node_modules',
  '.ts:',
];

/** The values this API's schemas enumerate. */
type Literal = string | number | boolean | null;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
  enum?: Literal[];
  const?: Literal;
  anyOf?: JsonSchema[];
  default?: unknown;
  items?: JsonSchema;
  '~optional'?: boolean;
}

/** A request, and whether its schema refuses it (then only a 4xx will do). */
interface Attempt {
  invalid: boolean;
  /** What was changed, for the failure report. */
  note: string;
  params?: Record<string, string>;
  query?: string;
  body?: { text: string | Buffer; contentType: string } | 'none';
  headers?: Record<string, string>;
}

/** A JSON text JSON.stringify cannot write: numbers out of double range, deep nesting. */
class RawJson {
  constructor(readonly text: string) {}
}

const RAW_MARK = '\u0001raw\u0001';

/** JSON text of `value`, with every RawJson written as it is. */
function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `${RAW_MARK}${raws.length - 1}`;
    }
    return item;
  });
  return (text ?? 'null').replace(
    /"\\u0001raw\\u0001(\d+)"/g,
    (_all, index: string) => raws[Number(index)] ?? 'null',
  );
}

const typesOf = (schema: JsonSchema): string[] => {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.const !== undefined)
    return [typeof schema.const === 'number' ? 'integer' : typeof schema.const];
  return [schema.type ?? []].flat();
};

/**
 * Texts the services' own rules accept, by field name, so that odd input gets past them to
 * the database. No password is the test accounts' own.
 */
const EXAMPLE_TEXTS: Record<string, string> = {
  email: 'fuzz@example.com',
  companyEmail: 'office@example.com',
  password: 'Fuzz-Pass-1',
  newPassword: 'Fuzz-Pass-2',
  currentPassword: 'Fuzz-Pass-3',
  phone: '+40 264 555 010',
  companyPhone: '+40 264 555 010',
  website: 'https://example.com',
  country: 'Romania',
};

/** A value the schema accepts, as plain as possible: ids name no row. */
function validSample(schema: JsonSchema, name = ''): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf?.[0]) return validSample(schema.anyOf[0]);
  switch (typesOf(schema)[0]) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((field) => [
          field,
          validSample(schema.properties?.[field] ?? {}, field),
        ]),
      );
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'date-time') return '2020-01-01T00:00:00.000Z';
      if (schema.pattern) return 'missing.png';
      if (EXAMPLE_TEXTS[name] !== undefined) return EXAMPLE_TEXTS[name];
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      if ((schema.maximum ?? Infinity) >= MISSING_ID) return MISSING_ID;
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return null;
  }
}

/** Texts with a NUL somewhere. */
const withNul = fc
  .tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }))
  .map(([before, after]) => `${before}\u0000${after}`);

/** Text of every sort: any code point (lone surrogates included), graphemes, controls. */
const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '\u202egnp.exe',
    'a\u200bb',
    'e\u0301',
    '𝄞𝄞',
    '\ufeffBOM',
    '\uffff',
    '\ud800',
    '\udfff',
    '😀',
    'ｆｕｌｌ',
    '\u0085\u2028\u2029',
    '\\',
    "'; --",
  ),
);

/** Numbers written the ways a query string must not carry an integer. */
const BAD_NUMERALS = [
  '0x10',
  '1e3',
  '-0',
  '+5',
  ' 5',
  '5 ',
  'Infinity',
  '-Infinity',
  '1e400',
  'NaN',
  '5.0',
  '',
  'abc',
  '1_000',
  '٣',
  '５',
  '9'.repeat(30),
  '0b11',
  '1,5',
];

const BAD_DATE_TIMES = [
  '0000-01-01T00:00:00Z',
  '2016-12-31T23:59:60Z',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59-01:00',
  '2020-13-01T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2020-01-01T00:00:00',
  '2020-01-01',
  '+275760-09-13T00:00:00Z',
  '2020-01-01T00:00:00+01',
  '2020-01-01T00:00:00+0100',
  'yesterday',
  '',
];

/** Nested arrays or objects, deeper than any form. */
const deeplyNested = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)
      : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );

/** Values a body property of `schema` must refuse. */
function invalidBodyValues(schema: JsonSchema): fc.Arbitrary<unknown> {
  const types = typesOf(schema);
  const options: fc.Arbitrary<unknown>[] = [deeplyNested];
  const enumerated = schema.enum ?? schema.anyOf?.map((member) => member.const);
  if (enumerated && enumerated.every((value) => value !== undefined)) {
    options.push(
      fc.constantFrom('', 'x', 1, null, [enumerated[0]], String(enumerated[0]).toLowerCase() + ' '),
    );
  }
  if (types.includes('string')) {
    options.push(
      fc.constantFrom(1, 0, -1, true, false, null, [], ['x'], {}, { value: 'x' }),
      withNul,
    );
    if (schema.maxLength !== undefined) {
      const longest = schema.maxLength;
      options.push(
        fc
          .tuple(
            fc.integer({ min: longest + 1, max: longest + 64 }),
            fc.constantFrom('x', '𝄞', 'ă'),
          )
          .map(([length, unit]) => unit.repeat(length)),
      );
    }
    if (schema.minLength) options.push(fc.constant(''));
    if (schema.format === 'email')
      options.push(fc.constantFrom('not-an-email', 'a@', '@b.ro', 'a b@c.ro'));
    if (schema.format === 'date-time') options.push(fc.constantFrom(...BAD_DATE_TIMES));
  }
  if (types.includes('integer') || types.includes('number')) {
    const bounds = [
      schema.minimum === undefined ? [] : [schema.minimum - 1],
      schema.maximum === undefined ? [] : [schema.maximum + 1],
    ].flat();
    options.push(
      fc.constantFrom(
        '1',
        '0x10',
        true,
        null,
        [],
        [1],
        {},
        '',
        ...bounds,
        ...(types.includes('integer') ? [1.5, 2 ** 53 + 2] : []),
        new RawJson('1e400'),
        new RawJson('-1e400'),
        new RawJson('NaN'),
        new RawJson('Infinity'),
        new RawJson('0x10'),
      ),
    );
  }
  if (types.includes('boolean')) options.push(fc.constantFrom('true', 'false', 1, 0, null, [], {}));
  if (types.includes('object')) options.push(fc.constantFrom(null, [], 'x', 1, true));
  return fc.oneof(...options);
}

/** Keys a schema does not know, for bodies and queries that refuse unknown fields. */
const unknownKey = (known: Record<string, unknown>) =>
  fc
    .oneof(
      fc.string({ maxLength: 16 }),
      fc.constantFrom('__proto__', 'constructor', 'prototype', '\u0000', '$where'),
    )
    .filter((key) => !Object.hasOwn(known, key));

/** Malformed versions of an object `schema`, each with what was changed. */
function invalidObjects(
  schema: JsonSchema,
  path = '',
): fc.Arbitrary<{ value: unknown; note: string }> {
  const base = validSample(schema) as Record<string, unknown>;
  const properties = schema.properties ?? {};
  const options: fc.Arbitrary<{ value: unknown; note: string }>[] = [
    fc
      .constantFrom<unknown>(null, [], 'x', 1, true, [base], new RawJson('1e400'))
      .map((value) => ({ value, note: `${path || 'body'} replaced by ${jsonText(value)}` })),
    deeplyNested.map((value) => ({ value, note: `${path || 'body'} deeply nested` })),
  ];
  for (const [name, property] of Object.entries(properties)) {
    options.push(
      invalidBodyValues(property).map((value) => ({
        value: { ...base, [name]: value },
        note: `${path}${name} = ${jsonText(value).slice(0, 80)}`,
      })),
    );
    if (typesOf(property).includes('object') && property.properties) {
      options.push(
        invalidObjects(property, `${path}${name}.`).map(({ value, note }) => ({
          value: { ...base, [name]: value },
          note,
        })),
      );
    }
  }
  // A missing field with a default is filled in, not refused.
  for (const name of (schema.required ?? []).filter(
    (required) => properties[required]?.default === undefined,
  )) {
    const rest = { ...base };
    delete rest[name];
    options.push(fc.constant({ value: rest, note: `${path}${name} missing` }));
  }
  if (schema.additionalProperties === false) {
    options.push(
      fc.tuple(unknownKey(properties), fc.jsonValue({ maxDepth: 2 })).map(([key, extra]) => {
        const value = { ...base };
        // Defined, not assigned: `__proto__` must become a field of the body, not its prototype.
        Object.defineProperty(value, key, {
          value: extra,
          enumerable: true,
          configurable: true,
          writable: true,
        });
        return { value, note: `${path}unknown field ${JSON.stringify(key)}` };
      }),
    );
  }
  return fc.oneof(...options);
}

/** Values that are fine for the schema's type but odd: weird text where text is expected. */
function oddObjects(schema: JsonSchema): fc.Arbitrary<{ value: unknown; note: string }> {
  const base = validSample(schema) as Record<string, unknown>;
  const texts = Object.entries(schema.properties ?? {}).filter(
    ([, property]) => typesOf(property).includes('string') && !property.format && !property.enum,
  );
  const options: fc.Arbitrary<{ value: unknown; note: string }>[] = [
    fc
      .jsonValue()
      .map((value) => ({ value, note: `arbitrary JSON ${jsonText(value).slice(0, 80)}` })),
  ];
  for (const [name, property] of texts) {
    options.push(
      oddText
        .filter((text) => text.length <= (property.maxLength ?? Infinity))
        .map((text) => ({
          value: { ...base, [name]: text },
          note: `${name} = ${JSON.stringify(text)}`,
        })),
    );
  }
  return fc.oneof(...options);
}

const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate: sent as the bytes a careless client would send.
    return '%ED%A0%80';
  }
};

const queryText = (query: Record<string, string | string[]>) =>
  Object.entries(query)
    .flatMap(([name, value]) => [value].flat().map((item) => `${encode(name)}=${encode(item)}`))
    .join('&');

/** Values a query or path parameter of `schema` must refuse, as text. */
function invalidTexts(schema: JsonSchema): fc.Arbitrary<string> {
  const types = typesOf(schema);
  const options: fc.Arbitrary<string>[] = [withNul];
  if (types.includes('integer') || types.includes('number')) {
    const bounds = [
      schema.minimum === undefined ? [] : [String(schema.minimum - 1)],
      schema.maximum === undefined ? [] : [String(schema.maximum + 1)],
    ].flat();
    options.push(fc.constantFrom(...BAD_NUMERALS, ...bounds));
  } else {
    if (schema.maxLength !== undefined) options.push(fc.constant('x'.repeat(schema.maxLength + 1)));
    if (schema.format === 'date-time') options.push(fc.constantFrom(...BAD_DATE_TIMES));
    if (schema.pattern)
      options.push(fc.constantFrom('.hidden', 'A.PNG', '..', '-x', 'a'.repeat(130)));
    const enumerated = schema.enum ?? schema.anyOf?.map((member) => member.const);
    if (enumerated) {
      options.push(
        fc
          .constantFrom('', 'x', ...enumerated.map((value) => String(value).toLowerCase()))
          .filter((text) => !enumerated.includes(text)),
      );
    }
  }
  return fc.oneof(...options);
}

/** Every kind of attempt at one route, invalid and odd, for each part it has a schema for. */
function attemptsFor(route: RegisteredRoute): fc.Arbitrary<Attempt> {
  const schema = (route.schema ?? {}) as Record<string, JsonSchema | undefined>;
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
  const paramSchema = schema.params?.properties ?? {};
  const validParams = Object.fromEntries(
    paramNames.map((name) => [
      name,
      String(validSample(paramSchema[name] ?? { type: 'string', pattern: '.' })),
    ]),
  );
  const querySchema = schema.querystring;
  const validQuery = querySchema ? (validSample(querySchema) as Record<string, string>) : {};
  const bodySchema = schema.body;
  const hasBody = route.method !== 'GET';
  const validBody: Attempt['body'] =
    bodySchema && !bodySchema['~optional']
      ? { text: jsonText(validSample(bodySchema)), contentType: 'application/json' }
      : 'none';
  const base = { params: validParams, query: queryText(validQuery), body: validBody };
  const options: fc.Arbitrary<Attempt>[] = [];

  // Path parameters.
  for (const name of paramNames) {
    const property = paramSchema[name] ?? {};
    options.push(
      invalidTexts(property).map((text) => ({
        ...base,
        invalid: true,
        note: `param ${name} = ${JSON.stringify(text)}`,
        params: { ...validParams, [name]: text },
      })),
      oddText.map((text) => ({
        ...base,
        invalid: false,
        note: `param ${name} = ${JSON.stringify(text)}`,
        params: { ...validParams, [name]: text },
      })),
    );
  }

  // Query strings.
  if (querySchema?.properties) {
    for (const [name, property] of Object.entries(querySchema.properties)) {
      options.push(
        invalidTexts(property).map((text) => ({
          ...base,
          invalid: true,
          note: `query ${name} = ${JSON.stringify(text)}`,
          query: queryText({ ...validQuery, [name]: text }),
        })),
        oddText.map((text) => ({
          ...base,
          invalid: false,
          note: `query ${name} = ${JSON.stringify(text)}`,
          query: queryText({ ...validQuery, [name]: text }),
        })),
        fc.constant({
          ...base,
          invalid: true,
          note: `query ${name} repeated`,
          query: queryText({
            ...validQuery,
            [name]: [String(validSample(property)), String(validSample(property))],
          }),
        }),
      );
    }
    if (querySchema.additionalProperties === false) {
      options.push(
        unknownKey(querySchema.properties)
          .filter((key) => key !== '' && !key.includes('\u0000'))
          .map((key) => ({
            ...base,
            invalid: true,
            note: `query unknown ${JSON.stringify(key)}`,
            query: queryText({ ...validQuery, [key]: '1' }),
          })),
      );
    }
  }
  // Any query at all, on every route: raw, badly encoded or arbitrary.
  options.push(
    fc
      .oneof(
        fc.constantFrom(
          '%',
          '%zz',
          '%C0%80',
          '%E0%A4%A',
          '%FF',
          '&&&',
          '=',
          '=&=',
          'a[b]=1',
          'a[]=1&a[]=2',
          '__proto__[x]=1',
        ),
        fc.string({ unit: 'binary-ascii', maxLength: 40 }),
        fc
          .dictionary(fc.string({ maxLength: 8 }), oddText, { maxKeys: 3 })
          .map((query) => queryText(query)),
      )
      .map((query) => ({ ...base, invalid: false, note: `query ${JSON.stringify(query)}`, query })),
  );

  // Headers.
  const headerProperties = schema.headers?.properties ?? {};
  for (const [name, property] of Object.entries(headerProperties)) {
    if (property.maxLength !== undefined) {
      options.push(
        fc
          .integer({ min: property.maxLength + 1, max: property.maxLength + 200 })
          .map((length) => ({
            ...base,
            invalid: true,
            note: `header ${name} of ${length} characters`,
            headers: { [name]: 'k'.repeat(length) },
          })),
      );
    }
    options.push(
      fc
        .string({ unit: 'binary-ascii', maxLength: 40 })
        .filter((text) => /^[\x20-\x7e]*$/.test(text))
        .map((text) => ({
          ...base,
          invalid: false,
          note: `header ${name} = ${JSON.stringify(text)}`,
          headers: { [name]: text },
        })),
    );
  }

  // Bodies.
  if (hasBody) {
    if (bodySchema) {
      options.push(
        invalidObjects(bodySchema).map(({ value, note }) => ({
          ...base,
          invalid: true,
          note: `body ${note}`,
          body: { text: jsonText(value), contentType: 'application/json' },
        })),
        oddObjects(bodySchema).map(({ value, note }) => ({
          ...base,
          invalid: false,
          note: `body ${note}`,
          body: { text: jsonText(value), contentType: 'application/json' },
        })),
      );
    }
    options.push(
      fc
        .tuple(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 60 }),
            fc.constantFrom(
              '',
              '{',
              '{"a":',
              '[1,]',
              "{'a':1}",
              '{"__proto__":{"x":1}}',
              '\ufeff{}',
              'null',
              '"\\ud800"',
              '{"a":"\\u0000"}',
            ),
          ),
          fc.constantFrom(
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
            'application/xml',
          ),
        )
        .map(([text, contentType]) => ({
          ...base,
          invalid:
            bodySchema !== undefined &&
            contentType.startsWith('application/json') &&
            !parsesAsJson(text),
          note: `raw ${contentType} body ${JSON.stringify(text.slice(0, 60))}`,
          body: { text, contentType },
        })),
    );
  }
  return fc.oneof(...options);
}

/** As the server's JSON parser reads a body: a leading byte order mark is skipped. */
function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\ufeff/, ''));
    return true;
  } catch {
    return false;
  }
}

/** Names of uploaded files: odd, overlong, with NUL or a path. */
const fileName = fc.oneof(
  withNul.map((name) => `${name}.pdf`),
  oddText.map((name) => `${name}.pdf`),
  fc.constantFrom('../../etc/passwd', 'C:\\boot.ini', '.pdf', '', 'x'.repeat(300) + '.pdf'),
);

/** A file part under a document field (or an unknown one), with any declared type and content. */
const filePart = fc.record({
  field: fc.oneof(fc.constantFrom(...Object.keys(DOCUMENT_FIELDS)), fc.constant('document')),
  filename: fileName,
  contentType: fc.constantFrom('application/pdf', 'image/png', 'image/jpeg', 'text/html', ''),
  data: fc.oneof(
    fc.constantFrom(PDF, PNG, JPEG, Buffer.alloc(0)),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  ),
});

/**
 * Raw bytes and well-formed multipart bodies for the routes that read their parts
 * themselves: a complete registration with one field made odd, files with odd names.
 */
function multipartAttempts(route: RegisteredRoute): fc.Arbitrary<Attempt> {
  const raw = fc
    .tuple(
      fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.uint8Array({ maxLength: 300 })),
      fc.constantFrom(
        'multipart/form-data; boundary=x',
        'multipart/form-data',
        'multipart/form-data; boundary=',
      ),
    )
    .map(([bytes, contentType]) => ({
      invalid: true,
      note: `raw multipart ${contentType} ${JSON.stringify(typeof bytes === 'string' ? bytes.slice(0, 60) : `${bytes.length} bytes`)}`,
      body: { text: typeof bytes === 'string' ? bytes : Buffer.from(bytes), contentType },
    }));
  const form = route.url.endsWith('/register-company') ? wizardFields() : {};
  const fieldNames = Object.keys(form);
  const wellFormed = fc
    .tuple(
      fieldNames.length > 0
        ? fc.tuple(
            fc.constantFrom(...fieldNames),
            fc.oneof(
              withNul.map((text) => ({ text, invalid: true })),
              fc.constant({ text: 'x'.repeat(20_000), invalid: true }),
              oddText.map((text) => ({ text, invalid: false })),
            ),
          )
        : fc.constant(null),
      fc.array(filePart, { maxLength: 2 }),
    )
    .map(([change, files]) => {
      const fields = change ? { ...form, [change[0]]: change[1].text } : form;
      const body = multipart(fields, files);
      const names = files.map((file) => file.filename);
      return {
        // Only a NUL or an overlong field is sure to be refused: a file's name may be cleaned.
        invalid: change?.[1].invalid ?? false,
        note: `multipart ${change ? `${change[0]} = ${JSON.stringify(change[1].text.slice(0, 60))}` : 'without fields'}, files ${JSON.stringify(names).slice(0, 120)}`,
        body: { text: body.payload, contentType: body.headers['content-type'] },
      };
    });
  return fc.oneof(raw, wellFormed);
}

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Tokens;
let buyer: Tokens;
/** Requests sent by the fuzzer, for the test's report (task.meta.requests). */
let requests = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  await ensureAdmin(testDb.database.db, 'fuzz.staff@example.com', 'Fuzz-Staff-1');
  staff = await signIn(app, 'fuzz.staff@example.com', 'Fuzz-Staff-1');
  // The approved customer, registered through the API like any salon.
  const registration = personPayload({ password: 'Buyer-Secret-9' });
  const { email, password } = registration;
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: registration,
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const [row] = await testDb.database.db
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.email, email));
  await decideCompany(testDb.database.db, row?.companyId ?? 0, 'approve');
  buyer = await signIn(app, email, password);
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/** Sends `attempt` to `route` as the user the route is for, and says what is wrong with the answer. */
async function problemWith(route: RegisteredRoute, attempt: Attempt): Promise<string | null> {
  const path = route.url.replace(/:(\w+)/g, (_all, name: string) =>
    encode(attempt.params?.[name] ?? ''),
  );
  const url = attempt.query ? `${path}?${attempt.query}` : path;
  const body = attempt.body && attempt.body !== 'none' ? attempt.body : undefined;
  requests += 1;
  const response = await app.inject({
    method: route.method as 'GET',
    url,
    // Each request from an address of its own: sign-in and registration limits per address
    // would otherwise answer 429 before the handler is reached.
    remoteAddress: `10.${(requests >> 16) & 255}.${(requests >> 8) & 255}.${requests & 255}`,
    headers: {
      ...bearer(route.url.startsWith('/api/admin/') ? staff : buyer),
      ...(body ? { 'content-type': body.contentType } : {}),
      ...attempt.headers,
    },
    ...(body ? { payload: body.text } : {}),
  });
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}`;
  if (attempt.invalid && status < 400) return `accepted it with ${status}`;
  if (status >= 400) {
    let message: unknown;
    try {
      message = response.json<{ message?: unknown }>().message;
    } catch {
      return `answered ${status} with no JSON: ${response.body.slice(0, 80)}`;
    }
    if (typeof message !== 'string') return `answered ${status} without a message`;
  }
  // What the request carried itself may come back (a name saved, a field named): no leak.
  const sent = `${url} ${decoded(url)} ${body?.text.toString() ?? ''}`;
  const leak = LEAK_MARKERS.find(
    (marker) => response.body.includes(marker) && !sent.includes(marker),
  );
  return leak
    ? `answered ${status} showing ${JSON.stringify(leak)}: ${response.body.slice(0, 120)}`
    : null;
}

function decoded(url: string) {
  try {
    return decodeURIComponent(url.replace(/\+/g, ' '));
  } catch {
    return url;
  }
}

/** Fuzzes `route` with `attempts`; a description of each failure found. */
async function fuzz(
  route: RegisteredRoute,
  attempts: fc.Arbitrary<Attempt>,
  timeLimitMs = TIME_LIMIT_PER_ROUTE_MS,
): Promise<string[]> {
  const details = await fc.check(
    fc.asyncProperty(attempts, async (attempt) => {
      const problem = await problemWith(route, attempt);
      if (problem) throw new Error(`${attempt.note}: ${problem}`);
    }),
    { numRuns: RUNS_PER_ROUTE, interruptAfterTimeLimit: timeLimitMs },
  );
  if (!details.failed) return [];
  const error =
    details.errorInstance instanceof Error
      ? details.errorInstance.message
      : String(details.errorInstance);
  return [`${route.method} ${route.url} (seed ${details.seed}): ${error.split('\n')[0]}`];
}

const routesOf = () => registeredRoutes.get(app) ?? [];
const isMultipart = (route: RegisteredRoute) =>
  MULTIPART_ROUTES.has(`${route.method} ${route.url}`);

describe('every route under malformed input', () => {
  it('is enumerated, multipart routes included', () => {
    const names = routesOf().map((route) => `${route.method} ${route.url}`);
    expect(names.length).toBeGreaterThan(40);
    for (const name of MULTIPART_ROUTES) expect(names).toContain(name);
  });

  it('answers 4xx JSON to what its schema refuses, and never a 5xx or its insides', async ({
    task,
  }) => {
    const failures: string[] = [];
    const before = requests;
    const routes = routesOf().filter((candidate) => !isMultipart(candidate));
    const share = Math.min(TIME_LIMIT_PER_ROUTE_MS, JSON_ROUTES_BUDGET_MS / routes.length);
    for (const route of routes) {
      failures.push(...(await fuzz(route, attemptsFor(route), share)));
    }
    Object.assign(task.meta, { requests: requests - before });
    expect(failures).toEqual([]);
    // About a second a route on two busy cores (each route stops at its own time limit).
  }, 180_000);

  it('answers raw and malformed multipart bodies with 4xx JSON, never a 5xx', async ({ task }) => {
    const failures: string[] = [];
    const before = requests;
    for (const route of routesOf().filter(isMultipart)) {
      failures.push(...(await fuzz(route, multipartAttempts(route))));
    }
    Object.assign(task.meta, { requests: requests - before });
    expect(failures).toEqual([]);
  }, 60_000);
});
