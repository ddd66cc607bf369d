/**
 * The migrated database every server test file starts from, built once per run by the
 * projects' global setups: running every migration on an empty database (and, for PGlite,
 * initdb) costs seconds, copying a migrated one a fraction of that. schema-agreement still
 * migrates an empty database of its own on both engines.
 */
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';

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

/** The tarball a global setup wrote, to start an embedded database from. */
export const pgliteTemplate = async (tarball: string): Promise<Blob> =>
  new Blob([await readFile(tarball)]);

/**
 * Makes `dataDir` the data folder of an embedded database started from `tarball`, as a
 * server's DATA_DIR would hold after its first start; it is closed again at once.
 */
export async function writePgliteDataDir(dataDir: string, tarball: string): Promise<void> {
  const database = await openDatabase({
    engine: 'pglite',
    dataDir,
    startFrom: await pgliteTemplate(tarball),
  });
  await database.close();
}

/** Migrates an empty in-memory PGlite and returns its data folder as a tarball. */
export async function migratedPgliteTarball(): Promise<Buffer> {
  const database = await openDatabase({ engine: 'pglite', dataDir: null });
  try {
    await migrate(database.db);
    // Uncompressed: it loads in about half the time of a gzipped one.
    const dump = await database.dumpDataDir?.();
    if (!dump) throw new Error('The embedded database gave no copy of its data folder');
    return Buffer.from(await dump.arrayBuffer());
  } finally {
    await database.close();
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
