/**
 * The change versions (services/change-versions.ts) as one request sees them: read once,
 * when the request first needs them (for its account, for a catalogue answer), after it
 * arrived, and shared by everything it does after.
 *
 * A request that may have changed something is answered only once every server process
 * has been told of its change, so that none serves a copy the change outdated after the
 * client was told it is done.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ChangeVersions, Versions } from '../services/change-versions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The versions as the database said them once this request needed them. */
    versions(): Promise<Versions>;
  }
}

const READ = Symbol('versions read');

/** Methods that change nothing. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const changeVersionsPlugin = fp<{ versions: ChangeVersions }>(async (app, { versions }) => {
  app.decorateRequest(READ, null);
  app.decorateRequest('versions', function (this: FastifyRequest) {
    const request = this as FastifyRequest & { [READ]: Promise<Versions> | null };
    request[READ] ??= versions.read();
    return request[READ];
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    if (READS.has(request.method)) return payload;
    // The change is made either way: the answer goes out, with a word in the log.
    const seen = await versions.seenEverywhere().catch((error: unknown) => {
      request.log.error({ err: error }, 'could not learn whether every process saw a change');
      return true;
    });
    if (!seen)
      request.log.warn('a process did not record a change in time; it stops trusting its copies');
    return payload;
  });
  app.addHook('onClose', () => versions.close());
});
