/**
 * A throwaway PostgreSQL cluster for the server suite: initialised in a temporary folder,
 * started on a free port, removed afterwards. Uses the PostgreSQL installed on the
 * machine; as root it runs the server as the `postgres` user, as PostgreSQL requires.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const POSTGRES_MISSING =
  'PostgreSQL is not installed, and the server tests run against a real PostgreSQL as well as PGlite. ' +
  'Install it (Debian/Ubuntu: apt-get install -y postgresql; macOS: brew install postgresql) ' +
  'or set DATABASE_URL to a PostgreSQL server where the tests may create databases.';

function findBinDir(): string {
  const candidates = [process.env.PG_BIN];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(root, v, 'bin')));
  }
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on the PATH
  }
  const found = candidates.find(
    (dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
  if (!found) throw new Error(POSTGRES_MISSING);
  return found;
}

/** A port on the loopback address that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startThrowawayCluster(): Promise<{ url: string; stop: () => void }> {
  const bin = findBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'portal-pg-'));
  const dataDir = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const file = join(bin, command);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' });
    else execFileSync(file, args, { stdio: 'pipe' });
  };
  if (asRoot) {
    chmodSync(dir, 0o777);
    execFileSync('chown', ['postgres', dir]);
  }
  const port = await freePort();
  // A German ICU collation by default: the catalogue must order by code point regardless.
  run('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--locale-provider=icu',
    '--icu-locale=de-DE',
  ]);
  run('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
