/**
 * The migrated database every server test file starts from, built once per run by the
 * projects' global setups: running every migration on an empty database (and, for PGlite,
 * initdb) costs seconds, copying a migrated one a fraction of that. schema-agreement still
 * migrates an empty database of its own on both engines.
 */
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { schema } from '../../server/db/schema';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a tarball of the data folder of a migrated database. */
    pgliteTemplate: string;
    /** PostgreSQL: a server where the tests may create databases. */
    postgresUrl: string;
    /** PostgreSQL: the migrated database on that server that each file's one copies. */
    postgresTemplate: string;
  }
}

/**
 * An in-memory PGlite behind the same port as server/db/database.ts gives the server:
 * empty (initdb runs), or started from the data folder of `tarball`.
 */
export async function openMemoryPglite(
  tarball?: string,
): Promise<{ database: Database; client: PGlite }> {
  const client = await PGlite.create(
    tarball ? { loadDataDir: new Blob([await readFile(tarball)]) } : {},
  );
  return {
    client,
    database: {
      db: drizzle({ client, schema }),
      engine: 'pglite',
      listen: (channel, listener) => client.listen(channel, listener),
      close: () => client.close(),
    },
  };
}

/**
 * Makes `dataDir` the data folder of an embedded database loaded from `tarball`, as a
 * server's DATA_DIR would hold after its first start; it is closed again at once.
 */
export async function writePgliteDataDir(dataDir: string, tarball: string): Promise<void> {
  const client = await PGlite.create(dataDir, {
    loadDataDir: new Blob([await readFile(tarball)]),
  });
  await client.close();
}

/** Migrates an empty PGlite and returns its data folder as an uncompressed tarball. */
export async function migratedPgliteTarball(): Promise<Buffer> {
  const { client, database } = await openMemoryPglite();
  try {
    await migrate(database.db);
    // Uncompressed: it loads in about half the time of a gzipped one.
    return Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
  } finally {
    await client.close();
  }
}

/** `url` with another database name. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `statement` on the server's maintenance connection (CREATE/DROP DATABASE). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
