/**
 * Versions of what a server process keeps in memory: the catalogue's answers and the
 * accounts of signed-in requests. Every transaction that changes products or categories
 * moves the catalogue's version, every one that changes users, companies or sessions moves
 * the accounts' version (triggers, migration 0006), whichever process made it. A kept copy
 * is used only while the database still says the version it was made at.
 *
 * - On PostgreSQL, other processes change things too, so every use needs a version read
 *   after it began: one small query, shared by every call that arrives while one is running
 *   (they wait for the next instead). Under load one query serves many requests.
 * - On the embedded database this process is the only one (its data folder is locked), and
 *   the database announces each move (NOTIFY) to it before the commit that made it
 *   returns. The versions are read again only after an announcement.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';

export interface Versions {
  catalogue: string;
  accounts: string;
}

export interface ChangeVersions {
  /** The versions as the database says them at or after the moment of the call. */
  read(): Promise<Versions>;
  /** Stops listening for announcements (embedded database). */
  close(): Promise<void>;
}

/** The channel the triggers announce moves on. */
const CHANNEL = 'portal_changes';

const QUERY = 'SELECT topic, version::text AS version FROM change_versions';

type Row = { topic: string; version: string };

async function queryVersions({ db, prepared }: Database): Promise<Versions> {
  const rows = prepared
    ? await prepared<Row>('change-versions', QUERY)
    : ((await db.execute(sql.raw(QUERY))) as unknown as { rows: Row[] }).rows;
  const of = (topic: string) => rows.find((row) => row.topic === topic)?.version ?? '0';
  return { catalogue: of('catalogue'), accounts: of('accounts') };
}

/**
 * A value as a query started after the call reads it. Calls that come while a query runs
 * share the next query: the running one may have started before them.
 */
export function freshReader<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const query = read().finally(() => {
      if (running === query) running = null;
    });
    running = query;
    return query;
  };
  return () => {
    if (!running) return start();
    const next = () => {
      queued = null;
      return start();
    };
    queued ??= running.then(next, next);
    return queued;
  };
}

export async function changeVersions(database: Database): Promise<ChangeVersions> {
  const { listen } = database;
  if (!listen) {
    return { read: freshReader(() => queryVersions(database)), close: async () => undefined };
  }
  let known: Versions | null = null;
  let announcements = 0;
  const unlisten = await listen(CHANNEL, () => {
    announcements += 1;
    known = null;
  });
  /** The versions read now; `current` unless a move was announced while the query ran. */
  const readNow = async () => {
    const before = announcements;
    const versions = await queryVersions(database);
    const current = announcements === before;
    if (current) known = versions;
    return { versions, current };
  };
  // Requests that need the versions after a change share one read instead of one each.
  let reading: ReturnType<typeof readNow> | null = null;
  return {
    async read() {
      for (;;) {
        if (known) return known;
        reading ??= readNow().finally(() => {
          reading = null;
        });
        const { versions, current } = await reading;
        // Nothing moved while it ran: what it read holds for every caller that joined it.
        if (current) return versions;
      }
    },
    // The database may be closed already (then nothing listens any more).
    close: () => unlisten().catch(() => undefined),
  };
}
