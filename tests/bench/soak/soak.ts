/**
 * `npm run soak`: several server processes on one PostgreSQL under a mixed load, then
 * the database checked against what the salons were told.
 *
 * 1. A throwaway PostgreSQL (the machine's binaries, as the server tests start one),
 *    migrated and seeded by the server's own seeders: the demo range plus 1,000 generated
 *    products, a few hundred approved salons, each with a session (deployment.ts).
 * 2. SOAK_PROCESSES server processes (4) behind a round-robin balancer on the loopback
 *    address, each as one machine of a deployment runs it.
 * 3. SOAK_SECONDS (60) of load after a short warm-up, SOAK_CONNECTIONS (32) requests in
 *    flight: 80 % catalogue reads, 15 % cart changes, 5 % checkouts, every write with an
 *    Idempotency-Key and some sent again, also to two processes at once (load.ts).
 * 4. Requests per second, p50/p99 per kind, 5xx and unexpected answers, and the CPU time
 *    each party spent per request (cpu.ts: on a machine shared with other work, the
 *    figure that carries over to another machine); then, once the processes have
 *    stopped, the checks against the database (checks.ts). The exit code is 1 when a
 *    check fails, a 5xx or an unexpected answer included.
 *
 * Products running out is part of the load: a cart change or checkout then answers 422,
 * as documented, which is counted apart and is not a failure.
 *
 * `npm run test:soak`, part of `npm test`, runs it for 10 s with 60 salons: the same
 * processes, mix and checks, over fewer orders.
 */
import { availableParallelism, loadavg } from 'node:os';
import { sql, type SQL } from 'drizzle-orm';
import { checkDatabase, type Check } from './checks';
import { deploy } from './deployment';
import {
  postmasterOf,
  snapshot,
  spent,
  type CpuFigures,
  type CpuSnapshot,
  type Parties,
} from './cpu';
import { client } from './http';
import { KINDS, runLoad, type Stats } from './load';

function setting(name: string, fallback: number, least: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < least) {
    throw new Error(
      `${name} must be a whole number of at least ${least}, not "${process.env[name]}"`,
    );
  }
  return value;
}

/** A minute: long enough for a steady rate and for the scarce products to run out. */
const SECONDS = setting('SOAK_SECONDS', 60, 1);
/**
 * Four processes: more than the cores, so that a change made through one must reach
 * others that are busy, as on a deployment under load.
 */
const PROCESSES = setting('SOAK_PROCESSES', 4, 1);
/** A few hundred salons, each with a session and a cart. */
const SALONS = setting('SOAK_SALONS', 300, 1);
/**
 * Requests in flight: enough to keep four processes and PostgreSQL busy on two cores
 * without letting queues, rather than the servers, make the latencies.
 */
const CONNECTIONS = setting('SOAK_CONNECTIONS', 32, 1);
/**
 * Not counted: the JIT compiling the routes and the pools opening their connections. A
 * process here answers at a fraction of its speed for its first five seconds or so.
 */
const WARM_UP_SECONDS = 10;

const log = (line: string) => console.log(line);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function printFigures(stats: Stats): void {
  const elapsed = (stats.ended - stats.started) / 1000;
  const rows = KINDS.map((kind) => {
    const sorted = [...(stats.latencies.get(kind) ?? [])].sort((a, b) => a - b);
    const answers = [...(stats.statuses.get(kind) ?? new Map<string, number>())]
      .sort(([, a], [, b]) => b - a)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    return {
      kind,
      n: sorted.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      answers,
    };
  }).filter((row) => row.n > 0);
  const width = Math.max(...rows.map((row) => row.kind.length), 5);
  log(`${'kind'.padEnd(width)}  requests  share  p50 ms  p99 ms  answers`);
  for (const row of rows) {
    log(
      `${row.kind.padEnd(width)}  ${String(row.n).padStart(8)}  ${((row.n / stats.total) * 100).toFixed(1).padStart(4)}%  ${row.p50.toFixed(1).padStart(6)}  ${row.p99.toFixed(1).padStart(6)}  ${row.answers}`,
    );
  }
  const all = [...stats.latencies.values()].flat().sort((a, b) => a - b);
  log(
    `${'all'.padEnd(width)}  ${String(stats.total).padStart(8)}         ${percentile(all, 50).toFixed(1).padStart(6)}  ${percentile(all, 99).toFixed(1).padStart(6)}`,
  );
  log(`\n${Math.round(stats.total / elapsed)} requests/s over ${elapsed.toFixed(1)} s`);
  const unexpected = [...stats.unexpected.values()].reduce((sum, { count }) => sum + count, 0);
  log(
    `5xx answers: ${stats.serverErrors} (goal 0); other unexpected answers: ${unexpected - stats.serverErrors - stats.noAnswer}; without an answer: ${stats.noAnswer}`,
  );
}

