import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { startThrowawayCluster } from './postgres-cluster';
import { databaseUrl, onServer } from './template-database';

/**
 * Gives the PostgreSQL suite a server (DATABASE_URL when set, else a throwaway cluster)
 * and on it a migrated database that each test file's database is made from.
 */
export default async function setup(project: TestProject) {
  const cluster = process.env.DATABASE_URL ? null : await startThrowawayCluster();
  const serverUrl = process.env.DATABASE_URL ?? cluster!.url;
  const template = `portal_template_${randomBytes(6).toString('hex')}`;
  try {
    await onServer(serverUrl, `CREATE DATABASE ${template}`);
    // Closed before any copy is made: PostgreSQL copies only a database nobody is connected to.
    const database = await openDatabase({
      engine: 'postgres',
      url: databaseUrl(serverUrl, template),
    });
    try {
      await migrate(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    cluster?.stop();
    throw error;
  }
  project.provide('postgresUrl', serverUrl);
  project.provide('postgresTemplate', template);
  return async () => {
    if (cluster) cluster.stop();
    else await onServer(serverUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  };
}
