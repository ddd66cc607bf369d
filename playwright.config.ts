import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROME_ARGS, CHROME_PATH } from './tests/e2e/chromium';

if (!existsSync(CHROME_PATH)) {
  throw new Error(
    `Chromium not found at ${CHROME_PATH}. Install it (Debian: apt-get install -y chromium) ` +
      'or point CHROME_PATH at a Chromium or Chrome binary. On a machine with internet access, ' +
      '"npx playwright install chromium" and CHROME_PATH pointing at it also work.',
  );
}

export default defineConfig({
  testDir: 'tests/e2e',
  // Each worker starts a server of its own with a fresh database (tests/e2e/portal.ts), so
  // test files run side by side; the tests of one file run in order.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism())),
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: CHROME_PATH,
      args: CHROME_ARGS,
    },
  },
});
