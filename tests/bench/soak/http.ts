/**
 * The load tool's HTTP client: node:http over kept-alive connections, which costs the
 * shared cores less than fetch, with the browser's Accept-Encoding so that the servers
 * compress as they do for the app. Answers are read whole; a body is decompressed only
 * when the caller reads it.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export interface Answer {
  /** The HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  headers: IncomingHttpHeaders;
  /** Milliseconds from sending to the last byte of the answer. */
  ms: number;
  /** The body as sent (possibly compressed). */
  raw: Buffer;
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  token?: string;
  idempotencyKey?: string;
  body?: unknown;
}

/** What Chromium sends with every request of the app. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** An answer slower than this counts as none: far beyond any p99 the soak reports. */
const TIMEOUT_MS = 30_000;

export interface Client {
  send(call: Call): Promise<Answer>;
  close(): void;
}

export function client(base: string, connections: number): Client {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return {
    send: (call) =>
      new Promise<Answer>((resolve) => {
        const started = performance.now();
        const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
        const headers: Record<string, string> = { 'accept-encoding': ACCEPT_ENCODING };
        if (call.token) headers.authorization = `Bearer ${call.token}`;
        if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
        if (payload !== undefined) {
          headers['content-type'] = 'application/json';
          headers['content-length'] = String(Buffer.byteLength(payload));
        }
        const failed = () =>
          resolve({
            status: 0,
            headers: {},
            ms: performance.now() - started,
            raw: Buffer.alloc(0),
          });
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            method: call.method,
            path: call.path,
            headers,
            agent,
            timeout: TIMEOUT_MS,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', failed);
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                ms: performance.now() - started,
                raw: Buffer.concat(chunks),
              }),
            );
          },
        );
        req.on('timeout', () => req.destroy());
        req.on('error', failed);
        req.end(payload);
      }),
    close: () => agent.destroy(),
  };
}

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const brotli = promisify(zlib.brotliDecompress);

/** The answer's JSON body, decompressed as its Content-Encoding says. */
export async function jsonOf<T>(answer: Answer): Promise<T> {
  const encoding = answer.headers['content-encoding'];
  const text =
    encoding === 'br'
      ? await brotli(answer.raw)
      : encoding === 'gzip'
        ? await gunzip(answer.raw)
        : encoding === 'deflate'
          ? await inflate(answer.raw)
          : answer.raw;
  return JSON.parse(text.toString('utf8')) as T;
}
