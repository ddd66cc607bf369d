/**
 * The table of routes in docs/api.md held against the server's OpenAPI document
 * (GET /api/openapi.json): every operation of the server has exactly one row, written with
 * the server's path and parameter names; no row names a route the server lacks; each row's
 * success status is one the server lists for it, and its "who" is who may call it
 * (server/plugins/api-operations.ts).
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { OPERATIONS } from '../../server/plugins/api-operations';
import { createTestDatabase, type TestDatabase } from './test-database';

interface Row {
  /** "METHOD path", as the document's operations are named below. */
  route: string;
  who: string;
  /** The first three-digit number of the success cell. */
  success: string | undefined;
}

/** The rows of the table under "## Routes": | method | `path` | who | success |. */
function routeRows(markdown: string): Row[] {
  const section = markdown.split(/^## Routes$/m)[1]?.split(/^## /m)[0] ?? '';
  return section.split('\n').flatMap((line) => {
    const [method = '', path = '', who = '', success = ''] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (!/^[A-Z]+$/.test(method)) return [];
    const route = `${method} ${path.replace(/^`(.*)`$/, '$1')}`;
    return [{ route, who, success: /\b\d{3}\b/.exec(success)?.[0] }];
  });
}

let testDb: TestDatabase;
let app: FastifyInstance;
/** The 2xx statuses of each operation of the document, by "METHOD path". */
let successes: Map<string, string[]>;
const rows = routeRows(readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
  const { paths } = (await app.inject({ url: '/api/openapi.json' })).json<{
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  }>();
  successes = new Map(
    Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]): [string, string[]] => [
        `${method.toUpperCase()} ${path}`,
        Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status)),
      ]),
    ),
  );
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('the table of routes in docs/api.md', () => {
  it('has been read', () => {
    expect(rows.length, 'rows in the table under "## Routes"').toBeGreaterThan(50);
  });

  it('has exactly one row for every operation of the server', () => {
    const miscounted = [...successes.keys()]
      .map((route) => ({ route, count: rows.filter((row) => row.route === route).length }))
      .filter(({ count }) => count !== 1)
      .map(({ route, count }) => `${route}: ${count} rows`);
    expect(miscounted, 'operations of the server without exactly one row').toEqual([]);
  });

  it('names only routes the server has, with its parameter names', () => {
    const unknown = rows.filter((row) => !successes.has(row.route)).map((row) => row.route);
    expect(unknown, 'rows naming no operation of the server').toEqual([]);
  });

  it('gives each route a success status the server answers', () => {
    const wrong = rows
      .filter((row) => successes.has(row.route))
      .filter((row) => !successes.get(row.route)?.includes(row.success ?? ''))
      .map(
        (row) =>
          `${row.route}: ${row.success ?? 'no status'} (the server: ${successes.get(row.route)?.join(', ')})`,
      );
    expect(wrong, 'rows with a success status the server does not list').toEqual([]);
  });

  it('says who may call each route as the server does', () => {
    const wrong = rows
      .filter((row) => OPERATIONS[row.route] && OPERATIONS[row.route]?.who !== row.who)
      .map((row) => `${row.route}: ${row.who} (the server: ${OPERATIONS[row.route]?.who})`);
    expect(wrong, 'rows whose "who" differs from the server’s').toEqual([]);
  });
});
