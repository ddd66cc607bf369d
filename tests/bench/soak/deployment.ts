/**
 * The soak's deployment, on one machine: a throwaway PostgreSQL, migrated and seeded by
 * the server's own code, then several server processes behind a round-robin balancer.
 *
 * Each process is what one machine of a real deployment runs (`server/start.ts`, here
 * with `--api-only`): its own port, its own pool, its own listening connection, its own
 * mail worker and its own data folder, started with only environment variables. That is
 * why the processes are separate programs on their own ports rather than `node:cluster`
 * workers: workers share one listening socket handed out by their primary (connections,
 * not requests, are spread), one environment and one data folder, which is one machine
 * with several cores, not several machines. The balancer (balancer.ts) spreads every
 * request in turn, as nginx or a cloud balancer does with keep-alive connections to its
 * upstreams, so that one salon's consecutive requests reach different processes; it sets
 * X-Forwarded-For, which the processes believe from it alone (TRUST_PROXY=127.0.0.1).
 */
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, like, not } from 'drizzle-orm';
import { openDatabase, type Database } from '../../../server/db/database';
import { migrate } from '../../../server/db/migrate';
import { seedLargeCatalogue } from '../../../server/db/seed';
import { seedLargeOrders } from '../../../server/db/seed-orders';
import { categories, companies, products, users } from '../../../server/db/schema';
import { ensureAdmin } from '../../../server/services/admin';
import { editProduct } from '../../../server/services/admin-catalogue';
import { openSession } from '../../../server/services/sessions';
import { inTransaction } from '../../../server/services/transactions';
import { freePort, startThrowawayCluster } from '../../server/postgres-cluster';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Generated products added to the demo range: a maker's full range with its sizes, so
 * that most products have stock to spare and only the demo range (the bestsellers) runs
 * out during a minute of orders.
 */
const GENERATED_PRODUCTS = 1_000;

/** Orders already in the database before the soak: a portal that has been in use. */
const PAST_ORDERS = 5_000;

/**
 * Units staff leave of a few bestsellers before the load, as of a small batch just put on
 * sale: they run out during the soak however slow the machine, and a checkout then meets
 * the documented 422. The rest of the range runs out only at a high rate of orders.
 */
const SCARCE_STOCK = [2, 3, 4, 5, 6, 8];

/** The staff account that sets those units, through the back office's own service. */
const SOAK_STAFF_EMAIL = 'soak.staff@example.com';

/**
 * How long a process may take to answer its first health check: tsx loads the server in
 * a few seconds, but four starting at once on two cores shared with other work have
 * needed more than a minute and a half.
 */
const START_TIMEOUT_MS = 180_000;

/** The end of a process's output kept to say why it did not start: its last lines. */
const OUTPUT_KEPT = 4_000;

/** How long a process may take to finish its requests and close its pool after SIGTERM. */
const STOP_TIMEOUT_MS = 10_000;

export interface Salon {
  userId: number;
  accessToken: string;
  refreshToken: string;
}

export interface Catalogue {
  /** Every product on sale, with its stock when the load began. */
  stockBefore: Map<number, number>;
  /** The demo range: what salons order most. */
  bestsellers: number[];
  /** Bestsellers with a few units left (SCARCE_STOCK): sought after, and soon gone. */
  scarce: number[];
  categoryIds: number[];
}

export interface ServerProcess {
  url: string;
  /** Its data folder: the e-mail it wrote without a mail server is in `mail/` there. */
  dataDir: string;
  child: ChildProcess;
  /** The lines it logged at level error or above (pino's JSON, level 50 and up). */
  errors: string[];
  /** The end of what it printed, to say why it did not start. */
  tail(): string;
  exited: Promise<void>;
}

export interface Deployment {
  database: Database;
  salons: Salon[];
  catalogue: Catalogue;
  processes: ServerProcess[];
  /** The address clients use: the balancer's. */
  url: string;
  balancerPid: number;
  /** Stops the processes (they finish what they were doing), keeps the database. */
  stopServers(): Promise<void>;
  /** Stops everything and removes the database and the data folders; safe to call twice. */
  close(): Promise<void>;
}

/** Approved salon users, each with a session opened as sign-in opens one. */
async function seedSalons(database: Database, count: number): Promise<Salon[]> {
  // The seeder's status spread makes four companies in seven approved: twice as many
  // companies as salons wanted leaves enough approved ones.
  await seedLargeOrders(database.db, { companies: count * 2, orders: PAST_ORDERS });
  const rows = await database.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(companies.status, 'APPROVED'), like(users.email, 'bench.company.%')))
    .orderBy(asc(users.id))
    .limit(count);
  if (rows.length < count) throw new Error(`Only ${rows.length} approved salons were seeded`);
  const salons: Salon[] = [];
  for (const { id } of rows) {
    salons.push({ userId: id, ...(await openSession(database.db, id)) });
  }
  return salons;
}

