import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderList } from '../../src/contracts/order-lists';
import type { OutboxEntry, OutboxPayload } from '../../src/lib/sync/outbox-rules';

// A salon's order lists on the device, with the session faked and the server played by a
// small copy of /api/lists (docs/api.md#order-lists) behind a fetch the test controls.
const session = vi.hoisted(() => ({
  current: null as null | {
    accessToken: string;
    refreshToken: string;
    user: {
      id: number;
      role: 'USER';
      company: { id: number; isVerified: boolean; status: 'APPROVED' };
    };
  },
}));
vi.mock('../../src/lib/auth/session-store', () => ({
  getSession: () => session.current,
  signedInUserId: () => session.current?.user.id ?? null,
  subscribeSession: () => () => undefined,
  updateStoredUser: () => undefined,
  saveSession: () => Promise.resolve(),
  clearSession: () => {
    session.current = null;
    return Promise.resolve();
  },
}));

const { db } = await import('../../src/lib/db/db');
const { requestSync, syncLoop } = await import('../../src/lib/sync/device');
const { refreshOrderLists, storeOrderLists } = await import('../../src/lib/sync/order-lists');
const lists = await import('../../src/lib/sync/list-changes');
const { signOut } = await import('../../src/lib/auth/session-actions');
const { createTransport } = await import('../../src/lib/sync/transport');
const { requestFor } = await import('../../src/lib/sync/outbox-rules');

const signIn = (userId: number) => {
  session.current = {
    accessToken: `token-${userId}`,
    refreshToken: `refresh-${userId}`,
    user: {
      id: userId,
      role: 'USER',
      company: { id: userId * 10, isVerified: true, status: 'APPROVED' },
    },
  };
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** One request the server took: method, path, key and body as sent. */
interface Taken {
  call: string;
  key: string | null;
  contentType: string | null;
  body: string | null;
}

/**
 * /api/lists as the server keeps it, for one user. Every change sets a value; it does not
 * look at Idempotency-Key, so a change taken twice is applied twice, and must still leave
 * the list as once. `online` false: no answer at all; `loseAnswers`: the next n changes are
 * made, and their answers lost on the way back.
 */
function listServer() {
  const kept = new Map<string, OrderList>();
  const taken: Taken[] = [];
  let clock = Date.UTC(2026, 10, 27, 9);
  const now = () => new Date((clock += 1000)).toISOString();
  const notFound = () =>
    json({ message: 'Order list not found', details: null, code: 'LIST_NOT_FOUND' }, 404);
  const server = {
    kept,
    taken,
    online: true,
    loseAnswers: 0,
    /** The changes taken, as "METHOD path". */
    calls: () => taken.map((request) => request.call),
    answer(method: string, path: string, body: unknown): Response {
      if (path === '/api/lists' && method === 'GET') return json({ lists: [...kept.values()] });
      const [, listId, productId] =
        /^\/api\/lists\/([^/]+)(?:\/items\/(\d+))?$/.exec(path) ?? ([] as string[]);
      if (!listId) {
        if (path === '/api/orders') return json({ orders: [] });
        if (path === '/api/health') return json({ status: 'ok' });
        if (path === '/api/companies/me') return json({ message: 'Not found' }, 404);
        return json({ items: [], subtotal: 0, total: 0, itemCount: 0, currency: 'EUR' });
      }
      const list = kept.get(listId);
      if (productId === undefined) {
        if (method === 'DELETE') {
          // Deleted already (on another device): gone, as asked.
          kept.delete(listId);
          return json({ message: 'Order list deleted.' });
        }
        const { name } = body as { name: string };
        const at = now();
        const saved = list
          ? { ...list, name: name.trim(), updatedAt: at }
          : { id: listId, name: name.trim(), items: [], createdAt: at, updatedAt: at };
        kept.set(listId, saved);
        return json(saved, list ? 200 : 201);
      }
      if (!list) return notFound();
      const id = Number(productId);
      const items = list.items.filter((item) => item.productId !== id);
      if (method === 'PUT') {
        const { quantity } = body as { quantity: number };
        const at = list.items.findIndex((item) => item.productId === id);
        items.splice(at === -1 ? items.length : at, 0, { productId: id, quantity });
      }
      const saved = { ...list, items, updatedAt: now() };
      kept.set(listId, saved);
      return json(saved);
    },
    async fetch(input: string | Request, init?: RequestInit): Promise<Response> {
      const request = typeof input === 'string' ? undefined : input;
      const path = request ? new URL(request.url).pathname : (input as string);
      const method = init?.method ?? request?.method ?? 'GET';
      const headers = new Headers(init?.headers ?? request?.headers);
      const text = typeof init?.body === 'string' ? init.body : request ? await request.text() : '';
      if (!server.online) throw new TypeError('Failed to fetch');
      if (path.startsWith('/api/lists') && method !== 'GET') {
        taken.push({
          call: `${method} ${path.replace('/api/', '')}`,
          key: headers.get('idempotency-key'),
          contentType: headers.get('content-type'),
          body: text || null,
        });
      }
      const response = server.answer(method, path, text ? JSON.parse(text) : undefined);
      if (path.startsWith('/api/lists') && method !== 'GET' && server.loseAnswers > 0) {
        server.loseAnswers -= 1;
        throw new TypeError('The connection was reset');
      }
      return response;
    },
  };
  return server;
}

let server: ReturnType<typeof listServer>;

beforeEach(() => {
  signIn(1);
  server = listServer();
  vi.stubGlobal('navigator', { onLine: true });
  vi.stubGlobal('fetch', (input: string | Request, init?: RequestInit) =>
    server.fetch(input, init),
  );
  // The app's client asks for '/api/…', which Node resolves only against an origin.
  vi.stubGlobal(
    'Request',
    class extends Request {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://portal.test') : input, init);
      }
    },
  );
});
afterEach(async () => {
  await vi.waitFor(() => expect(syncLoop.getState().running).toBe(false), { timeout: 10_000 });
  await Promise.all([db.outbox.clear(), db.orderLists.clear()]);
  vi.unstubAllGlobals();
});

