/**
 * `npm start` on a new embedded database: it seeds the demo data and prints the demo
 * sign-ins, the staff account's among them, with a password that opens the back office.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { openDatabase } from '../../../server/db/database';
import { bearer, signIn } from '../helpers';

const dataRoot = mkdtempSync(join(tmpdir(), 'portal-demo-'));

afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

/**
 * Starts the server (API only) and resolves with what it printed up to the demo sign-ins,
 * the rep's being the last: stopped before, the server would be stopped in the middle of
 * reading it.
 */
function startUntilSignIns(): Promise<string> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataRoot,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
    },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.kill('SIGTERM');
      reject(new Error(`No demo sign-ins printed:\n${output}`));
    }, 90_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/REP .*\n/.test(output)) {
        clearTimeout(timer);
        server.once('exit', () => resolve(output));
        server.kill('SIGTERM');
      }
    };
    server.stdout.on('data', read);
    server.stderr.on('data', read);
    server.once('exit', (code) => {
      clearTimeout(timer);
      if (!/REP .*\n/.test(output)) reject(new Error(`Exited with ${code}:\n${output}`));
    });
  });
}

describe('npm start on demo data', () => {
  it('prints a staff sign-in that opens the back office, on every start', async () => {
    const first = await startUntilSignIns();
    expect(first).toContain('Seeded the demo catalogue and demo accounts.');
    expect(first).toContain('salon.verified@example.com / ');
    const [, email, password] = /STAFF +(\S+) \/ (\S+)/.exec(first) ?? [];
    expect(email).toBe('staff@example.com');

    // Printed again by the next start, which seeds nothing.
    const again = await startUntilSignIns();
    expect(again).not.toContain('Seeded the demo catalogue');
    expect(again).toContain(`STAFF    ${email} / ${password} `);

    const database = await openDatabase({ engine: 'pglite', dataDir: join(dataRoot, 'db') });
    const app = await buildApp({ database });
    try {
      const tokens = await signIn(app, email ?? '', password ?? '');
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(tokens) });
      expect(me.json()).toMatchObject({ user: { email, role: 'ADMIN' } });
    } finally {
      await app.close();
      await database.close();
    }
  }, 180_000);
});
