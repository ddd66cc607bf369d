import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import { replayOutbox } from '../../src/lib/sync/outbox-replay';
import { requestFor, type OutboxEntry, type OutboxPayload } from '../../src/lib/sync/outbox-rules';
import { storedSessionCredentials } from '../../src/lib/sync/stored-session';
import {
  createTransport,
  isNewerToken,
  type Credentials,
  type TransportOptions,
} from '../../src/lib/sync/transport';

type Fetch = NonNullable<TransportOptions['fetch']>;

interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

/**
 * A server that answers like the real one where it matters here: Fastify refuses a JSON
 * content type with an empty body (400), and a stale access token gets a 401.
 */
function fakeServer(answer: (request: SentRequest) => Response = () => json(200, { items: [] })) {
  const sent: SentRequest[] = [];
  const fetch: Fetch = (input, init) => {
    const request: SentRequest = {
      url: input instanceof Request ? input.url : input.toString(),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      // No body (null or left out) is recorded as undefined.
      body: (init?.body ?? undefined) as string | undefined,
    };
    sent.push(request);
    if (request.headers['content-type'] === 'application/json' && !request.body) {
      return Promise.resolve(
        json(400, {
          message: "Body cannot be empty when content-type is set to 'application/json'",
        }),
      );
    }
    return Promise.resolve(answer(request));
  };
  return { fetch, sent };
}

const entry = (payload: OutboxPayload, id = 1): OutboxEntry => ({
  id,
  userId: 1,
  kind: payload.kind,
  payload,
  idempotencyKey: `key-${id}-abcdef`,
  createdAt: '',
  attempts: 0,
  nextAttemptAt: 0,
  state: 'waiting',
});

const credentials = (token: string | null = 'token-1', renewed: string | null = null) => {
  const renewals: string[] = [];
  const value: Credentials = {
    accessToken: () => token,
    renew: (refused) => {
      renewals.push(refused);
      return Promise.resolve(renewed);
    },
  };
  return { value, renewals };
};

/** A token shaped like the server's JWTs, expiring at `exp` (seconds). */
const jwt = (exp: number) =>
  `h.${btoa(JSON.stringify({ sub: '1', exp }))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')}.s`;

