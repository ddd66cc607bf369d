import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROME_ARGS, CHROME_PATH } from './tests/e2e/chromium';
import { STAFF } from './tests/e2e/staff';

const chromePath = CHROME_PATH;
if (!existsSync(chromePath)) {
  throw new Error(
    `Chromium not found at ${chromePath}. Install it (Debian: apt-get install -y chromium) ` +
      'or point CHROME_PATH at a Chromium or Chrome binary. On a machine with internet access, ' +
      '"npx playwright install chromium" and CHROME_PATH pointing at it also work.',
  );
}

const PORT = Number(process.env.E2E_PORT ?? 4310);
// A fresh embedded database for every run, so that tests see exactly the demo data.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'portal-e2e-'));

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: chromePath,
      args: CHROME_ARGS,
    },
  },
  webServer: {
    command: 'npx tsx server/start.ts',
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${PORT}`,
      // The tests' API calls act as clients behind a proxy on this machine (see helpers.ts).
      TRUST_PROXY: '127.0.0.1, ::1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: STAFF.email,
      ADMIN_PASSWORD: STAFF.password,
    },
  },
});
