/**
 * Where the machine's CPU time went during the soak, from /proc (Linux): the server
 * processes, PostgreSQL, the balancer, the load tool, and everything else on the machine.
 * On a machine shared with other work the rate of requests says little alone; the CPU time
 * each request cost says what a dedicated machine would do. Elsewhere than on Linux the
 * figures are left out.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on nearly every Linux). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface ProcessTimes {
  parent: number;
  /** User and system time, in seconds. */
  seconds: number;
}

function timesOf(pid: number): ProcessTimes | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command's name, in parentheses, may hold spaces: the fields follow its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      parent: Number(fields[1]),
      seconds: (Number(fields[11]) + Number(fields[12])) / TICKS,
    };
  } catch {
    return null;
  }
}

/** A process and its children (PostgreSQL's postmaster and its backends). */
function familyOf(pid: number): number[] {
  let pids: number[] = [];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
  return [pid, ...pids.filter((other) => timesOf(other)?.parent === pid)];
}

/** The whole machine's busy time (every core), in seconds. */
function machineBusy(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return (
      ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) /
      TICKS
    );
  } catch {
    return null;
  }
}

export interface Parties {
  servers: number[];
  balancer: number;
  /** PostgreSQL's first process: it and its children (the backends) are counted. */
  postmaster: number;
}

/**
 * The postmaster of a PostgreSQL backend (`SELECT pg_backend_pid()`), read at once: a
 * pool's idle connection, and its backend, may be gone by the time of a snapshot.
 */
export const postmasterOf = (backend: number): number => timesOf(backend)?.parent ?? 0;

export interface CpuSnapshot {
  perProcess: Map<number, number>;
  machine: number | null;
  tool: number;
  parties: Parties;
}

export function snapshot(parties: Parties): CpuSnapshot {
  const { postmaster } = parties;
  const pids = [...parties.servers, parties.balancer, ...(postmaster ? familyOf(postmaster) : [])];
  const perProcess = new Map<number, number>();
  for (const pid of pids) {
    const times = timesOf(pid);
    if (times) perProcess.set(pid, times.seconds);
  }
  const usage = process.cpuUsage();
  return {
    perProcess,
    machine: machineBusy(),
    tool: (usage.user + usage.system) / 1e6,
    parties,
  };
}

export interface CpuFigures {
  /** Seconds of CPU time over the window, per party. */
  servers: number;
  postgres: number;
  balancer: number;
  tool: number;
  /** Everything else on the machine (other people's work), when /proc/stat could be read. */
  others: number | null;
}

/** CPU time spent between two snapshots (a process that started between them counts from 0). */
export function spent(before: CpuSnapshot, after: CpuSnapshot): CpuFigures | null {
  if (after.perProcess.size === 0) return null;
  const delta = (pid: number) =>
    (after.perProcess.get(pid) ?? 0) - (before.perProcess.get(pid) ?? 0);
  const { servers, balancer } = after.parties;
  const serverTime = servers.reduce((sum, pid) => sum + delta(pid), 0);
  const balancerTime = delta(balancer);
  let postgres = 0;
  for (const pid of after.perProcess.keys()) {
    if (!servers.includes(pid) && pid !== balancer) postgres += delta(pid);
  }
  const tool = after.tool - before.tool;
  const machine =
    after.machine !== null && before.machine !== null ? after.machine - before.machine : null;
  return {
    servers: serverTime,
    postgres,
    balancer: balancerTime,
    tool,
    others:
      machine === null ? null : Math.max(0, machine - serverTime - postgres - balancerTime - tool),
  };
}
