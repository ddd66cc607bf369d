/**
 * A cache of catalogue answers (product pages, products, categories), shared by every
 * request of one server process and never stale across processes.
 *
 * Every change of products or categories moves a version kept in the database (a trigger,
 * migration 0005), whichever process made it. An answer is kept under the version it was
 * computed at and served only while the database still says that version. Reading the
 * version is one tiny query, and requests that arrive while one is running share the next
 * one instead of each sending their own: under load one query serves many requests, and
 * each request still sees a version read after it arrived, so a change committed through
 * another process is never answered from an older copy.
 *
 * Answers differ only by whether prices are shown (every approved company sees the same
 * prices), so that is the only part of the viewer in the key.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';

/** Answers kept per process: the catalogue's pages, searches and products most asked for. */
const MAX_ENTRIES = 2_000;
/** Memory the kept answers may take (a page of 100 products is about 80 KB). */
const MAX_BYTES = 48 * 1024 * 1024;

export interface CachedAnswer {
  /** The answer as sent: JSON text. */
  body: string;
  /** A strong validator of exactly this body, for If-None-Match. */
  etag: string;
}

interface Entry extends CachedAnswer {
  version: string;
}

/** The version the database holds now, read by a query that started after the call. */
export function freshVersionReader(read: () => Promise<string>): () => Promise<string> {
  let running: Promise<string> | null = null;
  let queued: Promise<string> | null = null;
  const start = (): Promise<string> => {
    const query = read().finally(() => {
      if (running === query) running = null;
    });
    running = query;
    return query;
  };
  return () => {
    if (!running) return start();
    // The running query may have started before this call: wait for the next one.
    queued ??= running.then(
      () => {
        queued = null;
        return start();
      },
      () => {
        queued = null;
        return start();
      },
    );
    return queued;
  };
}

export interface CatalogueCache {
  /** The current catalogue version, as the database says it now. */
  version(): Promise<string>;
  /**
   * The answer for `key` (a request's path and query) as a viewer with or without prices
   * sees it: kept when the catalogue has not changed since, else computed (as the JSON
   * text to send) and kept.
   */
  answer(key: string, priced: boolean, compute: () => Promise<string>): Promise<CachedAnswer>;
}

export function createCatalogueCache(db: Db): CatalogueCache {
  const version = freshVersionReader(async () => {
    const result = await db.execute(sql`SELECT version::text AS version FROM catalogue_version`);
    const rows = (result as unknown as { rows: { version: string }[] }).rows;
    return rows[0]?.version ?? '0';
  });
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.body.length;
    entries.delete(key);
  };

  return {
    version,
    async answer(key, priced, compute) {
      const fullKey = `${priced ? 'priced' : 'unpriced'} ${key}`;
      const current = await version();
      const kept = entries.get(fullKey);
      if (kept && kept.version === current) {
        // Most recently used last, so that the oldest is forgotten first.
        entries.delete(fullKey);
        entries.set(fullKey, kept);
        return { body: kept.body, etag: kept.etag };
      }
      // Computed after the version was read: it is at least as new as that version.
      const body = await compute();
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      forget(fullKey);
      entries.set(fullKey, { version: current, body, etag });
      bytes += body.length;
      for (const oldest of entries.keys()) {
        if (entries.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
        forget(oldest);
      }
      return { body, etag };
    },
  };
}

/** Whether an If-None-Match header names this ETag (a list, weak or strong, or "*"). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
