/** The server's settings, read once from the environment. */
import { resolve } from 'node:path';
import type { DatabaseConfig } from './db/database.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  staticDir: string;
  /** The app's server rendering of first screens (built with the app). */
  renderDir: string;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  }
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    database: env.DATABASE_URL
      ? { engine: 'postgres', url: env.DATABASE_URL }
      : { engine: 'pglite', dataDir: resolve(dataDir, 'db') },
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    renderDir: resolve(env.RENDER_DIR ?? 'dist-ssr'),
  };
}
