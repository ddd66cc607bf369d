/// <reference lib="dom" />
/**
 * Everything a first visit downloads, until the network is idle: a new device opens `/` or
 * `/products` (each in a fresh browser context, Romanian as a salon's browser would ask)
 * and stays on it until nothing has crossed the network for a while (and, had a service
 * worker been set up, until it is active with its precache complete). The page's requests,
 * the service worker's precache and runtime fetches and its own script all count. Then
 * the visitor follows a link to the catalogue or a product, a second screen: what that brings (the app kept on the
 * device for offline use) is measured beside it.
 *
 * The bytes are counted on the wire, not as the browser reports them: the browser talks to
 * the server through a small proxy that reads every HTTP/1.1 exchange (Chromium reports the
 * service worker's script with no body, and a precache hit in the HTTP cache without a
 * size). The figure is the response bodies as sent (compressed); headers are reported beside it.
 *
 * Run alone: `npx tsx tests/bench/first-visit.ts` starts the server on the built app
 * (STATIC_DIR/RENDER_DIR as the server reads them) or measures BENCH_BASE when set, and
 * prints where the bytes go.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROME_ARGS, CHROME_PATH } from '../e2e/chromium';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  goal: string;
  met: boolean;
}

/** One request and its response as they crossed the wire. */
export interface Exchange {
  method: string;
  path: string;
  acceptEncoding: string;
  status: number;
  contentType: string;
  contentEncoding: string;
  /** Status line and headers (of every interim response too) and chunk framing. */
  headerBytes: number;
  /** The body as sent: compressed when the server compressed it. */
  bodyBytes: number;
  /** Who asked for it, as the browser tells (requests taken in order, URL by URL). */
  by: 'page' | 'service worker' | 'unknown';
  done: boolean;
}

/** The pages measured: the two first screens a salon opens. */
const PATHS = ['/', '/products'];
/** The goal, in KiB of compressed bodies. */
const GOAL_KIB = 150;
/** Nothing on the wire for this long counts as idle. */
const IDLE_MS = 2_000;
/** The longest a first visit may take to settle before the measure gives up. */
const SETTLE_TIMEOUT_MS = 60_000;

const kib = (bytes: number) => Math.round(bytes / 102.4) / 10;

/**
 * A proxy in front of the server that reads each HTTP/1.1 exchange (Chromium sends one
 * request at a time on a connection to a plain-HTTP origin) and counts its bytes.
 */
