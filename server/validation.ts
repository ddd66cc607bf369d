/**
 * How requests are checked against their route's schema (installed with
 * `app.setValidatorCompiler` in app.ts). Fastify's default Ajv coerced every part, so
 * `["x"]` became "x", `null` became `false` and `0x10` in a path named company 16.
 *
 * - Bodies are JSON: they must already have the declared types; nothing is coerced.
 * - Path parameters, query strings and headers arrive as text: a number is read only from
 *   plain decimal digits, and a repeated parameter is refused where one value is expected.
 * - Every part refuses text the database cannot store as sent (NUL, unpaired surrogates),
 *   and a date-time must be a real instant between 1970 and 9999.
 *
 * Errors keep Ajv's shape, so that the error handler in app.ts turns them into
 * `{message, details: [{field, message}]}` like every other validation error.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

type Schema = Record<string, unknown>;
/** What a validator compiler returns (Fastify does not export the name). */
type FastifyValidationResult = ReturnType<FastifySchemaCompiler<Schema>>;

/** What both Ajv instances share: Fastify's defaults, minus coercion and removal. */
const COMMON_OPTIONS: Options = {
  useDefaults: true,
  // Unknown fields are refused by the schemas (additionalProperties: false), never dropped.
  removeAdditional: false,
  // Stop at the first error: collecting every error of a hostile body can be made costly.
  allErrors: false,
  // The same schema objects (IdParams, ShortText) are compiled for many routes.
  addUsedSchema: false,
};

/**
 * Earliest and latest instants a date-time may name: the catalogue's timestamps start long
 * after the epoch, and PostgreSQL refuses a year 0 that JavaScript would accept.
 */
const EARLIEST_INSTANT = Date.UTC(1970, 0, 1);
const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** ajv-formats' RFC 3339 check (calendar, hours, offsets); it also lets leap seconds through. */
const rfc3339 = (addFormats.get('date-time') as { validate: (text: string) => boolean }).validate;
/** RFC 3339's date-time, with the offset as "+hh:mm" (ajv-formats also takes "+hh" and "+hhmm"). */
const DATE_TIME_PARTS =
  /^(\d{4})-(\d\d)-(\d\d)[t ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:z|([+-])(\d\d):(\d\d))$/i;

/**
 * The instant an RFC 3339 date-time names, or null unless it is one the database stores as
 * sent: no leap second (neither JavaScript nor PostgreSQL has them), nothing before 1970 or
 * after 9999. Routes read date-times with this, never with `new Date`, which reads some
 * texts differently or not at all.
 */
export function instantOf(text: string): Date | null {
  const parts = DATE_TIME_PARTS.exec(text);
  if (!parts || !rfc3339(text)) return null;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // Date.UTC reads years 0–99 as 1900–1999: such years must not get that far.
  if (second > 59 || year < 1969) return null;
  const millis = Math.trunc(Number(`0.${parts[7] ?? '0'}`) * 1000);
  const offsetMinutes =
    parts[8] === undefined
      ? 0
      : (parts[8] === '-' ? -1 : 1) * (Number(parts[9]) * 60 + Number(parts[10]));
  const instant =
    Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return instant >= EARLIEST_INSTANT && instant <= LATEST_INSTANT ? new Date(instant) : null;
}

const isRealInstant = (text: string): boolean => instantOf(text) !== null;

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON_OPTIONS, ...options });
  addFormats(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isRealInstant });
  return ajv;
}

/** A validation error in Ajv's shape, for what Ajv's keywords cannot say. */
const issue = (instancePath: string, keyword: string, message: string): ErrorObject => ({
  instancePath,
  schemaPath: '#',
  keyword,
  params: {},
  message,
});

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Text PostgreSQL refuses (NUL) or stores as something else than was sent (an unpaired
 * surrogate becomes U+FFFD on the way to UTF-8).
 */
const UNSTORABLE_TEXT = /\0|\p{Cs}/u;

/**
 * Whether any string (value or property name) in `data` is one the database cannot store
 * as sent. Every request's parts go through this, so it builds no paths: those are worked
 * out only for the rare part that holds one (see unstorableTextIn).
 */
