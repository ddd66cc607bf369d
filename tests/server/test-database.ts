/**
 * A fresh, migrated database for one test file, on the engine the project runs
 * (TEST_DB=pglite: in memory; TEST_DB=postgres: a new database on the test server).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { seenEverywhere } from '../../server/services/change-versions';

export interface TestDatabase {
  database: Database;
  /** The connection URL, for a real PostgreSQL (null for PGlite). */
  url: string | null;
  /**
   * After a change written straight to the database: resolves once every server process
   * has been told of it, as a server that made it waits before it answers (on PostgreSQL
   * the announcement arrives a moment after the commit).
   */
  settled: () => Promise<void>;
  drop: () => Promise<void>;
}

async function settle(database: Database): Promise<void> {
  if (!(await seenEverywhere(database))) throw new Error('A server did not record a change');
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openDatabase({ engine: 'pglite', dataDir: null });
    await migrate(database.db);
    return {
      database,
      url: null,
      settled: () => settle(database),
      drop: () => database.close(),
    };
  }
  const serverUrl = inject('postgresUrl');
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ engine: 'postgres', url: url.toString() });
  await migrate(database.db);
  return {
    database,
    url: url.toString(),
    settled: () => settle(database),
    drop: async () => {
      await database.close();
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
