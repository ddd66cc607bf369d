/**
 * The back office's lists with a year's worth of data: a page of companies and of orders
 * (a few typical filters and sorts), each answered by the real server on the embedded
 * database after `npm run seed:large` added 10,000 companies and 100,000 orders. Each
 * figure is the median time of one request, asked one at a time as a staff member's
 * screen asks, after a warm-up.
 *
 * Run alone: `BENCH_ONLY=admin npx tsx tests/bench/run.ts` (no build needed: the server
 * serves the API only).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../server/postgres-cluster';
import { median } from './median';

export interface ListFigure {
  name: string;
  value: number;
  unit: string;
  goal: string;
  met: boolean;
}

/** The goal for a page of a staff list. */
const GOAL_MS = 50;
/** Requests timed per list: enough for a steady median on a shared 2-core machine. */
const RUNS = 30;
/** Requests first answered and not timed (the engine's caches, the JIT). */
const WARM_UP = 5;
const SIZES = { products: 100, companies: 10_000, orders: 100_000 };
const STAFF = { email: 'bench.admin@example.com', password: 'Bench-Admin-Password-1' };

const LISTS = [
  ['companies, newest first', '/api/admin/companies'],
  ['companies, a search', '/api/admin/companies?search=aurora%2012'],
  ['orders, newest first', '/api/admin/orders'],
  ['orders, page 50', '/api/admin/orders?page=50'],
  ['orders to confirm', '/api/admin/orders?status=PENDING'],
  ['orders of one company', '/api/admin/orders?companyId=5000'],
  ['orders, a number search', '/api/admin/orders?search=bn-00123'],
  [
    'orders, paid in a quarter',
    '/api/admin/orders?paymentStatus=PAID&from=2026-01-01&to=2026-03-31',
  ],
  ['orders by total', '/api/admin/orders?sortBy=total&sortOrder=desc'],
] as const;

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} ended with ${code}`)),
    );
  });
}

async function until(url: string): Promise<void> {
  for (let i = 0; i < 240; i += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer`);
}

export async function adminListTimes(): Promise<ListFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-admin-'));
  let server: ChildProcess | undefined;
  try {
    const started = Date.now();
    await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'server/scripts/seed-large.ts',
        String(SIZES.products),
        String(SIZES.companies),
        String(SIZES.orders),
      ],
      { DATA_DIR: dataDir },
    );
    console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const port = await freePort();
    server = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_EMAIL: STAFF.email,
        ADMIN_PASSWORD: STAFF.password,
        LOG_LEVEL: 'error',
      },
      stdio: 'ignore',
      detached: true,
    });
    const base = `http://127.0.0.1:${port}`;
    await until(`${base}/api/health`);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(STAFF),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}` };

    const figures: ListFigure[] = [];
    for (const [name, path] of LISTS) {
      const times: number[] = [];
      for (let i = 0; i < WARM_UP + RUNS; i += 1) {
        const start = performance.now();
        const response = await fetch(`${base}${path}`, { headers });
        const body = (await response.json()) as { pagination?: { total: number } };
        const elapsed = performance.now() - start;
        if (!response.ok || !body.pagination) throw new Error(`${path}: ${response.status}`);
        if (i >= WARM_UP) times.push(elapsed);
      }
      const value = Math.round(median(times) * 10) / 10;
      figures.push({
        name: `Back office, ${name} (${SIZES.companies.toLocaleString('en')} companies, ${SIZES.orders.toLocaleString('en')} orders, PGlite), median`,
        value,
        unit: 'ms',
        goal: `≤ ${GOAL_MS} ms`,
        met: value <= GOAL_MS,
      });
    }
    return figures;
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    // The server lets go of the data folder as it stops.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
