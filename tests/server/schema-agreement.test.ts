/**
 * The Drizzle tables of server/db/schema.ts only describe what the SQL migrations build,
 * and nothing at run time checks that the two agree: a column the query builder names but
 * the database lacks fails only when that query runs. This file migrates a fresh database
 * on the engine under test and compares it with every table schema.ts exports: tables,
 * columns (type, nullability, default), primary keys, unique constraints, foreign keys and
 * the indexes Drizzle declares. Every disagreement is reported with the table, the column
 * and what each side says.
 */
import { is, SQL, sql } from 'drizzle-orm';
import {
  getTableConfig,
  IndexedColumn,
  PgDialect,
  PgTable,
  type PgColumn,
} from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as declared from '../../server/db/schema';
import { createTestDatabase, type TestDatabase } from './test-database';

/** Tables the migrations create that schema.ts leaves out on purpose, each with why. */
const SQL_ONLY_TABLES: Record<string, string> = {
  change_versions:
    'read and moved only by raw SQL and triggers (migration 0006, services/change-versions.ts)',
  change_listeners:
    'written and read only by raw SQL of the listening connections (migration 0007, services/change-versions.ts)',
};

type TableConfig = ReturnType<typeof getTableConfig>;

/** Every table schema.ts exports, including those kept out of `schema` (schema_migrations). */
const drizzleTables: TableConfig[] = (Object.values(declared) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table));

interface DbColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  default: string | null;
  identity: string | null;
  generated: boolean;
}

interface DbConstraint {
  table: string;
  name: string;
  kind: 'p' | 'u' | 'f';
  columns: string[];
  foreignTable: string | null;
  foreignColumns: string[] | null;
  onDelete: string;
  onUpdate: string;
}

interface DbIndex {
  table: string;
  name: string;
  unique: boolean;
  partial: boolean;
  columns: string[];
}

interface DbSnapshot {
  tables: Set<string>;
  columns: DbColumn[];
  constraints: DbConstraint[];
  indexes: DbIndex[];
}

const COLUMNS_QUERY = `
  SELECT c.table_name AS "table", c.column_name AS "column",
    format_type(a.atttypid, a.atttypmod) AS "type",
    c.is_nullable = 'YES' AS "nullable",
    c.column_default AS "default",
    c.identity_generation AS "identity",
    c.is_generated = 'ALWAYS' AS "generated"
  FROM information_schema.columns c
  JOIN pg_catalog.pg_attribute a
    ON a.attrelid = (quote_ident(c.table_schema) || '.' || quote_ident(c.table_name))::regclass
    AND a.attname = c.column_name
  JOIN information_schema.tables t
    ON t.table_schema = c.table_schema AND t.table_name = c.table_name
  WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
  ORDER BY c.table_name, c.ordinal_position`;

