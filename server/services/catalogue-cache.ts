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
import { promisify } from 'node:util';
import zlib, { brotliCompress, brotliCompressSync, gzip, gzipSync } from 'node:zlib';
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

/** The encoding for an answer of `size` characters to a caller that sent `acceptEncoding`. */
export function encodingFor(acceptEncoding: string | undefined, size: number): Encoding {
  if (size < COMPRESS_FROM_BYTES) return 'identity';
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

/** The whole catalogue's answer for a device's mirror, as kept (see MirrorCache). */
export interface KeptMirror {
  /** Bytes of the answer as it is. */
  size: number;
  /** The answer as sent in `encoding`: compressed the first time it is asked for so. */
  encoded(encoding: Encoding): Promise<Buffer>;
}

/**
 * The whole catalogue as a device's mirror first takes it (GET /api/products/mirror
 * without `updatedSince`): the same for every device of one class of viewer until the
 * catalogue changes, and the costliest answer the server gives (10,000 products are about
 * 7 MB of text and a second of reading on the embedded database). One is kept per class
 * of viewer, apart from the other answers, whose room it would take, and compressed once
 * per encoding, in the background pool rather than on the event loop.
 */
export interface MirrorCache {
  /** The answer for this class of viewer, when the one kept was computed at `version`. */
  kept(version: string, priced: boolean): KeptMirror | undefined;
  /** Keeps the answer computed at `version` (read before the answer began). */
  keep(version: string, priced: boolean, text: string): void;
}

const compressInBackground: Record<
  Exclude<Encoding, 'identity'>,
  (text: Buffer) => Promise<Buffer>
> = {
  br: (text) =>
    promisify(brotliCompress)(text, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: text.length,
      },
    }),
  gzip: (text) => promisify(gzip)(text),
};

export function createMirrorCache(): MirrorCache {
  const kept = new Map<boolean, KeptMirror & { version: string }>();
  return {
    kept(version, priced) {
      const entry = kept.get(priced);
      return entry?.version === version ? entry : undefined;
    },
    keep(version, priced, text) {
      const bytes = Buffer.from(text);
      const encodings = new Map<Encoding, Promise<Buffer>>([['identity', Promise.resolve(bytes)]]);
      kept.set(priced, {
        version,
        size: bytes.length,
        encoded(encoding) {
          let sent = encodings.get(encoding);
          if (!sent) {
            sent = compressInBackground[encoding as 'br' | 'gzip'](bytes);
            encodings.set(encoding, sent);
            // A failure is that request's; the next one compresses again.
            sent.catch(() => encodings.delete(encoding));
          }
          return sent;
        },
      });
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