class CountingProxy {
  exchanges: Exchange[] = [];
  lastActivity = Date.now();
  private readonly server: Server;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {
    this.server = createServer((client) => this.pipe(client));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    // localhost, like the server's own address: a secure context for the service worker.
    return `http://localhost:${port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Requests sent and not yet answered in full. */
  get open(): number {
    return this.exchanges.filter((exchange) => !exchange.done).length;
  }

  private pipe(client: Socket): void {
    const upstream = connect(this.port, this.host);
    const waiting: Exchange[] = [];
    const readRequests = requestReader((exchange) => {
      this.exchanges.push(exchange);
      waiting.push(exchange);
    });
    const readResponses = responseReader(
      () => waiting[0],
      () => waiting.shift(),
    );
    client.on('data', (data: Buffer) => {
      this.lastActivity = Date.now();
      readRequests(data);
      upstream.write(data);
    });
    upstream.on('data', (data: Buffer) => {
      this.lastActivity = Date.now();
      readResponses(data);
      client.write(data);
    });
    const end = () => {
      // A response read until the connection closes ends here.
      for (const exchange of waiting.splice(0)) exchange.done = true;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  }
}

/** Splits a head (start line and headers) into its start line and lower-cased headers. */
function parseHead(head: string): { start: string; headers: Map<string, string> } {
  const [start = '', ...lines] = head.split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { start, headers };
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Reads the browser's side of a connection: request heads, and bodies by their length. */
function requestReader(onRequest: (exchange: Exchange) => void): (data: Buffer) => void {
  let buffer = Buffer.alloc(0);
  let bodyLeft = 0;
  return (data) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) {
      if (bodyLeft > 0) {
        const skip = Math.min(bodyLeft, buffer.length);
        bodyLeft -= skip;
        buffer = buffer.subarray(skip);
        if (bodyLeft > 0) return;
      }
      const end = buffer.indexOf(HEAD_END);
      if (end < 0) return;
      const { start, headers } = parseHead(buffer.subarray(0, end).toString('latin1'));
      buffer = buffer.subarray(end + HEAD_END.length);
      bodyLeft = Number(headers.get('content-length') ?? 0);
      const [method = '', target = ''] = start.split(' ');
      onRequest({
        method,
        path: target,
        acceptEncoding: headers.get('accept-encoding') ?? '',
        status: 0,
        contentType: '',
        contentEncoding: '',
        headerBytes: 0,
        bodyBytes: 0,
        by: 'unknown',
        done: false,
      });
    }
  };
}

/**
 * Reads the server's side of a connection: each response's head, then its body framed by
 * Content-Length or chunked encoding (or read until the connection closes).
 */
function responseReader(
  current: () => Exchange | undefined,
  finish: () => void,
): (data: Buffer) => void {
  let buffer = Buffer.alloc(0);
  let state: 'head' | 'fixed' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailer' | 'close' =
    'head';
  let left = 0;
  const complete = () => {
    const exchange = current();
    if (exchange) exchange.done = true;
    finish();
    state = 'head';
  };
  return (data) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) {
      const exchange = current();
      if (!exchange) return;
      if (state === 'close') {
        exchange.bodyBytes += buffer.length;
        buffer = Buffer.alloc(0);
        return;
      }
      if (state === 'head' || state === 'trailer') {
        const end = buffer.indexOf(HEAD_END);
        // An empty trailer is the CRLF right away.
        if (state === 'trailer' && buffer.subarray(0, 2).toString('latin1') === '\r\n') {
          exchange.headerBytes += 2;
          buffer = buffer.subarray(2);
          complete();
          continue;
        }
        if (end < 0) return;
        exchange.headerBytes += end + HEAD_END.length;
        const head = buffer.subarray(0, end).toString('latin1');
        buffer = buffer.subarray(end + HEAD_END.length);
        if (state === 'trailer') {
          complete();
          continue;
        }
        const { start, headers } = parseHead(head);
        const status = Number(start.split(' ')[1] ?? 0);
        // Interim answers (103 Early Hints, 100 Continue) precede the real one.
        if (status >= 100 && status < 200) continue;
        exchange.status = status;
        exchange.contentType = headers.get('content-type') ?? '';
        exchange.contentEncoding = headers.get('content-encoding') ?? '';
        const bodiless = exchange.method === 'HEAD' || status === 204 || status === 304;
        if (bodiless) complete();
        else if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) state = 'chunk-size';
        else if (headers.has('content-length')) {
          left = Number(headers.get('content-length'));
          state = 'fixed';
          if (left === 0) complete();
        } else state = 'close';
        continue;
      }
      if (state === 'fixed' || state === 'chunk-data') {
        const take = Math.min(left, buffer.length);
        exchange.bodyBytes += take;
        left -= take;
        buffer = buffer.subarray(take);
        if (left > 0) return;
        if (state === 'fixed') complete();
        else state = 'chunk-end';
        continue;
      }
      if (state === 'chunk-end') {
        if (buffer.length < 2) return;
        exchange.headerBytes += 2;
        buffer = buffer.subarray(2);
        state = 'chunk-size';
        continue;
      }
      // chunk-size: a hexadecimal length on a line of its own.
      const lineEnd = buffer.indexOf('\r\n');
      if (lineEnd < 0) return;
      left = parseInt(buffer.subarray(0, lineEnd).toString('latin1'), 16);
      exchange.headerBytes += lineEnd + 2;
      buffer = buffer.subarray(lineEnd + 2);
      state = left === 0 ? 'trailer' : 'chunk-data';
    }
  };
}

export interface Visit {
  path: string;
  exchanges: Exchange[];
  /** What a visitor who stays then downloads: a second screen, and the app kept on the device. */
  stayed: Exchange[];
}

/** Waits until nothing has crossed the network for IDLE_MS. */
async function untilIdle(proxy: CountingProxy, path: string): Promise<void> {
  const started = Date.now();
  while (proxy.open > 0 || Date.now() - proxy.lastActivity < IDLE_MS) {
    if (Date.now() - started > SETTLE_TIMEOUT_MS) {
      throw new Error(`${path}: the network never went idle`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Until the network is idle; a service worker set up meanwhile, until it is active too. */
async function untilSettled(page: Page, proxy: CountingProxy, path: string): Promise<void> {
  await untilIdle(proxy, path);
  const registered = await page.evaluate(
    async () => (await navigator.serviceWorker.getRegistration()) !== undefined,
  );
  if (!registered) return;
  // Active means installed: the precache was complete before the worker could activate.
  await page.waitForFunction(
    () => navigator.serviceWorker.ready.then((registration) => registration.active !== null),
    undefined,
    { timeout: SETTLE_TIMEOUT_MS, polling: 100 },
  );
  await untilIdle(proxy, path);
}

/**
 * One first visit of `path` in a fresh context, until the network is idle; then a second
 * screen (the first link to a product), until the network is idle again.
 */
async function visit(browser: Browser, proxy: CountingProxy, base: string, path: string) {
  proxy.exchanges = [];
  const context = await browser.newContext({ locale: 'ro-RO', serviceWorkers: 'allow' });
  // Who asked for what, as the browser reports it (the service worker's requests included).
  // A page's request that the service worker answered never reached the network itself.
  const asked: { key: string; who: Exchange['by']; fromWorker: Promise<boolean> }[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    asked.push({
      key: `${url.pathname}${url.search}`,
      who: request.serviceWorker() ? 'service worker' : 'page',
      fromWorker: request
        .response()
        .then((response) => response?.fromServiceWorker() ?? false)
        .catch(() => false),
    });
  });
  let first = 0;
  try {
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    await page.waitForFunction(() => performance.getEntriesByName('first-screen').length > 0);
    await untilSettled(page, proxy, path);
    first = proxy.exchanges.length;
    await page.locator('main a[href^="/products"]').first().click();
    await untilSettled(page, proxy, path);
  } finally {
    await context.close();
  }
  const exchanges = proxy.exchanges;
  const askers = new Map<string, Exchange['by'][]>();
  for (const { key, who, fromWorker } of asked) {
    if (who === 'page' && (await fromWorker)) continue;
    askers.set(key, [...(askers.get(key) ?? []), who]);
  }
  for (const exchange of exchanges) exchange.by = askers.get(exchange.path)?.shift() ?? 'unknown';
  return { path, exchanges: exchanges.slice(0, first), stayed: exchanges.slice(first) };
}

/** The first visits of `/` and `/products` against the server at `base`. */
export async function firstVisits(base: string): Promise<Visit[]> {
  const target = new URL(base);
  const proxy = new CountingProxy(target.hostname, Number(target.port || 80));
  const proxied = await proxy.listen();
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_ARGS });
  try {
    const visits: Visit[] = [];
    for (const path of PATHS) visits.push(await visit(browser, proxy, proxied, path));
    return visits;
  } finally {
    await browser.close();
    await proxy.close();
  }
}

const sum = (exchanges: Exchange[], bytes: (exchange: Exchange) => number) =>
  exchanges.reduce((total, exchange) => total + bytes(exchange), 0);

export function visitFigures({ path, exchanges, stayed }: Visit): Figure[] {
  const bodies = sum(exchanges, (e) => e.bodyBytes);
  const byWorker = sum(
    exchanges.filter((e) => e.by === 'service worker'),
    (e) => e.bodyBytes,
  );
  const wire = sum(exchanges, (e) => e.bodyBytes + e.headerBytes);
  return [
    {
      name: `First visit of ${path}: everything downloaded until the network is idle (compressed bodies, service worker and its precache included)`,
      value: kib(bodies),
      unit: 'KiB',
      goal: `≤ ${GOAL_KIB} KiB`,
      met: bodies <= GOAL_KIB * 1024,
    },
    {
      name: `First visit of ${path}: of which fetched by the service worker alone`,
      value: kib(byWorker),
      unit: 'KiB',
      goal: 'reference',
      met: true,
    },
    {
      name: `First visit of ${path}: on the wire with HTTP/1.1 headers (${exchanges.length} responses)`,
      value: kib(wire),
      unit: 'KiB',
      goal: 'reference',
      met: true,
    },
    {
      name: `First visit of ${path}, then a second screen: what a visitor who stays downloads next (that screen, the app kept for offline use, the catalogue)`,
      value: kib(sum(stayed, (e) => e.bodyBytes)),
      unit: 'KiB',
      goal: 'reference',
      met: stayed.some((e) => e.path === '/sw.js'),
    },
  ];
}

/** The figures of both first visits (the benchmark's entry point). */
export async function firstVisitDownloads(base: string): Promise<Figure[]> {
  return (await firstVisits(base)).flatMap(visitFigures);
}

/** Compressible answers that came uncompressed although the browser accepted compression. */
function uncompressed(exchanges: Exchange[]): Exchange[] {
  return exchanges.filter(
    (e) =>
      e.bodyBytes > 1024 &&
      !e.contentEncoding &&
      /\b(br|gzip)\b/.test(e.acceptEncoding) &&
      /text|javascript|json|css|svg|xml|manifest/.test(e.contentType),
  );
}

function printBreakdown(path: string, exchanges: Exchange[]): void {
  console.log(`\n${path}: ${exchanges.length} responses, largest first`);
  const rows = [...exchanges].sort((a, b) => b.bodyBytes - a.bodyBytes);
  for (const e of rows) {
    const size = `${kib(e.bodyBytes).toFixed(1)} KiB`.padStart(10);
    console.log(
      `${size}  ${e.by.padEnd(14)} ${String(e.status)} ${(e.contentEncoding || '-').padEnd(4)} ${e.path}`,
    );
  }
  for (const e of uncompressed(exchanges)) {
    console.log(`  ! sent uncompressed although the browser accepts it: ${e.path}`);
  }
  const noEncoding = exchanges.filter((e) => !/\b(br|gzip)\b/.test(e.acceptEncoding));
  if (noEncoding.length > 0) {
    console.log(`  ! ${noEncoding.length} requests without Accept-Encoding: br or gzip`);
  }
}

/** Starts the server on a fresh data folder (STATIC_DIR and RENDER_DIR pass through). */
async function startServer(port: number): Promise<{ base: string; stop: () => void }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-first-visit-'));
  const server = spawn('npx', ['tsx', 'server/start.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
    detached: true,
  });
  const base = `http://localhost:${port}`;
  const stop = () => {
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 120; i += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, stop };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  stop();
  throw new Error('The server did not start');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = process.env.BENCH_BASE
    ? { base: process.env.BENCH_BASE, stop: () => {} }
    : await startServer(Number(process.env.BENCH_PORT ?? 4395));
  try {
    const visits = await firstVisits(server.base);
    for (const measured of visits) {
      printBreakdown(measured.path, measured.exchanges);
      printBreakdown(`${measured.path}, then a second screen`, measured.stayed);
    }
    console.log('\nFirst-visit figures');
    for (const f of visits.flatMap(visitFigures)) {
      console.log(`${f.met ? '✓' : '✗'} ${f.name}: ${f.value} ${f.unit} (goal ${f.goal})`);
    }
  } finally {
    server.stop();
  }
  process.exit(0);
}
