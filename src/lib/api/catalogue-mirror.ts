/**
 * The catalogue for the device's mirror: one streamed answer (GET /api/products/mirror),
 * read line by line as it arrives.
 */
import type { MirrorLine } from '../../contracts/catalogue';
import { api } from './client';
import { readJsonLines } from './json-lines';

/**
 * The longest silence tolerated in the middle of the answer: a connection that stalls
 * (lie-fi at a fair) fails like a request that times out, instead of hanging the mirror.
 */
const MIRROR_IDLE_TIMEOUT_MS = 15_000;

/** Categories, batches of products, then the end line; only changes since `updatedSince`. */
export async function* fetchCatalogueMirror(params: {
  updatedSince?: string | undefined;
}): AsyncGenerator<MirrorLine> {
  const response = await api.get('products/mirror', {
    searchParams: params.updatedSince ? { updatedSince: params.updatedSince } : {},
  });
  if (!response.body) throw new TypeError('The catalogue answer has no body');
  yield* readJsonLines<MirrorLine>(response.body, { idleTimeoutMs: MIRROR_IDLE_TIMEOUT_MS });
}