/** Sends what waits, as when the server can be reached again, and waits until all of it went. */
async function backOnline() {
  server.online = true;
  requestSync({ now: true });
  await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0), { timeout: 10_000 });
  await vi.waitFor(() => expect(syncLoop.getState().running).toBe(false), { timeout: 10_000 });
}

const view = () => lists.readOrderLists(1);

describe('order list changes made offline', () => {
  it('wait in the outbox, show at once, and reach the server in the order they were made', async () => {
    server.online = false;
    const listId = await lists.makeList('  Back-bar ');
    expect(await lists.addToList(listId, 5, 2)).toBe(2);
    await lists.addToList(listId, 7, 1);
    expect(await lists.addToList(listId, 5, 4)).toBe(6);
    await lists.renameList(listId, 'Back bar');
    await lists.removeListItem(listId, 7);

    expect(await view()).toMatchObject([
      { id: listId, name: 'Back bar', items: [{ productId: 5, quantity: 6 }], waiting: 6 },
    ]);
    expect((await db.outbox.orderBy('id').toArray()).map((entry) => entry.kind)).toEqual([
      'list.put',
      'list.item.put',
      'list.item.put',
      'list.item.put',
      'list.put',
      'list.item.delete',
    ]);
    expect(server.kept.size).toBe(0);

    await backOnline();
    // Attempts made while offline never reached it: each change arrived once, in order.
    expect(server.calls()).toEqual([
      `PUT lists/${listId}`,
      `PUT lists/${listId}/items/5`,
      `PUT lists/${listId}/items/7`,
      `PUT lists/${listId}/items/5`,
      `PUT lists/${listId}`,
      `DELETE lists/${listId}/items/7`,
    ]);
    expect(server.kept.get(listId)).toMatchObject({
      name: 'Back bar',
      items: [{ productId: 5, quantity: 6 }],
    });
    // The device now holds the server's list, with nothing waiting on top.
    expect(await view()).toEqual([{ ...server.kept.get(listId), waiting: 0 }]);
    expect((await db.orderLists.get([1, listId]))?.list).toEqual(server.kept.get(listId));
  });

  it('are sent again with the same key when the answer was lost, and leave the list as once', async () => {
    server.loseAnswers = 2;
    const listId = await lists.makeList('Christmas');
    await lists.addToList(listId, 9, 3);
    await backOnline();

    const calls = server.taken.map((request) => `${request.call} ${request.key ?? ''}`);
    // Each change was made twice: once before its answer was lost, once when sent again.
    expect(server.taken).toHaveLength(4);
    expect(new Set(calls).size).toBe(2);
    expect([...server.kept.values()]).toEqual([
      expect.objectContaining({
        id: listId,
        name: 'Christmas',
        items: [{ productId: 9, quantity: 3 }],
      }),
    ]);
    expect(await view()).toMatchObject([
      { id: listId, items: [{ productId: 9, quantity: 3 }], waiting: 0 },
    ]);
  });

  it('go to the sync centre when the server no longer has the list, holding back its later changes only', async () => {
    await storeOrderLists(
      db,
      1,
      [{ id: crypto.randomUUID(), name: 'Gone', items: [], createdAt: '', updatedAt: '' }],
      '',
    );
    const [gone] = await view();
    server.online = false;
    await lists.addToList(gone!.id, 5, 1);
    await lists.addToList(gone!.id, 6, 1);
    const other = await lists.makeList('Kept');
    await lists.addToList(other, 5, 2);

    server.online = true;
    requestSync({ now: true });
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(2), { timeout: 10_000 });
    await vi.waitFor(() => expect(syncLoop.getState().running).toBe(false), { timeout: 10_000 });
    const [refused, held] = await db.outbox.orderBy('id').toArray();
    expect(refused).toMatchObject({
      kind: 'list.item.put',
      state: 'attention',
      error: { status: 404, code: 'LIST_NOT_FOUND' },
    });
    expect(held).toMatchObject({ kind: 'list.item.put', state: 'waiting', attempts: 0 });
    expect(server.kept.get(other)?.items).toEqual([{ productId: 5, quantity: 2 }]);
    // A refused change is not shown as made.
    expect((await view()).find((list) => list.id === gone!.id)?.items).toEqual([
      { productId: 6, quantity: 1 },
    ]);
  });
});

