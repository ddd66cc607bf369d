import { defineConfig } from 'vitest/config';
import { compiledChecks } from './vite.config.js';

const serverProject = (name: string, db: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    include: [
      'tests/server/*.test.ts',
      // What only one engine has: several processes on one PostgreSQL, one embedded folder.
      db === 'postgres' ? 'tests/server/postgres/*.test.ts' : 'tests/server/embedded/*.test.ts',
    ],
    environment: 'node',
    env: { TEST_DB: db },
    // Each file gets its own database, a copy of one the global setup migrated.
    globalSetup: [
      db === 'postgres'
        ? 'tests/server/postgres-global-setup.ts'
        : 'tests/server/pglite-global-setup.ts',
    ],
    // One module graph per worker, not per file: importing the server (Fastify, Drizzle,
    // PGlite's WebAssembly) for each of some 25 files cost about a second each. Every file
    // still builds its own app and database; what the server keeps per process (the upload
    // gates, the key cache by database) is what one server process also shares.
    isolate: false,
    // vitest's default on two cores is one worker; the server files spend much of their
    // time waiting for PostgreSQL and for server processes they start, so two overlap.
    maxWorkers: 2,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  // The app's own modules the tests import (vite.config.ts is not read when this file is).
  plugins: [compiledChecks()],
  test: {
    // Every project: a loaded machine can take seconds where an idle one takes a fraction.
    testTimeout: 30_000,
    projects: [
      {
        extends: true as const,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      serverProject('server-pglite', 'pglite'),
      serverProject('server-postgres', 'postgres'),
    ],
  },
});