const TABLES_QUERY = `
  SELECT table_name AS "table" FROM information_schema.tables
  WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;

/** Columns of a constraint or index in their declared order, as text[] for both drivers. */
const CONSTRAINTS_QUERY = `
  SELECT cl.relname AS "table", con.conname AS "name", con.contype::text AS "kind",
    ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
      JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
      ORDER BY k.ord) AS "columns",
    fcl.relname::text AS "foreignTable",
    CASE WHEN con.contype = 'f' THEN
      ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
        JOIN pg_catalog.pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
        ORDER BY k.ord)
    END AS "foreignColumns",
    con.confdeltype::text AS "onDelete", con.confupdtype::text AS "onUpdate"
  FROM pg_catalog.pg_constraint con
  JOIN pg_catalog.pg_class cl ON cl.oid = con.conrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = cl.relnamespace
  LEFT JOIN pg_catalog.pg_class fcl ON fcl.oid = con.confrelid
  WHERE n.nspname = current_schema() AND con.contype IN ('p', 'u', 'f')`;

const INDEXES_QUERY = `
  SELECT tc.relname AS "table", ic.relname AS "name", ix.indisunique AS "unique",
    ix.indpred IS NOT NULL AS "partial",
    ARRAY(SELECT pg_get_indexdef(ix.indexrelid, k, true)
      FROM generate_series(1, ix.indnkeyatts) k ORDER BY k) AS "columns"
  FROM pg_catalog.pg_index ix
  JOIN pg_catalog.pg_class ic ON ic.oid = ix.indexrelid
  JOIN pg_catalog.pg_class tc ON tc.oid = ix.indrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = tc.relnamespace
  WHERE n.nspname = current_schema()`;

/** pg_constraint's codes for a foreign key's ON DELETE / ON UPDATE action, as Drizzle names them. */
const FK_ACTIONS: Record<string, string> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/** Other spellings of a type, as PostgreSQL's format_type() writes it. */
const TYPE_NAMES: Record<string, string> = {
  int: 'integer',
  int4: 'integer',
  serial: 'integer',
  serial4: 'integer',
  int8: 'bigint',
  bigserial: 'bigint',
  serial8: 'bigint',
  int2: 'smallint',
  smallserial: 'smallint',
  serial2: 'smallint',
  bool: 'boolean',
  float8: 'double precision',
  float4: 'real',
  decimal: 'numeric',
  varchar: 'character varying',
  char: 'character',
  bpchar: 'character',
};

/**
 * One spelling for a column type, so that `int4`, `timestamptz(3)`, `numeric(10, 2)` and
 * `text []` read as PostgreSQL's `integer`, `timestamp(3) with time zone`, `numeric(10,2)`
 * and `text[]`.
 */
function normaliseType(raw: string): string {
  const compact = raw
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),[\]])\s*/g, '$1')
    .replace(/\)(with)/, ') $1');
  const arraySuffix = /(\[\d*\])*$/.exec(compact)?.[0] ?? '';
  const base = compact.slice(0, compact.length - arraySuffix.length);
  // PostgreSQL ignores declared array sizes: text[3] is text[].
  const dimensions = arraySuffix.replace(/\d+/g, '');
  const match = /^(.*?)(\(\d+(?:,\d+)?\))?( with time zone| without time zone)?$/.exec(base);
  let name = match?.[1] ?? base;
  const modifier = match?.[2] ?? '';
  let zone = match?.[3] ?? '';
  if (name === 'timestamptz' || name === 'timetz') {
    name = name.slice(0, -2);
    zone = ' with time zone';
  }
  if ((name === 'timestamp' || name === 'time') && zone === '') zone = ' without time zone';
  return `${TYPE_NAMES[name] ?? name}${modifier}${zone}${dimensions}`;
}

const dialect = new PgDialect();

/** A Drizzle `.default(...)` as the text PostgreSQL would show for it, casts left out. */
function drizzleDefaultText(value: unknown): string {
  if (is(value, SQL)) return dialect.sqlToQuery(value).sql;
  if (Array.isArray(value)) return `{${value.map(String).join(',')}}`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** information_schema's column_default without its casts and quotes: `'{}'::text[]` → `{}`. */
function databaseDefaultText(raw: string): string {
  let text = raw.trim();
  const cast = /::(?:"[^"]+"|[a-z_][a-z0-9_ ]*)(?:\([\d,\s]+\))?(?:\[\])*$/i;
  while (cast.test(text)) text = text.replace(cast, '');
  if (/^\(.*\)$/.test(text)) text = text.slice(1, -1);
  if (/^'.*'$/s.test(text)) text = text.slice(1, -1).replace(/''/g, "'");
  return text;
}

type DefaultKind = 'none' | 'value' | 'identity' | 'generated';

function drizzleDefaultKind(column: PgColumn): DefaultKind {
  if (column.generatedIdentity) return 'identity';
  if (column.generated) return 'generated';
  // `$defaultFn` values are made by the query builder, not the database: not a SQL default.
  if (column.default !== undefined || /serial\d?$/.test(column.getSQLType())) return 'value';
  return 'none';
}

function databaseDefaultKind(column: DbColumn): DefaultKind {
  if (column.identity) return 'identity';
  if (column.generated) return 'generated';
  return column.default === null ? 'none' : 'value';
}

const DEFAULT_WORDS: Record<DefaultKind, string> = {
  none: 'no default',
  value: 'a default',
  identity: 'an identity',
  generated: 'a generated expression',
};

const list = (columns: readonly string[]) => `(${columns.join(', ')})`;
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);
/** What each side says, in one shape for every message. */
const sides = (drizzle: string, database: string) =>
  `schema.ts says ${drizzle}; the migrations built ${database}`;

function compareColumns(config: TableConfig, snapshot: DbSnapshot): string[] {
  const problems: string[] = [];
  const built = new Map(
    snapshot.columns.filter((c) => c.table === config.name).map((c) => [c.column, c]),
  );
  for (const column of config.columns) {
    const at = `${config.name}.${column.name}`;
    const actual = built.get(column.name);
    if (!actual) {
      problems.push(`${at}: missing column — ${sides(column.getSQLType(), 'no such column')}`);
      continue;
    }
    const expectedType = normaliseType(column.getSQLType());
    const actualType = normaliseType(actual.type);
    if (expectedType !== actualType) {
      problems.push(`${at}: type differs — ${sides(expectedType, actualType)}`);
    }
    if (column.notNull === actual.nullable) {
      const word = (nullable: boolean) => (nullable ? 'nullable' : 'NOT NULL');
      problems.push(
        `${at}: nullability differs — ${sides(word(!column.notNull), word(actual.nullable))}`,
      );
    }
    const expectedKind = drizzleDefaultKind(column);
    const actualKind = databaseDefaultKind(actual);
    if (expectedKind !== actualKind) {
      const detail = actual.default === null ? '' : ` (${actual.default})`;
      problems.push(
        `${at}: default differs — ${sides(DEFAULT_WORDS[expectedKind], DEFAULT_WORDS[actualKind] + detail)}`,
      );
    } else if (expectedKind === 'value' && column.default !== undefined && actual.default) {
      const expected = drizzleDefaultText(column.default);
      const actualText = databaseDefaultText(actual.default);
      if (expected !== actualText) {
        problems.push(
          `${at}: default value differs — ${sides(`DEFAULT ${expected}`, `DEFAULT ${actual.default}`)}`,
        );
      }
    } else if (expectedKind === 'identity') {
      const expected = column.generatedIdentity?.type === 'byDefault' ? 'BY DEFAULT' : 'ALWAYS';
      if (expected !== actual.identity) {
        problems.push(
          `${at}: identity differs — ${sides(`GENERATED ${expected}`, `GENERATED ${actual.identity}`)}`,
        );
      }
    }
  }
  const known = new Set(config.columns.map((column) => column.name));
  for (const actual of built.values()) {
    if (!known.has(actual.column)) {
      problems.push(
        `${config.name}.${actual.column}: column unknown to Drizzle — ` +
          sides('no such column', `${actual.type}${actual.nullable ? '' : ' NOT NULL'}`),
      );
    }
  }
  return problems;
}

function compareKeys(config: TableConfig, snapshot: DbSnapshot): string[] {
  const problems: string[] = [];
  const names = (columns: readonly PgColumn[]) => columns.map((column) => column.name);
  const constraints = snapshot.constraints.filter((c) => c.table === config.name);

  const declaredKey = [
    ...config.columns.filter((column) => column.primary).map((column) => [column.name]),
    ...config.primaryKeys.map((key) => names(key.columns)),
  ];
  const builtKey = constraints.filter((c) => c.kind === 'p').map((c) => c.columns);
  const keyText = (keys: string[][]) => (keys.length === 0 ? 'none' : keys.map(list).join(', '));
  // Column order of a primary key matters to its index: compare it as written.
  if (keyText(declaredKey) !== keyText(builtKey)) {
    problems.push(
      `${config.name}: primary key differs — ${sides(keyText(declaredKey), keyText(builtKey))}`,
    );
  }

  // A unique constraint or a full unique index over the same columns enforces the same rule.
  const declaredUnique = [
    ...config.columns.filter((column) => column.isUnique).map((column) => [column.name]),
    ...config.uniqueConstraints.map((unique) => names(unique.columns)),
  ];
  const builtUnique = [
    ...constraints.filter((c) => c.kind === 'u').map((c) => c.columns),
    ...snapshot.indexes
      .filter((index) => index.table === config.name && index.unique && !index.partial)
      .map((index) => index.columns),
  ];
  for (const columns of declaredUnique) {
    if (!builtUnique.some((built) => sameList(built, columns))) {
      problems.push(
        `${config.name}${list(columns)}: unique constraint missing — ` +
          sides(`UNIQUE ${list(columns)}`, 'none over those columns'),
      );
    }
  }
  for (const built of constraints.filter((c) => c.kind === 'u')) {
    if (!declaredUnique.some((columns) => sameList(built.columns, columns))) {
      problems.push(
        `${config.name}${list(built.columns)}: unique constraint unknown to Drizzle — ` +
          sides('none over those columns', `${built.name} UNIQUE ${list(built.columns)}`),
      );
    }
  }

  const declaredForeign = config.foreignKeys.map((key) => {
    const reference = key.reference();
    return {
      columns: names(reference.columns),
      text:
        `REFERENCES ${getTableConfig(reference.foreignTable).name} ` +
        `${list(names(reference.foreignColumns))} ON DELETE ${key.onDelete ?? 'no action'} ` +
        `ON UPDATE ${key.onUpdate ?? 'no action'}`,
    };
  });
  const builtForeign = constraints
    .filter((c) => c.kind === 'f')
    .map((c) => ({
      columns: c.columns,
      text:
        `REFERENCES ${c.foreignTable} ${list(c.foreignColumns ?? [])} ` +
        `ON DELETE ${FK_ACTIONS[c.onDelete]} ON UPDATE ${FK_ACTIONS[c.onUpdate]}`,
    }));
  for (const expected of declaredForeign) {
    const at = `${config.name}${list(expected.columns)}`;
    const matching = builtForeign.filter((built) => sameList(built.columns, expected.columns));
    if (matching.some((built) => built.text === expected.text)) continue;
    const found = matching.map((built) => built.text).join(' and ') || 'no foreign key there';
    problems.push(`${at}: foreign key differs — ${sides(expected.text, found)}`);
  }
  for (const built of builtForeign) {
    if (!declaredForeign.some((expected) => sameList(expected.columns, built.columns))) {
      problems.push(
        `${config.name}${list(built.columns)}: foreign key unknown to Drizzle — ` +
          sides('no foreign key there', built.text),
      );
    }
  }

  for (const index of config.indexes) {
    const { name, unique, where } = index.config;
    const columns = index.config.columns.map((column) =>
      is(column, IndexedColumn) ? (column.name ?? '?') : '<expression>',
    );
    const at = `${config.name}: index ${name ?? list(columns)}`;
    const built = snapshot.indexes.find(
      (candidate) =>
        candidate.table === config.name &&
        (name ? candidate.name === name : sameList(candidate.columns, columns)),
    );
    if (!built) {
      problems.push(`${at} missing — ${sides(`an index on ${list(columns)}`, 'no such index')}`);
      continue;
    }
    const indexText = (isUnique: boolean, on: string[], partial: boolean) =>
      `${isUnique ? 'a unique' : 'an'} index on ${list(on)}${partial ? ' with WHERE' : ''}`;
    const comparable = columns.map((column, i) =>
      column === '<expression>' ? (built.columns[i] ?? column) : column,
    );
    if (
      built.unique !== unique ||
      built.partial !== (where !== undefined) ||
      !sameList(built.columns, comparable)
    ) {
      problems.push(
        `${at} differs — ` +
          sides(
            indexText(unique, columns, where !== undefined),
            indexText(built.unique, built.columns, built.partial),
          ),
      );
    }
  }
  return problems;
}

let testDb: TestDatabase;
let snapshot: DbSnapshot;

async function rows<Row>(text: string): Promise<Row[]> {
  const result = await testDb.database.db.execute(sql.raw(text));
  return (result as { rows: Row[] }).rows;
}

beforeAll(async () => {
  // Not the suite's migrated copy: the migrations themselves, on an empty database.
  testDb = await createTestDatabase({ fromScratch: true });
  snapshot = {
    tables: new Set((await rows<{ table: string }>(TABLES_QUERY)).map((row) => row.table)),
    columns: await rows<DbColumn>(COLUMNS_QUERY),
    constraints: await rows<DbConstraint>(CONSTRAINTS_QUERY),
    indexes: await rows<DbIndex>(INDEXES_QUERY),
  };
});

afterAll(async () => {
  await testDb.drop();
});

describe('the Drizzle tables and the database the migrations build', () => {
  it.each(drizzleTables.map((config) => [config.name, config] as const))(
    'agree on the table %s',
    (name, config) => {
      if (!snapshot.tables.has(name)) {
        expect.fail(`${name}: missing table — ${sides('a table', 'no such table')}`);
      }
      expect([...compareColumns(config, snapshot), ...compareKeys(config, snapshot)]).toEqual([]);
    },
  );

  it('know every table the migrations build, or say why not', () => {
    const known = new Set(drizzleTables.map((config) => config.name));
    const unknown = [...snapshot.tables]
      .filter((table) => !known.has(table) && !(table in SQL_ONLY_TABLES))
      .map(
        (table) =>
          `${table}: table unknown to Drizzle — ${sides('no such table', 'a table')}; ` +
          'declare it in server/db/schema.ts or add it to SQL_ONLY_TABLES with a reason',
      );
    expect(unknown).toEqual([]);
  });

  it('allow only SQL-only tables that exist and that Drizzle does not declare', () => {
    const known = new Set(drizzleTables.map((config) => config.name));
    const stale = Object.keys(SQL_ONLY_TABLES).filter(
      (table) => known.has(table) || !snapshot.tables.has(table),
    );
    expect(stale).toEqual([]);
  });
});

describe('normaliseType', () => {
  it.each([
    ['int4', 'integer'],
    ['serial', 'integer'],
    ['int8', 'bigint'],
    ['timestamptz', 'timestamp with time zone'],
    ['timestamptz(3)', 'timestamp(3) with time zone'],
    ['timestamp (3) with time zone', 'timestamp(3) with time zone'],
    ['timestamp', 'timestamp without time zone'],
    ['numeric(10, 2)', 'numeric(10,2)'],
    ['text []', 'text[]'],
    ['varchar(20)[3]', 'character varying(20)[]'],
    ['bool', 'boolean'],
    ['jsonb', 'jsonb'],
    ['bytea', 'bytea'],
  ])('reads %s as %s', (raw, expected) => {
    expect(normaliseType(raw)).toBe(expected);
  });
});
