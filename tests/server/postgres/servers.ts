/**
 * Real server processes for the PostgreSQL suite: what a deployment with several stateless
 * processes behind a load balancer does, which Fastify's inject (one process, one pool)
 * cannot show. Each process is `server/start.ts --api-only` on its own port, with
 * DATABASE_URL set to the test's database.
 *
 *   const servers = await startServers(testDb.url, 2);
 *   await fetch(`${servers.urls[0]}/api/health`);
 *   await servers.stop();
 *
 * start.ts migrates (under an advisory lock) and seeds an empty database with the demo
 * catalogue and demo accounts. Seeding takes no lock, so the first process is started
 * alone and the others once it answers: they find the database seeded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../postgres-cluster';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * How long a process may take to answer its first health check: loading the server
 * through tsx and migrating take a few seconds, more while other test files share the
 * two cores.
 */
const START_TIMEOUT_MS = 90_000;

/** Pause between health checks while a process starts: quick to notice, light on the cores. */
const HEALTH_POLL_MS = 100;

/** How long a process may take to close its pool after SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 5_000;

export interface Servers {
  /** Base address of each process, such as http://127.0.0.1:41234 (no trailing slash). */
  urls: string[];
  /** Stops every process (SIGTERM, then SIGKILL if one lingers); safe to call twice. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra environment of the processes (ADMIN_EMAIL, LOG_LEVEL…). */
  env?: Record<string, string>;
}

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

async function startOne(
  databaseUrl: string,
  dataDir: string,
  options: StartOptions,
): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      // The test database, not one a developer's shell points at.
      DATABASE_URL: databaseUrl,
      // The e-mail the processes queue is written here, not to the developer's data folder.
      DATA_DIR: dataDir,
      SMTP_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    // The last lines are enough to say why a process did not start.
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server process exited before it answered:\n${output}`);
    }
    const healthy = await fetch(`${url}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) return { child, url, exited };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `The server process did not answer within ${START_TIMEOUT_MS} ms:\n${output}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
  }
}

async function stopOne({ child, exited }: Running): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `count` server processes on `databaseUrl` and resolves once each answers
 * `GET /api/health`. If one fails to start, those already started are stopped.
 */
export async function startServers(
  databaseUrl: string,
  count: number,
  options: StartOptions = {},
): Promise<Servers> {
  const running: Running[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-servers-'));
  // A test run that ends without its afterAll (a crash, a timeout) leaves no server behind.
  const killAll = () => {
    for (const { child } of running) child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const stop = async () => {
    process.off('exit', killAll);
    await Promise.all(running.splice(0).map(stopOne));
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    running.push(await startOne(databaseUrl, dataDir, options));
    const others = await Promise.allSettled(
      Array.from({ length: count - 1 }, () => startOne(databaseUrl, dataDir, options)),
    );
    for (const outcome of others) if (outcome.status === 'fulfilled') running.push(outcome.value);
    const failed = others.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: running.map((r) => r.url), stop };
}
