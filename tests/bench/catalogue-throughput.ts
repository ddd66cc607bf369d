/**
 * Catalogue API throughput beside a bare Fastify "hello world" measured in the same run on
 * the same machine: the portal's catalogue reads (list, search, category, product,
 * categories) as a visitor, a company waiting for verification and an approved company,
 * on the embedded database and on PostgreSQL, each as requests per second and as a share
 * of the hello world's. Every answer is also checked: prices only for the approved buyer.
 * For reference, two more are measured the same way: a bare Fastify sending the list's own
 * bytes, the share an answer of that size reaches with no work at all, and the portal's
 * simplest answer, what any request of the portal reaches. On this 2-core machine, in one
 * run, they were 0.87 and 0.72, and the list itself 0.72: a catalogue read costs no more
 * than the portal's simplest answer, and what both lack is the portal's work per request.
 *
 * Both are asked as the app's browser asks (accepting compressed answers), over 10
 * connections. Each read is measured in turns with the hello world (1 s of one, 1 s of the
 * other, five times, after a warm-up of each), and its ratio is the median of the five
 * turns' ratios: a machine shared with other work speeds up and slows down by half within
 * seconds (one turn's ratio of the same read was 0.38 and another's 0.85 in one run), turns
 * this short see the same machine, and the median leaves out the turn that did not.
 *
 * On a machine of several cores the servers (hello world, the portal and its PostgreSQL)
 * run on the first core and the load tool on the others, so that neither takes CPU time
 * from the other: sharing cores, the load tool (which buffers every response body) costs
 * the server more for a larger answer, and the ratio measured the tool as much as the
 * server. Both servers get the same single core, as a Node process uses one anyway.
 *
 * Run alone: `npx tsx tests/bench/catalogue-throughput.ts`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { openDatabase } from '../../server/db/database';
import { DEMO_ACCOUNTS } from '../../server/db/demo-accounts';
import { migrate } from '../../server/db/migrate';
import { seedDatabase } from '../../server/db/seed';
import { freePort, startThrowawayCluster } from '../server/postgres-cluster';
import { median } from './median';

export interface ThroughputFigure {
  name: string;
  value: number;
  unit: string;
  goal: string;
  met: boolean;
}

/** One turn of a read or of the hello world. */
const TURN_SECONDS = Number(process.env.BENCH_API_SECONDS ?? 1);
/** Turns of each, taken alternately: the ratio is their median. */
const TURNS = 5;
/** Concurrent connections, as a handful of busy browsers or a proxy would keep open. */
const CONNECTIONS = 10;
/** The goal: catalogue reads at half a bare server's rate or better. */
const GOAL_RATIO = 0.5;

const READS = [
  ['list', '/api/products'],
  ['search', '/api/products?search=shampoo'],
  ['category', '/api/products?categoryId=2&sortBy=price'],
  ['product', '/api/products/7'],
  ['categories', '/api/products/categories'],
] as const;

const CORES = availableParallelism();
/** Whether the servers and the load tool can have cores of their own (`taskset`, Linux). */
const PINNED = CORES > 1 && canPin();

function canPin(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Moves this process (every thread) to the given cores: the servers it starts meanwhile
 * inherit them, and the load tool runs on the cores it is moved to afterwards.
 */
function runOn(cores: string): void {
  if (PINNED)
    execFileSync('taskset', ['-a', '-c', '-p', cores, String(process.pid)], { stdio: 'ignore' });
}
const SERVER_CORE = '0';
const LOAD_CORES = `1-${CORES - 1}`;
const ALL_CORES = `0-${CORES - 1}`;

/** Starts a server (or the database) on the servers' core; the load tool keeps its own. */
async function onServerCore<T>(start: () => Promise<T>): Promise<T> {
  runOn(SERVER_CORE);
  try {
    return await start();
  } finally {
    runOn(LOAD_CORES);
  }
}

async function until(url: string): Promise<void> {
  for (let i = 0; i < 240; i += 1) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer`);
}

function stop(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * A bare Fastify server on the servers' core: the hello world, or (given `body`, a file of
 * bytes compressed with brotli) a route sending those bytes as a catalogue answer is sent.
 */
async function bareServer(body?: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const route = body
    ? `const bytes = readFileSync(${JSON.stringify(body)});
       app.get('/', (request, reply) => {
         reply.header('content-encoding', 'br').type('application/json; charset=utf-8').send(bytes);
       });`
    : `app.get('/', async () => ({ hello: 'world' }));`;
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import Fastify from 'fastify';
       import { readFileSync } from 'node:fs';
       const app = Fastify();
       ${route}
       await app.listen({ port: ${port}, host: '127.0.0.1' });`,
    ],
    { stdio: 'ignore', detached: true },
  );
  const url = `http://127.0.0.1:${port}/`;
  await until(url);
  return { url, child };
}

