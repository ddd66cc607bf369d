/**
 * The portal each Playwright worker tests: a server of its own, on a port of its own, with a
 * fresh embedded database of demo data and its own copy of the built app. Workers therefore
 * run side by side without seeing each other's accounts, carts or service worker versions.
 * Every test file imports `test` and `expect` from here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { smtpListener, type SmtpListener } from '../server/smtp-listener';
import { STAFF } from './staff';

export { expect } from '@playwright/test';

export interface Portal {
  /** Where the worker's server answers, e.g. http://localhost:4310. */
  url: string;
  /** The copy of the built app this server sends; a test may change it (a new version). */
  staticDir: string;
  /** The e-mail the server sent: a real SMTP server of the worker's own (SMTP_URL). */
  mailbox: SmtpListener;
  /** Stops the server and starts it again on the same data, as a deployment does. */
  restart: () => Promise<void>;
}

/** The first worker's port; the others follow it. */
const FIRST_PORT = Number(process.env.E2E_PORT ?? 4310);
/** The build the tests run against (`npm run build`). */
const BUILT_APP = process.env.STATIC_DIR ?? 'dist';

async function untilHealthy(url: string, server: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(`The portal's server stopped (${server.exitCode}):\n${output()}`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The portal's server did not answer at ${url} within 90 s:\n${output()}`);
}

export const test = base.extend<object, { portal: Portal }>({
  portal: [
    async ({ browserName: _browserName }, use, workerInfo) => {
      const port = FIRST_PORT + workerInfo.parallelIndex;
      const url = `http://localhost:${port}`;
      const root = mkdtempSync(join(tmpdir(), `portal-e2e-${workerInfo.parallelIndex}-`));
      const staticDir = join(root, 'app');
      cpSync(BUILT_APP, staticDir, { recursive: true });
      const mailbox = await smtpListener();
      const stop = async (server: ChildProcess) => {
        if (server.exitCode === null) {
          server.kill('SIGTERM');
          await once(server, 'exit');
        }
      };
      const start = async () => {
        const server = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: join(root, 'data'),
            STATIC_DIR: staticDir,
            PUBLIC_URL: url,
            // The tests' API calls act as clients behind a proxy on this machine (see helpers.ts).
            TRUST_PROXY: '127.0.0.1, ::1',
            LOG_LEVEL: 'warn',
            ADMIN_EMAIL: STAFF.email,
            ADMIN_PASSWORD: STAFF.password,
            SMTP_URL: mailbox.url,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        const keep = (chunk: Buffer) => {
          output = (output + chunk.toString()).slice(-20_000);
        };
        server.stdout?.on('data', keep);
        server.stderr?.on('data', keep);
        try {
          await untilHealthy(url, server, () => output);
        } catch (error) {
          await stop(server);
          throw error;
        }
        return server;
      };
      let server: ChildProcess | null = null;
      try {
        server = await start();
        const restart = async () => {
          if (server) await stop(server);
          server = await start();
        };
        await use({ url, staticDir, mailbox, restart });
      } finally {
        if (server) await stop(server);
        await mailbox.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ portal }, use) => use(portal.url),
});