describe('the lists the device shows', () => {
  /** A list as the server answers it, made on the `day`th of November. */
  const serverList = (id: string, name: string, items: OrderList['items'], day = 1): OrderList => ({
    id,
    name,
    items,
    createdAt: `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`,
    updatedAt: '2026-11-20T10:00:00.000Z',
  });
  const entry = (payload: OutboxPayload, state: OutboxEntry['state'] = 'waiting'): OutboxEntry => ({
    userId: 1,
    kind: payload.kind,
    payload,
    idempotencyKey: crypto.randomUUID(),
    createdAt: '2026-11-27T09:00:00.000Z',
    attempts: 0,
    nextAttemptAt: 0,
    state,
  });

  it('are the server’s lists with the waiting changes on top, a refused change left out', async () => {
    const a = crypto.randomUUID();
    const b = crypto.randomUUID();
    const c = crypto.randomUUID();
    await storeOrderLists(
      db,
      1,
      [
        serverList(a, 'Back-bar', [
          { productId: 1, quantity: 2 },
          { productId: 2, quantity: 1 },
        ]),
        serverList(b, 'Xmas', [{ productId: 3, quantity: 5 }], 2),
      ],
      '',
    );
    await db.outbox.bulkAdd([
      entry({ kind: 'list.item.put', listId: a, listName: 'Back-bar', productId: 2, quantity: 4 }),
      entry({ kind: 'list.item.put', listId: a, listName: 'Back-bar', productId: 8, quantity: 1 }),
      entry({ kind: 'list.put', listId: b, listName: 'Christmas' }),
      entry({ kind: 'list.item.delete', listId: b, listName: 'Christmas', productId: 3 }),
      entry({ kind: 'list.put', listId: c, listName: 'Summer' }),
      entry({ kind: 'list.delete', listId: a, listName: 'Back-bar' }, 'attention'),
      entry({ kind: 'cart.add', productId: 1, quantity: 1 }),
    ]);
    expect((await view()).map(({ name, items, waiting }) => ({ name, items, waiting }))).toEqual([
      {
        name: 'Back-bar',
        items: [
          { productId: 1, quantity: 2 },
          { productId: 2, quantity: 4 },
          { productId: 8, quantity: 1 },
        ],
        waiting: 2,
      },
      { name: 'Christmas', items: [], waiting: 2 },
      { name: 'Summer', items: [], waiting: 1 },
    ]);
  });

  it('are read from the server with the account’s data, in place of those kept before', async () => {
    const old = crypto.randomUUID();
    await storeOrderLists(db, 1, [serverList(old, 'Old', [])], '');
    const fresh = serverList(crypto.randomUUID(), 'Fresh', [{ productId: 4, quantity: 1 }]);
    server.kept.set(fresh.id, fresh);
    requestSync({ refresh: true });
    await vi.waitFor(
      async () => expect((await view()).map((list) => list.name)).toEqual(['Fresh']),
      { timeout: 10_000 },
    );
    expect((await view())[0]).toEqual({ ...fresh, waiting: 0 });
  });

  it('are read from the server while the only list changes left wait for the user', async () => {
    const gone = crypto.randomUUID();
    await db.outbox.bulkAdd([
      entry(
        { kind: 'list.item.put', listId: gone, listName: 'Gone', productId: 5, quantity: 1 },
        'attention',
      ),
      // Held back by the refused change of the same list: it is not sent before the user answers.
      entry({ kind: 'list.item.put', listId: gone, listName: 'Gone', productId: 6, quantity: 1 }),
    ]);
    const made = serverList(crypto.randomUUID(), 'Made on the tablet', [
      { productId: 4, quantity: 1 },
    ]);
    await storeOrderLists(db, 1, [made], '');
    expect((await view()).map((list) => list.name)).toEqual(['Made on the tablet']);

    // A change of a list that is still to be sent: the server's answer may not hold it yet.
    await db.outbox.add(entry({ kind: 'list.put', listId: made.id, listName: 'Renamed' }));
    await storeOrderLists(db, 1, [], '');
    expect((await view()).map((list) => list.name)).toEqual(['Renamed']);
  });

  it('do not get back a deleted list from a read asked before the deletion was answered', async () => {
    const listId = crypto.randomUUID();
    const list = serverList(listId, 'Summer', [{ productId: 4, quantity: 2 }]);
    server.kept.set(listId, list);
    await storeOrderLists(db, 1, [list], '');
    // A read of the lists leaves now, and its answer, which still holds the list, comes
    // back after the deletion's.
    const askedAt = new Date(Date.now() - 1).toISOString();
    await lists.deleteList(listId);
    await backOnline();
    expect(server.kept.has(listId)).toBe(false);
    await storeOrderLists(db, 1, [list], askedAt);
    expect(await view()).toEqual([]);
    // The next read, asked after the deletion, is the server's alone.
    const next = serverList(crypto.randomUUID(), 'Autumn', []);
    await storeOrderLists(db, 1, [next], new Date().toISOString());
    expect((await view()).map((kept) => kept.name)).toEqual(['Autumn']);
    expect(await db.orderLists.count()).toBe(1);
  });

  it('delete a list the server no longer has without asking the user anything', async () => {
    const listId = crypto.randomUUID();
    await storeOrderLists(db, 1, [serverList(listId, 'Gone elsewhere', [])], '');
    await lists.deleteList(listId);
    await backOnline();
    expect(await view()).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('are not replaced by a read from the server while a change of a list waits', async () => {
    server.online = false;
    const listId = await lists.makeList('Waiting');
    server.online = true;
    server.kept.clear();
    await storeOrderLists(db, 1, [], new Date().toISOString());
    expect((await view()).map((list) => list.id)).toEqual([listId]);
    await backOnline();
  });
});

describe('the device’s limits', () => {
  it('refuse a change the server would refuse, before it is queued', async () => {
    server.online = false;
    await expect(lists.makeList('   ')).rejects.toMatchObject({ problem: 'nameRequired' });
    await expect(lists.makeList('x'.repeat(61))).rejects.toMatchObject({ problem: 'nameTooLong' });
    const listId = await lists.makeList('Limits');
    await expect(lists.setListItem(listId, 5, 0)).rejects.toMatchObject({ problem: 'quantity' });
    await expect(lists.setListItem(listId, 5, 10_000)).rejects.toMatchObject({
      problem: 'quantity',
    });
    await expect(lists.removeListItem(crypto.randomUUID(), 5)).rejects.toMatchObject({
      problem: 'notFound',
    });
    expect(await lists.addToList(listId, 5, 9_000)).toBe(9_000);
    expect(await lists.addToList(listId, 5, 9_000)).toBe(9_999);
    expect(await db.outbox.count()).toBe(3);
    server.online = true;
    await backOnline();
  });
});

describe('signing out', () => {
  it('removes the user’s lists from the device, and keeps the changes not sent yet', async () => {
    const kept = { id: crypto.randomUUID(), name: 'Kept', items: [], createdAt: '', updatedAt: '' };
    server.kept.set(kept.id, kept);
    await refreshOrderLists();
    await db.orderLists.put({
      userId: 2,
      id: 'other',
      list: { ...kept, id: 'other' },
      syncedAt: '',
    });
    server.online = false;
    await lists.makeList('Not sent yet');
    expect(await view()).toHaveLength(2);

    await signOut();
    expect(await db.orderLists.where('userId').equals(1).count()).toBe(0);
    expect(await db.orderLists.where('userId').equals(2).count()).toBe(1);
    expect(await db.outbox.where('userId').equals(1).count()).toBe(1);
    expect(await lists.readOrderLists(null)).toEqual([]);
  });
});

describe('the service worker’s transport', () => {
  it('sends a removal without a body or a JSON content type, and a setting as JSON', async () => {
    const sent: { method: string; url: string; headers: Headers; body: unknown }[] = [];
    const transport = createTransport(
      { accessToken: () => 'token', renew: () => Promise.resolve(null) },
      {
        fetch: (input, init) => {
          sent.push({
            method: init?.method ?? 'GET',
            // The transport asks for a path, as a string.
            url: input as string,
            headers: new Headers(init?.headers),
            body: init?.body,
          });
          return Promise.resolve(json({}));
        },
      },
    );
    const listId = crypto.randomUUID();
    const payloads: OutboxPayload[] = [
      { kind: 'list.delete', listId, listName: 'A' },
      { kind: 'list.item.delete', listId, listName: 'A', productId: 3 },
      { kind: 'list.item.put', listId, listName: 'A', productId: 3, quantity: 2 },
      { kind: 'list.put', listId, listName: 'A' },
    ];
    for (const payload of payloads) {
      const entry: OutboxEntry = {
        userId: 1,
        kind: payload.kind,
        payload,
        idempotencyKey: `key-${payload.kind}`,
        createdAt: '',
        attempts: 0,
        nextAttemptAt: 0,
        state: 'waiting',
      };
      await transport.send(entry, requestFor(payload));
    }
    expect(
      sent.map(({ method, url, headers, body }) => [
        `${method} ${url}`,
        headers.get('content-type'),
        body ?? null,
        headers.get('idempotency-key'),
      ]),
    ).toEqual([
      [`DELETE /api/lists/${listId}`, null, null, 'key-list.delete'],
      [`DELETE /api/lists/${listId}/items/3`, null, null, 'key-list.item.delete'],
      [
        `PUT /api/lists/${listId}/items/3`,
        'application/json',
        '{"quantity":2}',
        'key-list.item.put',
      ],
      [`PUT /api/lists/${listId}`, 'application/json', '{"name":"A"}', 'key-list.put'],
    ]);
  });
});
