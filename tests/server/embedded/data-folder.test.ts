/**
 * The embedded database's data folder belongs to one process at a time: a second server or
 * `npm run admin` on it would corrupt it, and neither would see the other's changes (what
 * each process keeps in memory relies on that too). It is refused with the reason.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, openDatabase } from '../../../server/db/database';

const run = promisify(execFile);
/** DATA_DIR of the commands; the database is its db/ folder. */
const dataRoot = mkdtempSync(join(tmpdir(), 'portal-folder-'));
const dataDir = join(dataRoot, 'db');

afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

async function adminList(): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'server/scripts/admin.ts', 'list'],
      { env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataRoot }, timeout: 60_000 },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('the data folder of the embedded database', () => {
  it('is refused to a second opening and to a command while a process has it, and free after', async () => {
    const first = await openDatabase({ engine: 'pglite', dataDir });
    try {
      await expect(openDatabase({ engine: 'pglite', dataDir })).rejects.toBeInstanceOf(
        DataDirInUseError,
      );
      const command = await adminList();
      expect(command.code).toBe(1);
      expect(command.output).toContain(`The data folder ${dataDir} is in use`);
      expect(command.output).not.toMatch(/\bat .*\.ts:\d+/);
    } finally {
      await first.close();
    }
    const command = await adminList();
    expect(command).toMatchObject({ code: 0 });
  }, 90_000);
});