describe('the outbox transport', () => {
  it('sends a removal and a cleared cart without a JSON content type, so the server takes them', async () => {
    const server = fakeServer();
    const transport = createTransport(credentials().value, { fetch: server.fetch });
    for (const payload of [
      { kind: 'cart.remove', productId: 5 },
      { kind: 'cart.clear' },
    ] as const) {
      const response = await transport.send(entry(payload), requestFor(payload));
      expect(response.status).toBe(200);
    }
    expect(server.sent.map((r) => [r.method, r.url, r.body])).toEqual([
      ['DELETE', '/api/cart/items/5', undefined],
      ['DELETE', '/api/cart', undefined],
    ]);
    for (const request of server.sent) expect(request.headers['content-type']).toBeUndefined();
  });

  it('sends a change with a body as JSON, with its Idempotency-Key and the access token', async () => {
    const server = fakeServer();
    const transport = createTransport(credentials().value, { fetch: server.fetch });
    const payload: OutboxPayload = { kind: 'cart.update', productId: 5, quantity: 3 };
    await transport.send(entry(payload, 7), requestFor(payload));
    expect(server.sent[0]).toEqual({
      url: '/api/cart/items/5',
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': 'key-7-abcdef',
        authorization: 'Bearer token-1',
      },
      body: '{"quantity":3}',
    });
  });

  it('sends a document of a rep’s customer as multipart/form-data, the file under its field', async () => {
    const received: FormData[] = [];
    const server = fakeServer((request) => {
      received.push(request.body as unknown as FormData);
      return json(201, { documents: [] });
    });
    const transport = createTransport(credentials().value, { fetch: server.fetch });
    const payload: OutboxPayload = {
      kind: 'rep.document',
      customerId: 91,
      field: 'tradeRegister',
      fileName: 'register.jpg',
      contentType: 'image/jpeg',
      bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]).buffer,
    };
    const response = await transport.send(entry(payload, 3), requestFor(payload));
    expect(response.status).toBe(201);
    expect(server.sent[0]).toMatchObject({
      url: '/api/rep/customers/91/documents',
      method: 'POST',
      headers: { 'idempotency-key': 'key-3-abcdef', authorization: 'Bearer token-1' },
    });
    // The browser writes the content type with the boundary: none is set by hand.
    expect(server.sent[0]?.headers['content-type']).toBeUndefined();
    const file = received[0]?.get('tradeRegister') as File;
    expect(file.name).toBe('register.jpg');
    expect(file.type).toBe('image/jpeg');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0xff, 0xd8, 0xff, 0xe0]);
  });

  it('gives a request that does not answer up after the timeout, so the queue is not held', async () => {
    const hanging: Fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as DOMException)),
      );
    const transport = createTransport(credentials().value, { fetch: hanging, timeoutMs: 50 });
    const started = Date.now();
    const payload: OutboxPayload = { kind: 'cart.clear' };
    await expect(transport.send(entry(payload), requestFor(payload))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('counts a response that is not JSON (a captive portal) as the server not reached', async () => {
    const portal: Fetch = () =>
      Promise.resolve(
        new Response('<html>Sign in to the Wi-Fi</html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        }),
      );
    const transport = createTransport(credentials().value, { fetch: portal });
    const payload: OutboxPayload = { kind: 'cart.clear' };
    await expect(transport.send(entry(payload), requestFor(payload))).rejects.toThrow(TypeError);
  });

  it('renews a refused access token once and sends the same request again with the same key', async () => {
    const server = fakeServer((request) =>
      request.headers.authorization === 'Bearer token-2'
        ? json(200, { items: [] })
        : json(401, { message: 'Your session has expired.' }),
    );
    const { value, renewals } = credentials('token-1', 'token-2');
    const transport = createTransport(value, { fetch: server.fetch });
    const payload: OutboxPayload = { kind: 'cart.add', productId: 5, quantity: 1 };
    expect((await transport.send(entry(payload), requestFor(payload))).status).toBe(200);
    expect(renewals).toEqual(['token-1']);
    expect(server.sent.map((r) => r.headers['idempotency-key'])).toEqual([
      'key-1-abcdef',
      'key-1-abcdef',
    ]);
  });

  it('gives the 401 back when the session cannot be renewed', async () => {
    const server = fakeServer(() => json(401, { message: 'Your session has expired.' }));
    const transport = createTransport(credentials('token-1', null).value, { fetch: server.fetch });
    const payload: OutboxPayload = { kind: 'cart.clear' };
    expect((await transport.send(entry(payload), requestFor(payload))).status).toBe(401);
    expect(server.sent).toHaveLength(1);
  });
});

