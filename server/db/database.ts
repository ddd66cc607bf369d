/**
 * The database port: one query builder over two engines. Embedded PGlite (files under
 * the data folder, or memory for tests) is the default; a real PostgreSQL is used when a
 * connection URL is given. Both run the same migrations and the same queries.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { lock } from 'proper-lockfile';
import { schema } from './schema.js';
import { warmUpNextTick } from './next-tick-warm-up.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Its functions are plain ones, not methods: a caller may take them off the object. */
export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /**
   * Embedded database only: calls `listener` with the payload of every NOTIFY on `channel`,
   * before the query that committed it returns (one process, one connection). Resolves to
   * a function that stops listening.
   */
  listen?: (channel: string, listener: (payload: string) => void) => Promise<() => Promise<void>>;
  /**
   * PostgreSQL only: runs one prepared statement straight on the pool, for the few queries
   * that every request makes (drizzle's query building would cost more than the query).
   */
  prepared?: <Row>(name: string, text: string) => Promise<Row[]>;
  /**
   * PostgreSQL only: a connection of its own, outside the pool, for listening to
   * announcements. The caller ends it.
   */
  connect?: () => Promise<pg.Client>;
  /** Embedded database only: its data folder as an uncompressed tarball, to start another from. */
  dumpDataDir?: () => Promise<Blob>;
  close: () => Promise<void>;
}

/** A lock of a data folder not refreshed for this long belongs to a process that died. */
const STALE_LOCK_MS = 30_000;

export type DatabaseConfig =
  | { engine: 'postgres'; url: string }
  | {
      engine: 'pglite';
      /** null keeps the database in memory */
      dataDir: string | null;
      /** A data folder to start from (a tarball of `dumpDataDir`), when the folder is new. */
      startFrom?: Blob;
    };

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.engine === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    // A broken idle connection must not take the process down; the next query reconnects.
    pool.on('error', () => undefined);
    return {
      db: drizzlePg({ client: pool, schema }),
      engine: 'postgres',
      prepared: async <Row>(name: string, text: string) =>
        (await pool.query<Row & pg.QueryResultRow>({ name, text })).rows,
      connect: async () => {
        const client = new pg.Client({
          connectionString: config.url,
          keepAlive: true,
          // Named in pg_stat_activity, for whoever looks after the database.
          application_name: 'portal change listener',
        });
        await client.connect();
        return client;
      },
      close: () => pool.end(),
    };
  }
  const unlock =
    config.dataDir === null ? () => Promise.resolve() : await lockDataDir(config.dataDir);
  const options = {
    // Trigrams: the index that finds companies by a part of their name (migration 0010).
    extensions: { pg_trgm },
    ...(config.startFrom ? { loadDataDir: config.startFrom } : {}),
  };
  // Before PGlite reads its extension's bundle: see next-tick-warm-up.ts.
  await warmUpNextTick();
  const client = await PGlite.create(config.dataDir ?? undefined, options).catch(async (error) => {
    await unlock();
    throw error;
  });
  return {
    db: drizzlePglite({ client, schema }),
    engine: 'pglite',
    listen: (channel, listener) => client.listen(channel, listener),
    dumpDataDir: () => client.dumpDataDir('none'),
    close: async () => {
      // The folder is let go even when closing fails (a query still running at a signal):
      // otherwise the next start finds it in use until the lock goes stale.
      try {
        await client.close();
      } finally {
        await unlock();
      }
    },
  };
}

/** The embedded database's data folder is in use by another process. */
export class DataDirInUseError extends Error {}

/**
 * Takes the embedded database's data folder for this process alone: two processes writing
 * one folder would corrupt it, and neither would see the other's changes. A lock left by a
 * process that died is removed once it is older than `STALE_LOCK_MS`.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  try {
    return await lock(dataDir, {
      lockfilePath: join(dataDir, 'portal.lock'),
      stale: STALE_LOCK_MS,
      update: STALE_LOCK_MS / 3,
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ELOCKED') throw error;
    throw new DataDirInUseError(
      `The data folder ${dataDir} is in use by another process of the portal (a server that ` +
        'is running?). Stop it first, or give each process a database of its own.',
    );
  }
}

/** openDatabase for a command: a data folder in use ends it with the reason, no stack trace. */
export async function openDatabaseOrExit(config: DatabaseConfig): Promise<Database> {
  try {
    return await openDatabase(config);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