/** Sets a few bestsellers' stock to SCARCE_STOCK as staff would: the ids of those products. */
async function limitStock(database: Database): Promise<number[]> {
  const { db } = database;
  await ensureAdmin(db, SOAK_STAFF_EMAIL, randomUUID());
  const [staff] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(eq(users.email, SOAK_STAFF_EMAIL));
  if (!staff) throw new Error('The staff account of the soak was not made');
  const inStock = await db
    .select({ id: products.id })
    .from(products)
    .where(and(not(like(products.sku, 'BN-%')), gt(products.stock, 0)))
    .orderBy(asc(products.id))
    .limit(SCARCE_STOCK.length);
  for (const [index, { id }] of inStock.entries()) {
    await inTransaction(db, (tx) =>
      editProduct(tx, id, { stock: SCARCE_STOCK[index] as number }, staff),
    );
  }
  return inStock.map(({ id }) => id);
}

async function readCatalogue(database: Database, scarce: number[]): Promise<Catalogue> {
  const rows = await database.db
    .select({ id: products.id, sku: products.sku, stock: products.stock })
    .from(products)
    .where(eq(products.active, true));
  const cats = await database.db.select({ id: categories.id }).from(categories);
  return {
    stockBefore: new Map(rows.map((row) => [row.id, row.stock])),
    // Generated products' SKUs start with BN-; the rest is the demo range.
    bestsellers: rows.filter((row) => !row.sku.startsWith('BN-')).map((row) => row.id),
    scarce,
    categoryIds: cats.map((c) => c.id),
  };
}

async function answersHealth(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false;
  }
}

function startProcess(
  databaseUrl: string,
  dataDir: string,
  port: number,
  publicUrl: string,
): ServerProcess {
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      // Only the balancer on the loopback address may name the client's address.
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // No mail server: each process writes the e-mail it sends into its own data folder.
      SMTP_URL: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  let partial = '';
  let output = '';
  const read = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const level = /^\{"level":(\d+)/.exec(line)?.[1];
      if (level !== undefined && Number(level) >= 50) errors.push(line);
      // A line that is not the log's JSON (a crash's stack) is kept too.
      else if (level === undefined && /error/i.test(line)) errors.push(line);
    }
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, dataDir, child, errors, tail: () => output, exited };
}

async function waitForHealth(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answersHealth(server.url))) {
    if (server.child.exitCode !== null) {
      throw new Error(`A server process exited at start:\n${server.tail()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`${server.url} did not answer at start:\n${server.tail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** The balancer, a program of its own (balancer.ts) so that it takes no time from the load. */
async function startBalancer(
  port: number,
  upstreams: string[],
): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./balancer.ts', import.meta.url)), [], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BALANCER_PORT: String(port),
      BALANCER_UPSTREAMS: upstreams.join(','),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`The balancer exited with ${code}`)));
  });
  // Its one message is said: an open channel would keep both programs running.
  child.disconnect();
  return { child, exited };
}

export async function deploy(options: {
  processes: number;
  salons: number;
  log: (line: string) => void;
}): Promise<Deployment> {
  const { log } = options;
  const cluster = await startThrowawayCluster();
  const folder = mkdtempSync(join(tmpdir(), 'portal-soak-'));
  let database: Database | undefined;
  const processes: ServerProcess[] = [];
  let balancer: { child: ChildProcess; exited: Promise<void> } | undefined;
  // Ended with the soak, however it ends: no server is left behind by a crash or Ctrl-C.
  const killAll = () => {
    for (const server of processes) server.child.kill('SIGKILL');
    balancer?.child.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const interrupted = () => void close().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);

  const stopServers = async () => {
    await Promise.all(processes.map((server) => stopChild(server.child, server.exited)));
    if (balancer) await stopChild(balancer.child, balancer.exited);
  };
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      await stopServers();
      await database?.close();
    } finally {
      process.off('exit', killAll);
      process.off('SIGINT', interrupted);
      cluster.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  };

  try {
    log('Migrating and seeding a throwaway PostgreSQL…');
    database = await openDatabase({ engine: 'postgres', url: cluster.url });
    await migrate(database.db);
    await seedLargeCatalogue(database.db, GENERATED_PRODUCTS);
    const salons = await seedSalons(database, options.salons);
    const catalogue = await readCatalogue(database, await limitStock(database));

    const ports = await Promise.all(
      Array.from({ length: options.processes + 1 }, () => freePort()),
    );
    const balancerPort = ports[0] as number;
    const url = `http://127.0.0.1:${balancerPort}`;
    log(`Starting ${options.processes} server processes…`);
    for (const [i, port] of ports.slice(1).entries()) {
      processes.push(startProcess(cluster.url, join(folder, `machine-${i + 1}`), port, url));
    }
    await Promise.all(processes.map(waitForHealth));
    balancer = await startBalancer(
      balancerPort,
      processes.map((server) => server.url),
    );
    const balancerPid = balancer.child.pid ?? 0;
    return { database, salons, catalogue, processes, url, balancerPid, stopServers, close };
  } catch (error) {
    await close();
    throw error;
  }
}