describe('the session the service worker replays with', () => {
  let db: PortalDb;
  beforeEach(async () => {
    db = createPortalDb(`stored-session-${Math.random()}`);
    await db.session.put({
      key: 'current',
      userId: 1,
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
    });
  });
  afterEach(async () => {
    await db.delete();
  });

  const refreshServer = (answer: () => Response) => {
    const spent: string[] = [];
    const fetch: Fetch = (_input, init) => {
      spent.push((JSON.parse(init?.body as string) as { refreshToken: string }).refreshToken);
      return Promise.resolve(answer());
    };
    return { fetch, spent };
  };

  it('spends the refresh token once and leaves the new tokens for the page', async () => {
    const server = refreshServer(() =>
      json(200, { accessToken: 'access-2', refreshToken: 'refresh-2', user: { id: 1 } }),
    );
    const session = storedSessionCredentials(db, { fetch: server.fetch });
    expect(await session.renew('access-1', 1)).toBe('access-2');
    // A second replay refused with the old token finds the renewed one.
    expect(await session.renew('access-1', 1)).toBe('access-2');
    expect(server.spent).toEqual(['refresh-1']);
    expect(await db.session.get('current')).toMatchObject({
      accessToken: 'access-2',
      refreshToken: 'refresh-2',
    });
  });

  it('stops when the server refuses the refresh token, keeping the session for the page', async () => {
    const server = refreshServer(() => json(401, { message: 'Your session has expired.' }));
    const session = storedSessionCredentials(db, { fetch: server.fetch });
    expect(await session.renew('access-1', 1)).toBeNull();
    expect(await db.session.get('current')).toMatchObject({ refreshToken: 'refresh-1' });
  });

  it('writes nothing back when the user signed out while the refresh was on its way', async () => {
    const server = refreshServer(() =>
      json(200, { accessToken: 'access-2', refreshToken: 'refresh-2', user: { id: 1 } }),
    );
    const signingOut: Fetch = async (input, init) => {
      await db.session.delete('current');
      return server.fetch(input, init);
    };
    const session = storedSessionCredentials(db, { fetch: signingOut });
    await session.renew('access-1', 1);
    expect(await db.session.get('current')).toBeUndefined();
  });

  it('never sends an entry under the account of a user who signed in after its own', async () => {
    const { id, ...clear } = entry({ kind: 'cart.clear' });
    await db.outbox.add(clear);
    // User 1's token was refused; by the time the page renews it, user 1 has signed out
    // and user 2 has signed in on this device.
    const api = fakeServer((request) => {
      if (request.headers.authorization === 'Bearer access-1') {
        void db.session.put({
          key: 'current',
          userId: 2,
          accessToken: 'access-of-2',
          refreshToken: 'refresh-of-2',
        });
        return json(401, { message: 'Your session has expired.' });
      }
      return json(200, { items: [], subtotal: 0, total: 0, itemCount: 0, currency: 'EUR' });
    });
    const transport = createTransport(storedSessionCredentials(db, { fetch: api.fetch }), {
      fetch: api.fetch,
    });
    const result = await replayOutbox({ db, transport, currentUserId: () => 1 });
    expect(result).toMatchObject({ done: 0, needsSignIn: true });
    expect(api.sent.map((r) => r.headers.authorization)).toEqual(['Bearer access-1']);
    // Picked again while user 2 is signed in, it is not sent at all: it waits for user 1.
    await replayOutbox({ db, transport, currentUserId: () => 1 });
    expect(api.sent).toHaveLength(1);
    expect(await db.outbox.toArray()).toMatchObject([{ userId: 1, state: 'waiting' }]);
  });

  it('replays a removal with an expired token: renewed once, then taken by the server', async () => {
    const { id, ...removal } = entry({ kind: 'cart.remove', productId: 5 });
    await db.outbox.add(removal);
    const api = fakeServer((request) => {
      if (request.url === '/api/auth/refresh')
        return json(200, { accessToken: 'access-2', refreshToken: 'refresh-2', user: { id: 1 } });
      return request.headers.authorization === 'Bearer access-2'
        ? json(200, { items: [], subtotal: 0, total: 0, itemCount: 0, currency: 'EUR' })
        : json(401, { message: 'Your session has expired.' });
    });
    const result = await replayOutbox({
      db,
      transport: createTransport(storedSessionCredentials(db, { fetch: api.fetch }), {
        fetch: api.fetch,
      }),
      currentUserId: async () => (await db.session.get('current'))?.userId ?? null,
    });
    expect(result).toMatchObject({ done: 1, needsSignIn: false });
    expect(await db.outbox.count()).toBe(0);
    expect(api.sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /api/cart/items/5',
      'POST /api/auth/refresh',
      'DELETE /api/cart/items/5',
    ]);
  });
});

describe('telling which of two access tokens is newer', () => {
  it('compares their expiry, and says nothing is newer than a token it cannot read', () => {
    expect(isNewerToken(jwt(2_000), jwt(1_000))).toBe(true);
    expect(isNewerToken(jwt(1_000), jwt(2_000))).toBe(false);
    expect(isNewerToken(jwt(1_000), jwt(1_000))).toBe(false);
    expect(isNewerToken(jwt(1_000), 'expired.token.value')).toBe(false);
    expect(isNewerToken('garbage', jwt(1_000))).toBe(false);
  });
});
