/**
 * The database port: one query builder over two engines. Embedded PGlite (files under
 * the data folder, or memory for tests) is the default; a real PostgreSQL is used when a
 * connection URL is given. Both run the same migrations and the same queries.
 */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { schema } from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export type DatabaseConfig =
  | { engine: 'postgres'; url: string }
  | { engine: 'pglite'; /** null keeps the database in memory */ dataDir: string | null };

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.engine === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    // A broken idle connection must not take the process down; the next query reconnects.
    pool.on('error', () => undefined);
    return {
      db: drizzlePg({ client: pool, schema }),
      engine: 'postgres',
      close: () => pool.end(),
    };
  }
  if (config.dataDir !== null) await mkdir(config.dataDir, { recursive: true });
  const client = await PGlite.create(config.dataDir ?? undefined);
  return {
    db: drizzlePglite({ client, schema }),
    engine: 'pglite',
    close: () => client.close(),
  };
}
