/**
 * A small round-robin HTTP balancer on the loopback address, standing in for nginx or a
 * cloud balancer in front of the portal's processes: each request goes to the next
 * process in turn over kept-alive connections, with X-Forwarded-For and
 * X-Forwarded-Proto set as a proxy sets them. Started by deployment.ts as a program of
 * its own (BALANCER_PORT, BALANCER_UPSTREAMS); tells its parent once it listens.
 */
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';

const port = Number(process.env.BALANCER_PORT);
const upstreams = (process.env.BALANCER_UPSTREAMS ?? '').split(',').map((url) => new URL(url));
if (!Number.isInteger(port) || upstreams.length === 0) {
  throw new Error('BALANCER_PORT and BALANCER_UPSTREAMS are needed');
}

/**
 * Connections kept open to each process: more than the requests a load tool keeps in
 * flight, so that no request waits for a connection here rather than in the server.
 */
const SOCKETS_PER_UPSTREAM = 128;
const agents = upstreams.map(
  () => new Agent({ keepAlive: true, maxSockets: SOCKETS_PER_UPSTREAM }),
);

/** Headers about one connection, not the request: never passed on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

function passOn(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())),
  );
}

let next = 0;

const server = createServer((incoming, outgoing) => {
  const index = next;
  next = (next + 1) % upstreams.length;
  const target = upstreams[index] as URL;
  const client = incoming.socket.remoteAddress ?? '';
  const forwarded = incoming.headers['x-forwarded-for'];
  const proxied = request(
    {
      host: target.hostname,
      port: target.port,
      method: incoming.method,
      path: incoming.url,
      agent: agents[index],
      headers: {
        ...passOn(incoming.headers),
        'x-forwarded-for': forwarded ? `${String(forwarded)}, ${client}` : client,
        'x-forwarded-proto': 'http',
      },
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, passOn(answer.headers));
      answer.pipe(outgoing);
    },
  );
  proxied.on('error', () => {
    // The process could not be reached or dropped the answer: what a proxy says then.
    if (outgoing.headersSent) {
      outgoing.destroy();
      return;
    }
    outgoing.writeHead(502, { 'content-type': 'application/json' });
    outgoing.end('{"message":"Bad gateway"}');
  });
  incoming.pipe(proxied);
});

/** Longer than the load tool keeps an idle connection: it is never closed under a request. */
server.keepAliveTimeout = 120_000;

server.listen(port, '127.0.0.1', () => process.send?.('listening'));
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  for (const agent of agents) agent.destroy();
});
