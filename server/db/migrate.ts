/**
 * Applies the versioned SQL files of ./migrations in name order, each once, each in a
 * transaction together with its record in schema_migrations. An advisory lock keeps two
 * server processes starting at once from applying the same file twice.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import type { Db } from './database.js';
import { schemaMigrations } from './schema.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Any constant shared by every process of the portal; it names the migration lock. */
const MIGRATION_LOCK_ID = 7_041_998;
const STATEMENT_BREAKPOINT = '--> statement-breakpoint';

export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  await db.execute(sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: string[] = [];
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    const statements = (await readFile(MIGRATIONS_DIR + file, 'utf8'))
      .split(STATEMENT_BREAKPOINT)
      .map((statement) => statement.trim())
      .filter((statement) => statement.length > 0);
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
      const done = await tx
        .select()
        .from(schemaMigrations)
        .where(eq(schemaMigrations.version, version));
      if (done.length > 0) return;
      for (const statement of statements) await tx.execute(sql.raw(statement));
      await tx.insert(schemaMigrations).values({ version });
      applied.push(version);
    });
  }
  return applied;
}
