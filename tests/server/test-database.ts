/**
 * A fresh, migrated database for one test file, on the engine the project runs
 * (TEST_DB=pglite: in memory; TEST_DB=postgres: a new database on the test server). It is
 * a copy of the database the global setup migrated, unless `fromScratch` asks for an
 * empty database migrated here, as a new installation would be.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { seenEverywhere } from '../../server/services/change-versions';
import { databaseUrl, onServer, pgliteTemplate } from './template-database';

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

export async function createTestDatabase(
  options: { fromScratch?: boolean } = {},
): Promise<TestDatabase> {
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openDatabase({
      engine: 'pglite',
      dataDir: null,
      ...(options.fromScratch ? {} : { startFrom: await pgliteTemplate(inject('pgliteTemplate')) }),
    });
    if (options.fromScratch) await migrate(database.db);
    return {
      database,
      url: null,
      settled: () => settle(database),
      drop: () => database.close(),
    };
  }
  const serverUrl = inject('postgresUrl');
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await onServer(
    serverUrl,
    options.fromScratch
      ? `CREATE DATABASE ${name}`
      : `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`,
  );
  const url = databaseUrl(serverUrl, name);
  const database = await openDatabase({ engine: 'postgres', url });
  if (options.fromScratch) await migrate(database.db);
  return {
    database,
    url,
    settled: () => settle(database),
    drop: async () => {
      await database.close();
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