/** An answer's bytes as they travel, compressed with brotli (fetch would decompress them). */
function brotliBytes(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'br' } }, (response) => {
      if (response.headers['content-encoding'] !== 'br') {
        response.resume();
        reject(new Error(`${url} came without brotli`));
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * The same bare server sending the bytes of the list a visitor gets, beside the hello
 * world: the most an answer of that size can reach on this machine, whatever the route
 * does, so that a low ratio can be told apart from a large answer.
 */
async function sameBytesCeiling(base: string, hello: string): Promise<ThroughputFigure> {
  const bytes = await brotliBytes(`${base}/api/products`);
  const folder = mkdtempSync(join(tmpdir(), 'portal-bench-bytes-'));
  const file = join(folder, 'list.br');
  writeFileSync(file, bytes);
  const bare = await onServerCore(() => bareServer(file));
  try {
    return ratioFigure(
      `Reference: a bare Fastify sending the visitor list's ${bytes.length} bytes`,
      await inTurns(bare.url, {}, hello),
    );
  } finally {
    stop(bare.child);
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The portal's simplest answer (the maker's details: a few hundred bytes kept in memory)
 * beside the hello world: what every request of the portal costs before its route does
 * anything (the logger, the security headers, the session and version checks).
 */
async function simplestAnswer(base: string, hello: string): Promise<ThroughputFigure> {
  return ratioFigure(
    "Reference: the portal's simplest answer (GET /api/maker)",
    await inTurns(`${base}/api/maker`, {}, hello),
  );
}

async function portal(env: NodeJS.ProcessEnv): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
    stdio: 'ignore',
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  await until(`${base}/api/health`);
  return { base, child };
}

/** Before each measure: the server's code compiled for the route, as after any start. */
const WARM_UP_SECONDS = 1;
/** What Chromium sends with every request of the app: answers may come compressed. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

async function requests(url: string, headers: Record<string, string>, seconds: number) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  return result.requests.total;
}

/**
 * Requests per second of `url` and of the hello world, measured in turns after a warm-up
 * of each (the server's code compiled for the route, as after any start), and the median
 * of the turns' ratios of one to the other.
 */
async function inTurns(url: string, viewerHeaders: Record<string, string>, hello: string) {
  const headers = { ...BROWSER_HEADERS, ...viewerHeaders };
  await requests(hello, BROWSER_HEADERS, WARM_UP_SECONDS);
  await requests(url, headers, WARM_UP_SECONDS);
  let read = 0;
  let bare = 0;
  const ratios: number[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const bareTurn = await requests(hello, BROWSER_HEADERS, TURN_SECONDS);
    const readTurn = await requests(url, headers, TURN_SECONDS);
    bare += bareTurn;
    read += readTurn;
    ratios.push(readTurn / bareTurn);
  }
  const seconds = TURNS * TURN_SECONDS;
  return { read: read / seconds, bare: bare / seconds, ratio: median(ratios) };
}

/** A measure in turns as a figure: against `goal` when given, else for reference. */
function ratioFigure(
  what: string,
  rate: Awaited<ReturnType<typeof inTurns>>,
  goal?: number,
): ThroughputFigure {
  return {
    name: `${what}: ${Math.round(rate.read)} req/s, hello world ${Math.round(rate.bare)}, median of ${TURNS} turns' ratios`,
    value: Math.round(rate.ratio * 100) / 100,
    unit: '×',
    goal: goal === undefined ? 'reference' : `≥ ${goal}`,
    met: goal === undefined || rate.ratio >= goal,
  };
}

/** The demo catalogue and demo accounts on the throwaway PostgreSQL. */
async function seedDemoData(url: string): Promise<void> {
  const database = await openDatabase({ engine: 'postgres', url });
  try {
    await migrate(database.db);
    await seedDatabase(database.db, { demoAccounts: true });
  } finally {
    await database.close();
  }
}

async function tokenOf(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email}: ${response.status}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

async function viewersOf(base: string): Promise<[string, Record<string, string>][]> {
  const viewers: [string, Record<string, string>][] = [['visitor', {}]];
  for (const demo of DEMO_ACCOUNTS) {
    const token = await tokenOf(base, demo.email, demo.password);
    const name = demo.company.status === 'APPROVED' ? 'approved' : 'pending';
    viewers.push([name, { authorization: `Bearer ${token}` }]);
  }
  // Each viewer sees what it may: prices for the approved buyer only.
  for (const [name, headers] of viewers) {
    const body = (await (await fetch(`${base}/api/products/7`, { headers })).json()) as {
      product: { price?: number };
    };
    if ((body.product.price !== undefined) !== (name === 'approved')) {
      throw new Error(`${name} got the wrong product answer: ${JSON.stringify(body)}`);
    }
  }
  return viewers;
}

export async function catalogueThroughput(): Promise<ThroughputFigure[]> {
  const figures: ThroughputFigure[] = [];
  const hello = await onServerCore(() => bareServer());
  figures.push({
    name: PINNED
      ? `Cores: the servers on core ${SERVER_CORE}, the load tool on ${LOAD_CORES}`
      : 'Cores: servers and load tool share them',
    value: CORES,
    unit: 'cores',
    goal: 'reference',
    met: true,
  });
  const cluster = await onServerCore(startThrowawayCluster);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-api-'));
  try {
    const engines = [
      ['PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' }],
      ['PostgreSQL', { DATABASE_URL: cluster.url }],
    ] as const;
    for (const [engine, env] of engines) {
      // A PostgreSQL deployment gets no demo accounts at its first start: the viewers'
      // accounts are seeded here first, as on the embedded database.
      if (engine === 'PostgreSQL') await seedDemoData(cluster.url);
      const server = await onServerCore(() => portal(env));
      try {
        const viewers = await viewersOf(server.base);
        for (const [viewer, headers] of viewers) {
          for (const [read, path] of READS) {
            const rate = await inTurns(`${server.base}${path}`, headers, hello.url);
            figures.push(ratioFigure(`${engine} ${read} as ${viewer}`, rate, GOAL_RATIO));
            if (engine === 'PGlite' && viewer === 'visitor' && read === 'list') {
              figures.push(await sameBytesCeiling(server.base, hello.url));
              figures.push(await simplestAnswer(server.base, hello.url));
            }
          }
        }
      } finally {
        stop(server.child);
      }
    }
  } finally {
    runOn(ALL_CORES);
    stop(hello.child);
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const f of await catalogueThroughput()) {
    console.log(`${f.met ? '✓' : '✗'} ${f.name}: ${f.value} ${f.unit} (goal ${f.goal})`);
  }
  process.exit(0);
}
