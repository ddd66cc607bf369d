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
    /**
     * The same versions without waiting, when they need no query (read by this request
     * already, or known to be the newest): null when `versions()` must be awaited.
     */
    knownVersions(): Versions | null;
  }
}

const READ = Symbol('versions read');
const KNOWN = Symbol('versions known');

type WithVersions = FastifyRequest & {
  [READ]: Promise<Versions> | null;
  [KNOWN]: Versions | null;
};

/** Methods that change nothing. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const changeVersionsPlugin = fp<{ versions: ChangeVersions }>(async (app, { versions }) => {
  app.decorateRequest(READ, null);
  app.decorateRequest(KNOWN, null);
  app.decorateRequest('versions', function (this: FastifyRequest) {
    const request = this as WithVersions;
    if (!request[READ]) {
      const known = request[KNOWN] ?? versions.known();
      request[KNOWN] = known;
      request[READ] = known
        ? Promise.resolve(known)
        : versions.read().then((read) => (request[KNOWN] = read));
    }
    return request[READ];
  });
  app.decorateRequest('knownVersions', function (this: FastifyRequest) {
    const request = this as WithVersions;
    // While a read is under way, its answer will be this request's versions.
    if (request[KNOWN] || request[READ]) return request[KNOWN];
    request[KNOWN] = versions.known();
    return request[KNOWN];
  });
  // A callback hook: reads, nearly every request, pass without a promise.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (READS.has(request.method)) return done(null, payload);
    // The change is made either way: the answer goes out, with a word in the log. The
    // chain cannot reject (a failure reads as seen), so nothing waits on it.
    void versions
      .seenEverywhere()
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'could not learn whether every process saw a change');
        return true;
      })
      .then((seen) => {
        if (!seen)
          request.log.warn(
            'a process did not record a change in time; it stops trusting its copies',
          );
        done(null, payload);
      });
  });
  app.addHook('onClose', () => versions.close());
});