const seconds = (value: number) => `${value.toFixed(1)} s`;
const perRequest = (value: number, requests: number) =>
  `${((value * 1000) / Math.max(1, requests)).toFixed(2)} ms a request`;

function printCpu(figures: CpuFigures | null, stats: Stats): void {
  if (!figures) return;
  const cores = availableParallelism();
  const elapsed = (stats.ended - stats.started) / 1000;
  const requests = stats.total;
  log(
    `CPU time over the ${seconds(elapsed)} counted (${cores} cores: ${seconds(cores * elapsed)} in all):`,
  );
  log(`  server processes ${seconds(figures.servers)}, ${perRequest(figures.servers, requests)}`);
  log(`  PostgreSQL       ${seconds(figures.postgres)}, ${perRequest(figures.postgres, requests)}`);
  log(`  balancer         ${seconds(figures.balancer)}, ${perRequest(figures.balancer, requests)}`);
  log(`  load tool        ${seconds(figures.tool)}, ${perRequest(figures.tool, requests)}`);
  if (figures.others !== null) log(`  other work on the machine ${seconds(figures.others)}`);
  const total = figures.servers + figures.postgres + figures.balancer + figures.tool;
  // A rough bound: on a crowded machine each request costs more CPU time (caches shared,
  // more switching), so a machine of their own would likely do somewhat better.
  log(
    `  all four parties ${perRequest(total, requests)}: about ${Math.round((cores * requests) / Math.max(total, 0.001))} requests/s on ${cores} cores of their own`,
  );
}

function runChecks(stats: Stats): Check[] {
  const unexpected = [...stats.unexpected].map(
    ([name, { count, example }]) => `${name} ×${count} (${example})`,
  );
  return [
    {
      name: 'no 5xx answers (goal 0)',
      passed: stats.serverErrors === 0,
      detail: `${stats.serverErrors} 5xx, ${stats.noAnswer} without an answer`,
    },
    {
      name: 'no unexpected answers',
      passed: stats.unexpected.size === 0 && stats.noAnswer === 0,
      detail:
        unexpected.length === 0 ? 'every answer documented for its request' : unexpected.join('; '),
    },
  ];
}

const deployment = await deploy({ processes: PROCESSES, salons: SALONS, log });
let failed = true;
try {
  const { db } = deployment.database;
  const firstRow = async <T>(query: SQL) => ((await db.execute(query)) as { rows: T[] }).rows[0];
  const pgVersion = (await firstRow<{ server_version: string }>(sql`SHOW server_version`))
    ?.server_version;
  log(
    `Soak: ${PROCESSES} server processes behind a round-robin balancer, PostgreSQL ${pgVersion}, ` +
      `${SALONS} approved salons, ${CONNECTIONS} requests in flight, ${SECONDS} s after a ${WARM_UP_SECONDS} s warm-up, ` +
      `${deployment.catalogue.stockBefore.size} products, ${availableParallelism()} cores shared by everything ` +
      `(load average before the load: ${loadavg()[0]?.toFixed(1)})`,
  );
  const balancer = client(deployment.url, CONNECTIONS);
  const direct = deployment.processes.map((server) => client(server.url, CONNECTIONS));
  const backend = await firstRow<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
  const parties: Parties = {
    servers: deployment.processes.map((server) => server.child.pid ?? 0),
    balancer: deployment.balancerPid,
    postmaster: postmasterOf(backend?.pid ?? 0),
  };
  let cpuBefore: CpuSnapshot | undefined;
  let cpuAfter: CpuSnapshot | undefined;
  const { stats, outcomes } = await runLoad({
    balancer,
    processes: direct,
    salons: deployment.salons,
    catalogue: deployment.catalogue,
    connections: Math.min(CONNECTIONS, SALONS),
    warmUpSeconds: WARM_UP_SECONDS,
    seconds: SECONDS,
    onCounting: () => (cpuBefore = snapshot(parties)),
    onEnd: () => (cpuAfter = snapshot(parties)),
    log,
  });
  balancer.close();
  for (const each of direct) each.close();
  log('');
  printFigures(stats);
  printCpu(cpuBefore && cpuAfter ? spent(cpuBefore, cpuAfter) : null, stats);
  // Stopped first: every mail worker has finished, and nothing changes while it is read.
  await deployment.stopServers();
  const checks = [
    ...runChecks(stats),
    ...(await checkDatabase(db, deployment.catalogue, outcomes, deployment.processes)),
  ];
  log('\nChecks:');
  for (const check of checks) log(`${check.passed ? '✓' : '✗'} ${check.name}: ${check.detail}`);
  failed = checks.some((check) => !check.passed);
  log(failed ? '\nThe soak FAILED.' : '\nEvery check passed.');
} finally {
  await deployment.close();
}
process.exit(failed ? 1 : 0);
