/**
 * The change versions (services/change-versions.ts) as one request sees them: read once,
 * when the request first needs them (for its account, for a catalogue answer), after it
 * arrived, and shared by everything it does after.
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

export const changeVersionsPlugin = fp<{ versions: ChangeVersions }>(async (app, { versions }) => {
  app.decorateRequest(READ, null);
  app.decorateRequest('versions', function (this: FastifyRequest) {
    const request = this as FastifyRequest & { [READ]: Promise<Versions> | null };
    request[READ] ??= versions.read();
    return request[READ];
  });
  app.addHook('onClose', () => versions.close());
});
