/**
 * The staff account is made from the command line (`npm run admin -- create-admin`) or at
 * start (ADMIN_EMAIL/ADMIN_PASSWORD), never out of a customer's account: whoever
 * registered the staff e-mail first must not become staff.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { users } from '../../server/db/schema';
import { CUSTOMER_EMAIL_FOR_STAFF, ensureAdmin } from '../../server/services/admin';
import { bearer, register, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';
import { writePgliteDataDir } from './template-database';

const run = promisify(execFile);

/**
 * The database both the test and the commands use: the test server's PostgreSQL, or an
 * embedded database in a folder (a command opens it only while the test has closed it).
 */
let testDb: TestDatabase | null = null;
let dataDir: string | null = null;
let customer: { email: string; password: string; tokens: Tokens; companyId: number };

async function open(): Promise<Database> {
  if (testDb) return testDb.database;
  const database = await openDatabase({ engine: 'pglite', dataDir: join(dataDir ?? '', 'db') });
  await migrate(database.db);
  return database;
}
async function release(database: Database) {
  if (!testDb) await database.close();
}
const commandEnv = () => ({
  ...process.env,
  ...(testDb?.url ? { DATABASE_URL: testDb.url } : { DATABASE_URL: '', DATA_DIR: dataDir ?? '' }),
  PORT: '0',
  HOST: '127.0.0.1',
});

/** Runs a server script with tsx; resolves with its exit code and output, failing or not. */
async function runScript(script: string, args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', script, ...args], {
      env,
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function roleOf(email: string) {
  const database = await open();
  try {
    const [row] = await database.db
      .select({ role: users.role, companyId: users.companyId })
      .from(users)
      .where(eq(users.email, email));
    return row;
  } finally {
    await release(database);
  }
}

beforeAll(async () => {
  if (process.env.TEST_DB === 'postgres') testDb = await createTestDatabase();
  else {
    dataDir = mkdtempSync(join(tmpdir(), 'portal-staff-'));
    // A folder already migrated; making one from nothing is data-folder.test.ts's part.
    await writePgliteDataDir(join(dataDir, 'db'), inject('pgliteTemplate'));
  }
  const database = await open();
  const app = await buildApp({ database });
  const registered = await register(app);
  customer = {
    email: registered.email,
    password: registered.password,
    tokens: await signIn(app, registered.email, registered.password),
    companyId: registered.user.companyId,
  };
  await app.close();
  await release(database);
}, 60_000);

afterAll(async () => {
  await testDb?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('making the staff account', () => {
  it('refuses `npm run admin -- create-admin` for a customer e-mail and leaves the customer as it was', async () => {
    const result = await runScript(
      'server/scripts/admin.ts',
      ['create-admin', customer.email, 'Staff-Pass-123'],
      commandEnv(),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain(CUSTOMER_EMAIL_FOR_STAFF);
    expect(await roleOf(customer.email)).toEqual({ role: 'USER', companyId: customer.companyId });
  });

  it('refuses to start with ADMIN_EMAIL set to a customer e-mail', async () => {
    const result = await runScript('server/start.ts', ['--api-only'], {
      ...commandEnv(),
      ADMIN_EMAIL: customer.email.toUpperCase(),
      ADMIN_PASSWORD: 'Staff-Pass-123',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain(CUSTOMER_EMAIL_FOR_STAFF);
    expect(await roleOf(customer.email)).toEqual({ role: 'USER', companyId: customer.companyId });
  });

  it("keeps the customer's password and sessions: it still signs in and stays out of the back office", async () => {
    const database = await open();
    const app = await buildApp({ database });
    try {
      await expect(ensureAdmin(database.db, customer.email, 'Staff-Pass-123')).rejects.toThrow(
        CUSTOMER_EMAIL_FOR_STAFF,
      );
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(customer.tokens) });
      expect(me.json()).toMatchObject({ user: { role: 'USER' } });
      const staffOnly = await app.inject({
        url: '/api/admin/companies',
        headers: bearer(await signIn(app, customer.email, customer.password)),
      });
      expect(staffOnly.statusCode).toBe(403);
    } finally {
      await app.close();
      await release(database);
    }
  });

  it('ends every session of the staff account when its password is set again', async () => {
    const database = await open();
    const app = await buildApp({ database });
    try {
      await ensureAdmin(database.db, 'reset.staff@example.com', 'Staff-Pass-123');
      const before = await signIn(app, 'reset.staff@example.com', 'Staff-Pass-123');
      await ensureAdmin(database.db, 'reset.staff@example.com', 'Staff-Pass-456');
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(before) });
      expect(me.statusCode).toBe(401);
    } finally {
      await app.close();
      await release(database);
    }
  });

  it('keeps the staff sessions when a server starts again with the same ADMIN_PASSWORD', async () => {
    const database = await open();
    const app = await buildApp({ database });
    try {
      const email = `restart.${Date.now()}@example.com`;
      // Two processes starting at once on a database without the account: one makes it.
      const outcomes = await Promise.all([
        ensureAdmin(database.db, email, 'Staff-Pass-123'),
        ensureAdmin(database.db, email, 'Staff-Pass-123'),
      ]);
      expect(outcomes.sort()).toEqual(['created', 'unchanged']);
      const before = await signIn(app, email, 'Staff-Pass-123');
      expect(await ensureAdmin(database.db, email, 'Staff-Pass-123')).toBe('unchanged');
      const me = await app.inject({ url: '/api/auth/me', headers: bearer(before) });
      expect(me.statusCode, 'the session after the restart').toBe(200);
    } finally {
      await app.close();
      await release(database);
    }
  });

  it('creates a staff account for a new e-mail, and sets its password when run again', async () => {
    const email = `staff.${Date.now()}@example.com`;
    const first = await runScript(
      'server/scripts/admin.ts',
      ['create-admin', email, 'Staff-Pass-123'],
      commandEnv(),
    );
    expect(first).toMatchObject({ code: 0 });
    expect(first.output).toContain(`Staff account ${email} created.`);
    const again = await runScript(
      'server/scripts/admin.ts',
      ['create-admin', email, 'Staff-Pass-456'],
      commandEnv(),
    );
    expect(again.output).toContain(`Staff account ${email} updated.`);
    expect(await roleOf(email)).toEqual({ role: 'ADMIN', companyId: null });
    // Two runs of the command, each a process opening the database (up to 10 s each here).
  }, 90_000);
});
