/**
 * A cache of catalogue answers (product pages, products, categories), shared by every
 * request of one server process and never stale across processes: an answer is kept under
 * the catalogue version it was computed at and served only while the database still says
 * that version (see change-versions.ts).
 *
 * Answers differ only by whether prices are shown (every approved company sees the same
 * prices), so that is the only part of the viewer in the key.
 */
import { createHash } from 'node:crypto';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';

/** Answers kept per process: the catalogue's pages, searches and products most asked for. */
const MAX_ENTRIES = 2_000;
/** Memory the kept answers may take (a page of 100 products is about 80 KB). */
const MAX_BYTES = 48 * 1024 * 1024;

/** How an answer travels: as it is, or compressed for a caller that takes it so. */
export type Encoding = 'identity' | 'br' | 'gzip';

export interface CachedAnswer {
  /** The answer: JSON text. */
  body: string;
  /**
   * The answer as sent in `encoding`, with a strong validator of exactly those bytes (for
   * If-None-Match). Encoded once per kept answer (the text too), not once per request.
   */
  encoded(encoding: Encoding): { bytes: Buffer; etag: string };
}

interface Entry extends CachedAnswer {
  version: string;
}

/** Smaller answers go as they are: compressing them saves less than it costs. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Accept-Encoding headers already read, and what each chose: a browser sends the same one
 * with every request, so it is parsed once. Bounded, as callers may send anything.
 */
const chosen = new LRUCache<string, Encoding>({ max: 256 });

/** The encoding for an answer of `body` to a caller that sent `acceptEncoding`. */
export function encodingFor(acceptEncoding: string | undefined, body: string): Encoding {
  if (body.length < COMPRESS_FROM_BYTES) return 'identity';
  if (!acceptEncoding) return 'identity';
  let encoding = chosen.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = negotiate<Encoding>(acceptEncoding, ['br', 'gzip']) ?? 'identity';
    chosen.set(acceptEncoding, encoding);
  }
  return encoding;
}

const compressors: Record<Exclude<Encoding, 'identity'>, (body: string) => Buffer> = {
  // Quality 5: most of the size gain of 11 at a small part of its time.
  br: (body) => brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (body) => gzipSync(body),
};

function keptAnswer(version: string, body: string): Entry {
  const etag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const encodings = new Map<Encoding, { bytes: Buffer; etag: string }>([
    ['identity', { bytes: Buffer.from(body), etag: `"${etag}"` }],
  ]);
  return {
    version,
    body,
    encoded(encoding) {
      let sent = encodings.get(encoding);
      if (!sent) {
        sent = {
          bytes: compressors[encoding as 'br' | 'gzip'](body),
          etag: `"${etag}-${encoding}"`,
        };
        encodings.set(encoding, sent);
      }
      return sent;
    },
  };
}

export interface CatalogueCache {
  /**
   * The answer for `key` as a viewer with or without prices sees it, when one is kept that
   * was computed at the catalogue version `version` (as the database says it now).
   */
  kept(version: string, key: string, priced: boolean): CachedAnswer | undefined;
  /**
   * The answer for `key` (a request's path and query) as a viewer with or without prices
   * sees it at the catalogue version `version` (as the database says it now): kept when
   * computed at that version, else computed (as the JSON text to send) and kept.
   */
  answer(
    version: string,
    key: string,
    priced: boolean,
    compute: () => Promise<string>,
  ): Promise<CachedAnswer>;
}

export function createCatalogueCache(): CatalogueCache {
  const entries = new LRUCache<string, Entry>({
    max: MAX_ENTRIES,
    maxSize: MAX_BYTES,
    // The text, its bytes and up to two compressed copies, each smaller than the text.
    sizeCalculation: (entry) => Math.max(1, entry.body.length * 3),
  });

  const keyOf = (key: string, priced: boolean) => `${priced ? 'priced' : 'unpriced'} ${key}`;

  function kept(current: string, key: string, priced: boolean): Entry | undefined {
    const entry = entries.get(keyOf(key, priced));
    return entry?.version === current ? entry : undefined;
  }

  return {
    kept,
    async answer(current, key, priced, compute) {
      const found = kept(current, key, priced);
      if (found) return found;
      // Computed after the version was read: it is at least as new as that version.
      const entry = keptAnswer(current, await compute());
      entries.set(keyOf(key, priced), entry);
      return entry;
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