function holdsUnstorableText(data: unknown): boolean {
  const pending: unknown[] = [data];
  for (let i = 0; i < pending.length; i += 1) {
    const value = pending[i];
    if (typeof value === 'string') {
      if (UNSTORABLE_TEXT.test(value)) return true;
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        if (UNSTORABLE_TEXT.test(key)) return true;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * The first string (value or property name) in `data` the database cannot store as sent,
 * as an Ajv error at its path; null when there is none. Walks without recursion: the data
 * already passed the schema, but a schema may leave a value free.
 */
export function unstorableTextIn(data: unknown): ErrorObject | null {
  if (!holdsUnstorableText(data)) return null;
  const pending: Array<[unknown, string]> = [[data, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (UNSTORABLE_TEXT.test(value)) {
        return issue(
          path,
          'storableText',
          value.includes('\0')
            ? 'must not contain the NUL character'
            : 'must not contain an unpaired surrogate',
        );
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const itemPath = `${path}/${escapePointer(key)}`;
        if (UNSTORABLE_TEXT.test(key)) {
          return issue(itemPath, 'storableText', 'is not a storable field name');
        }
        pending.push([item, itemPath]);
      }
    }
  }
  return null;
}

/** The JSON types a schema admits, looking into unions. */
function typesOf(schema: unknown): Set<string> {
  const types = new Set<string>();
  if (typeof schema !== 'object' || schema === null) return types;
  const { type, anyOf, oneOf } = schema as Schema;
  for (const name of [type].flat()) if (typeof name === 'string') types.add(name);
  for (const member of [anyOf, oneOf].flat()) for (const name of typesOf(member)) types.add(name);
  return types;
}

/** An integer as a person writes it: no sign on zero, no leading zeros, no exponent, no hex. */
const DECIMAL_INTEGER = /^(?:0|-?[1-9]\d*)$/;
/** The same with an optional fraction. */
const DECIMAL_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * Why a property's text cannot be read as the number its schema asks for, or null when it
 * can (or is not asked to be a number). Ajv's own coercion reads `0x10` as 16, `1e400` as
 * Infinity (which then skips minimum and maximum) and ` 5` as 5.
 */
function numeralProblem(text: string, types: Set<string>): string | null {
  if (types.has('string')) return null;
  if (types.has('integer') && !types.has('number')) {
    return DECIMAL_INTEGER.test(text) && Number.isSafeInteger(Number(text))
      ? null
      : 'must be an integer written in decimal digits';
  }
  if (types.has('number')) {
    const value = Number(text);
    return DECIMAL_NUMBER.test(text) && Number.isFinite(value) && !Object.is(value, -0)
      ? null
      : 'must be a number written in decimal digits';
  }
  return null;
}

/** Header names arrive in lower case; Fastify lowers a schema's only for its own compiler. */
function lowerCaseHeaderNames(schema: Schema): Schema {
  const { properties, required } = schema;
  return {
    ...schema,
    ...(typeof properties === 'object' && properties !== null
      ? {
          properties: Object.fromEntries(
            Object.entries(properties).map(([name, value]) => [name.toLowerCase(), value]),
          ),
        }
      : {}),
    ...(Array.isArray(required)
      ? { required: required.map((name) => String(name).toLowerCase()) }
      : {}),
  };
}

/** Compiles with `ajv`, reusing what it already holds under the schema's $id. */
function compile(ajv: Ajv, schema: Schema): ValidateFunction {
  const known = typeof schema.$id === 'string' ? ajv.getSchema(schema.$id) : undefined;
  return known ?? ajv.compile(schema);
}

/** Whether `data` passes the schema's check, then holds only storable text; else why not. */
function passes(check: ValidateFunction, validate: FastifyValidationResult, data: unknown) {
  if (!check(data)) {
    validate.errors = check.errors ?? [];
    return false;
  }
  const unstorable = unstorableTextIn(data);
  if (unstorable) validate.errors = [unstorable];
  return unstorable === null;
}

/** A validator for a JSON body: strict types, then storable text. */
function bodyValidator(ajv: Ajv, schema: Schema): FastifyValidationResult {
  const check = compile(ajv, schema);
  // TypeBox marks `Type.Optional(body)` with a hidden property: no body at all is allowed.
  const optional = (schema as { '~optional'?: unknown })['~optional'] === true;
  const validate: FastifyValidationResult = (data: unknown) => {
    validate.errors = null;
    // Fastify hands an absent body over as null.
    if (optional && (data === null || data === undefined)) return { value: undefined };
    return passes(check, validate, data);
  };
  return validate;
}

/** A validator for path parameters, a query string or headers: decimal numbers, one value each. */
function textValidator(ajv: Ajv, schema: Schema): FastifyValidationResult {
  const check = compile(ajv, schema);
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const numeric = Object.entries(properties)
    .map(([name, property]) => [name, typesOf(property)] as const)
    .filter(([, types]) => types.has('integer') || types.has('number'));
  const validate: FastifyValidationResult = (data: unknown) => {
    validate.errors = null;
    if (typeof data === 'object' && data !== null) {
      for (const [name, types] of numeric) {
        const text = (data as Record<string, unknown>)[name];
        const problem = typeof text === 'string' ? numeralProblem(text, types) : null;
        if (problem) {
          validate.errors = [issue(`/${escapePointer(name)}`, 'type', problem)];
          return false;
        }
      }
    }
    return passes(check, validate, data);
  };
  return validate;
}

/** The two Ajv instances, one per process: each keeps what it compiled by schema. */
const bodies = createAjv({ coerceTypes: false });
const texts = createAjv({ coerceTypes: true });

/**
 * The validator compiler of the app: one Ajv for bodies that never coerces, one for the
 * parts that arrive as text, which turns decimal digits into numbers (after the checks
 * above) and `true`/`false` into booleans, but never an array into one value. Both are
 * shared by every server the process builds, so that a schema is compiled once.
 */
export function requestValidatorCompiler(): FastifySchemaCompiler<Schema> {
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') return bodyValidator(bodies, schema);
    return textValidator(texts, httpPart === 'headers' ? lowerCaseHeaderNames(schema) : schema);
  };
}
