/**
 * `npm run bench`: measures what the portal promises, against the production build
 * served by the real server in the system Chromium, and prints each figure with its
 * goal. Results are also written to bench-results/results.json.
 *
 * Figures:
 * - outbox drain: 100 cart changes and a checkout queued offline, then the time from
 *   reconnecting until the order is confirmed, and the number of requests it took;
 * - Lighthouse (mobile preset): performance, accessibility, best practices and SEO of the
 *   home page, the catalogue, a product and a support page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium, type Page } from 'playwright-core';

const PORT = Number(process.env.BENCH_PORT ?? 4390);
const BASE = `http://localhost:${PORT}`;
const STAFF = { email: 'bench.staff@example.com', password: 'Bench-Staff-Password-1' };
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

interface Figure {
  name: string;
  value: number;
  unit: string;
  goal: string;
  met: boolean;
}

async function startServer(dataDir: string): Promise<ChildProcess> {
  const server = spawn('npx', ['tsx', 'server/start.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: STAFF.email,
      ADMIN_PASSWORD: STAFF.password,
      LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
    detached: true,
  });
  for (let i = 0; i < 120; i += 1) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('The server did not start');
}

async function json<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${BASE}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function approvedSalon(): Promise<{ email: string; password: string }> {
  const email = `bench.${Date.now()}@example.com`;
  const password = 'Bench-Salon-Pass-1';
  const { user } = await json<{ user: { companyId: number } }>('/api/auth/register', {
    method: 'POST',
    body: JSON.stringify({
      email,
      password,
      firstName: 'Bench',
      lastName: 'Salon',
      companyName: 'Bench Salon',
      taxNumber: 'RO1',
    }),
  });
  const { accessToken } = await json<{ accessToken: string }>('/api/auth/login', {
    method: 'POST',
    body: JSON.stringify(STAFF),
  });
  await json(`/api/admin/companies/${user.companyId}/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
    body: '{}',
  });
  return { email, password };
}

async function outboxDrain(page: Page): Promise<Figure[]> {
  const salon = await approvedSalon();
  await page.goto(`${BASE}/login?lng=en`);
  await page.getByLabel('E-mail', { exact: true }).fill(salon.email);
  await page.getByLabel('Password', { exact: true }).fill(salon.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Bench' }).waitFor();
  await page.goto(`${BASE}/products?lng=en`);
  await page.getByText('Catalogue saved on this device').waitFor();
  await page.getByTestId('product-card').first().getByText(/€/).waitFor();

  await page.context().setOffline(true);
  const buttons = page
    .getByTestId('product-card')
    .filter({ hasText: 'In stock' })
    .getByRole('button', { name: /^Add to cart/ });
  const count = Math.min(await buttons.count(), 5);
  for (let i = 0; i < 100; i += 1) await buttons.nth(i % count).click();
  await page.getByRole('link', { name: /^Cart/ }).click();
  await page.getByRole('button', { name: 'Proceed to checkout' }).click();
  const form = page.getByRole('form', { name: 'Shipping address' });
  await form.getByLabel('Street and number').fill('Strada Fabricii 1');
  await form.getByLabel('City').fill('Sibiu');
  await form.getByLabel('Zip code').fill('550001');
  await form.getByLabel('Country').fill('Romania');
  await form.getByLabel('Phone').fill('+40 269 555 000');
  await form.getByRole('button', { name: 'Place order' }).click();
  await page.getByText('Waiting to sync').first().waitFor();

  let requests = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) requests += 1;
  });
  const started = performance.now();
  await page.context().setOffline(false);
  await page
    .getByTestId('order-card')
    .first()
    .getByText(/Order FP-/)
    .waitFor({ timeout: 120_000 });
  const drainMs = performance.now() - started;
  return [
    {
      name: 'Outbox drain: 100 cart changes + checkout, reconnect → order confirmed',
      value: Math.round(drainMs),
      unit: 'ms',
      goal: '≤ 10000 ms',
      met: drainMs <= 10_000,
    },
    {
      name: 'Outbox drain: requests made (entries + refresh of cart and orders)',
      value: requests,
      unit: 'requests',
      goal: '≤ 110 (one per entry, no duplicates)',
      met: requests <= 110,
    },
  ];
}

const LIGHTHOUSE_PAGES = ['/', '/products', '/products/1', '/support/faq'];
const CATEGORY_GOALS: Record<string, number> = {
  performance: 98,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
};

async function lighthouseScores(): Promise<Figure[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', ...ARGS],
  });
  const figures: Figure[] = [];
  try {
    for (const path of LIGHTHOUSE_PAGES) {
      const result = await lighthouse(`${BASE}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: Object.keys(CATEGORY_GOALS),
      });
      for (const [id, goal] of Object.entries(CATEGORY_GOALS)) {
        const score = Math.round((result?.lhr.categories[id]?.score ?? 0) * 100);
        figures.push({
          name: `Lighthouse ${id} ${path}`,
          value: score,
          unit: '/100',
          goal: `≥ ${goal}`,
          met: score >= goal,
        });
      }
    }
  } finally {
    chrome.kill();
  }
  return figures;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const server = await startServer(dataDir);
  const browser = await chromium.launch({ executablePath: CHROME, args: ARGS });
  const figures: Figure[] = [];
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    figures.push(...(await outboxDrain(page)));
    await context.close();
    figures.push(...(await lighthouseScores()));
  } finally {
    await browser.close();
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('\nBenchmark figures');
  for (const f of figures) {
    console.log(`${f.met ? '✓' : '✗'} ${f.name}: ${f.value} ${f.unit} (goal ${f.goal})`);
  }
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(
    'bench-results/results.json',
    `${JSON.stringify({ date: new Date().toISOString(), figures }, null, 2)}\n`,
  );
  console.log('Written to bench-results/results.json');
}

await main();
