/**
 * The catalogue for the device's mirror: one streamed answer (GET /api/products/mirror),
 * read line by line as it arrives, or 304 when the device holds that answer already.
 */
import type { MirrorLine } from '../../contracts/catalogue';
import { api } from './client';
import { statusOf } from './errors';
import { readJsonLines } from './json-lines';

/**
 * The longest silence tolerated in the middle of the answer: a connection that stalls
 * (lie-fi at a fair) fails like a request that times out, instead of hanging the mirror.
 */
const MIRROR_IDLE_TIMEOUT_MS = 15_000;

export interface MirrorRequest {
  /** Only products changed since this cursor; the whole catalogue without it. */
  updatedSince?: string | undefined;
  /** The ETag of the answer the device holds to this same request. */
  ifNoneMatch?: string | undefined;
}

export type MirrorAnswer =
  /** 304: the answer named by `ifNoneMatch` still holds; nothing was sent. */
  | { unchanged: true }
  /** Categories, batches of products, then the end line, and the ETag that names them. */
  | { unchanged: false; etag: string | undefined; lines: AsyncIterable<MirrorLine> };

export async function fetchCatalogueMirror(request: MirrorRequest): Promise<MirrorAnswer> {
  let response: Response;
  try {
    response = await api.get('products/mirror', {
      searchParams: request.updatedSince ? { updatedSince: request.updatedSince } : {},
      headers: request.ifNoneMatch ? { 'if-none-match': request.ifNoneMatch } : {},
      throwHttpErrors: (status) => status !== 304,
    });
  } catch (error) {
    // The retry after a renewed token answers through ky's default, which throws on 304.
    if (statusOf(error) === 304) return { unchanged: true };
    throw error;
  }
  if (response.status === 304) return { unchanged: true };
  if (!response.body) throw new TypeError('The catalogue answer has no body');
  return {
    unchanged: false,
    etag: response.headers.get('etag') ?? undefined,
    lines: readJsonLines<MirrorLine>(response.body, { idleTimeoutMs: MIRROR_IDLE_TIMEOUT_MS }),
  };
}
