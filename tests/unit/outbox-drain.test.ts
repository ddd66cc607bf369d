import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cartLine, cartOf, type Cart } from '../../src/contracts/orders';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import {
  makeWaitingDue,
  replayOutbox,
  sendable,
  type Transport,
  type TransportResponse,
} from '../../src/lib/sync/outbox-replay';
import {
  compaction,
  KEEPS_FAILING_ATTEMPTS,
  mergeLineChanges,
  serverKeepsFailing,
  withLineFrom,
  type OutboxEntry,
  type OutboxPayload,
  type OutboxRequest,
} from '../../src/lib/sync/outbox-rules';
import { ADDRESS } from '../fixtures/shipping-address';

// The drain of a long outbox: waiting changes of one cart line merged into one request,
// changes of different lines sent side by side; still exactly once and in order.

const add = (productId: number, quantity = 1): OutboxPayload => ({
  kind: 'cart.add',
  productId,
  quantity,
});
const set = (productId: number, quantity: number): OutboxPayload => ({
  kind: 'cart.update',
  productId,
  quantity,
});
const remove = (productId: number): OutboxPayload => ({ kind: 'cart.remove', productId });
const clear: OutboxPayload = { kind: 'cart.clear' };
const checkout = (localRef = 'L-1'): OutboxPayload => ({
  kind: 'checkout',
  shippingAddress: ADDRESS,
  notes: '',
  localRef,
});

let ids = 0;
const entry = (payload: OutboxPayload, extra: Partial<OutboxEntry> = {}): OutboxEntry => ({
  id: (ids += 1),
  userId: 1,
  kind: payload.kind,
  payload,
  idempotencyKey: `key-${ids}`,
  createdAt: '',
  attempts: 0,
  nextAttemptAt: 0,
  state: 'waiting',
  ...extra,
});

const product = (id: number) => ({
  id,
  name: `P${id}`,
  sku: `S${id}`,
  images: [],
  stock: 1_000,
  stockQuantity: 1_000,
  inStock: true,
});
const cartOfLines = (lines: readonly (readonly [number, number])[]): Cart =>
  cartOf(lines.map(([id, quantity]) => cartLine(product(id), quantity, 10)));
const linesOf = (cart: Cart | undefined) =>
  (cart?.items ?? []).map((item) => [item.productId, item.quantity]);

describe('merging waiting changes of one cart line', () => {
  it.each([
    ['add 2, add 3', add(5, 2), add(5, 3), add(5, 5)],
    ['set 2, set 7', set(5, 2), set(5, 7), set(5, 7)],
    ['add, remove', add(5, 2), remove(5), remove(5)],
    ['set, remove', set(5, 2), remove(5), remove(5)],
    ['remove, remove', remove(5), remove(5), remove(5)],
    ['add, set (the line may not exist for the set)', add(5, 2), set(5, 7), undefined],
    ['set, add (the set may fail where the add would not)', set(5, 2), add(5, 1), undefined],
    ['remove, add', remove(5), add(5, 1), undefined],
    ['remove, set', remove(5), set(5, 1), undefined],
    [
      'add 9000, add 1000 (above the largest quantity of a line)',
      add(5, 9000),
      add(5, 1000),
      undefined,
    ],
    ['changes of two lines', add(5, 1), add(6, 1), undefined],
  ])('%s', (_, first, second, merged) => {
    expect(
      mergeLineChanges(
        first as Parameters<typeof mergeLineChanges>[0],
        second as Parameters<typeof mergeLineChanges>[1],
      ),
    ).toEqual(merged);
  });

  it('merges the changes of a line across changes of other lines, into the first of them', () => {
    const entries = [
      entry(add(1)),
      entry(add(2)),
      entry(add(1)),
      entry(remove(3)),
      entry(add(2, 4)),
      entry(add(1)),
    ];
    const { merged, dropped } = compaction(entries);
    expect(Object.fromEntries(merged)).toEqual({
      [entries[0]!.id!]: add(1, 3),
      [entries[1]!.id!]: add(2, 5),
    });
    expect(dropped).toEqual([entries[2]!.id, entries[4]!.id, entries[5]!.id]);
  });

  it('never merges across a clear, a checkout, a cancellation or a profile edit', () => {
    const barriers: OutboxPayload[] = [
      clear,
      checkout(),
      { kind: 'order.cancel', orderId: 4, orderNumber: 'FP-4', cancellationReason: '' },
      { kind: 'profile.update', firstName: 'A', lastName: 'B', email: 'a@b.co' },
    ];
    for (const barrier of barriers) {
      const result = compaction([entry(add(1)), entry(barrier), entry(add(1))]);
      expect(result.dropped).toEqual([]);
    }
  });

  it('never merges an entry the server may already know, nor a later change across it', () => {
    const known: Partial<OutboxEntry>[] = [
      { sent: true },
      { state: 'sending' },
      { attempts: 1, nextAttemptAt: 5 },
      { state: 'attention', error: { status: 422, message: 'Out of stock' } },
    ];
    for (const extra of known) {
      const first = entry(add(1));
      const maybeSent = entry(add(1), extra);
      const third = entry(add(1));
      expect(compaction([maybeSent, entry(add(1)), entry(add(1))]).merged.has(maybeSent.id!)).toBe(
        false,
      );
      expect(compaction([first, maybeSent, third]).dropped).toEqual([]);
    }
  });
});

describe('what can be sent at once', () => {
  const pick = (entries: OutboxEntry[], serverLines: number[] = [], onTheirWay: number[] = []) =>
    sendable(entries, {
      onTheirWay: new Set(onTheirWay),
      now: 0,
      serverLines: new Set(serverLines),
    }).ready.map((e) => e.id);

  it('sends changes of different lines side by side, and a checkout only after all of them', () => {
    const entries = [entry(set(1, 2)), entry(remove(2)), entry(add(3)), entry(checkout())];
    expect(pick(entries, [1, 2, 3])).toEqual([entries[0]!.id, entries[1]!.id, entries[2]!.id]);
    expect(pick(entries.slice(3))).toEqual([entries[3]!.id]);
  });

  it('keeps two changes of one line, and two additions that each make a line, in order', () => {
    const entries = [entry(add(1)), entry(add(2)), entry(set(1, 5)), entry(add(3))];
    // Lines 1 and 2 are new: line 2 waits for line 1 to be made; line 3 is on the server.
    expect(pick(entries, [3])).toEqual([entries[0]!.id, entries[3]!.id]);
    // Line 1 on its way: the change of its quantity waits, line 2 still waits for it.
    expect(pick(entries, [3], [entries[0]!.id!, entries[3]!.id!])).toEqual([]);
  });

  it('counts a line removed by an earlier entry as one to make again', () => {
    const entries = [entry(remove(1)), entry(add(2)), entry(add(1))];
    expect(pick(entries, [1])).toEqual([entries[0]!.id, entries[1]!.id]);
  });

  it('stops at an entry that is backing off, and sets aside what waits for one that needs attention', () => {
    const refused = entry(add(1), { state: 'attention' });
    const blocked = entry(set(1, 2));
    const backingOff = entry(add(2), { attempts: 2, nextAttemptAt: 10 });
    const later = entry(add(3));
    const picked = sendable([refused, blocked, backingOff, later], {
      onTheirWay: new Set(),
      now: 0,
    });
    expect(picked.ready).toEqual([]);
    expect(picked.backingOff?.id).toBe(backingOff.id);
  });

  it('holds nothing back behind a refused order: the lowered quantity and the new order go', () => {
    // The server refused an order for stock; the user lowered the quantity and ordered again.
    const refused = entry(checkout(), { state: 'attention' });
    const lowered = entry(set(1, 2));
    const again = entry(checkout());
    expect(pick([refused, lowered, again], [1])).toEqual([lowered.id]);
    expect(pick([refused, again], [1])).toEqual([again.id]);
    // A refused cart change still holds back the order after it, which orders the whole cart.
    const refusedChange = entry(add(3), { state: 'attention' });
    expect(pick([refusedChange, again], [1])).toEqual([]);
  });

  it('takes from an answer that shared its flight only its own line', () => {
    const base = cartOfLines([
      [1, 1],
      [2, 5],
    ]);
    const olderAnswer = cartOfLines([
      [1, 3],
      [2, 1],
    ]);
    expect(linesOf(withLineFrom(base, olderAnswer, 1))).toEqual([
      [1, 3],
      [2, 5],
    ]);
    expect(linesOf(withLineFrom(base, cartOfLines([[3, 2]]), 3))).toEqual([
      [1, 1],
      [2, 5],
      [3, 2],
    ]);
    expect(linesOf(withLineFrom(base, cartOfLines([[2, 5]]), 1))).toEqual([[2, 5]]);
  });
});

/**
 * A server with the API's cart rules and Idempotency-Key rules: a key's first answer is
 * recorded and given again for the same request, another request under it is refused.
 * What a request does happens when it arrives; the network may drop it on the way there
 * or lose its answer on the way back, and requests on their way at once may arrive in
 * any order.
 */
function cartServer(options: { random?: () => number } = {}) {
  const random = options.random ?? (() => 0);
  const lines: { productId: number; quantity: number }[] = [];
  const orders: (readonly [number, number])[][] = [];
  const recorded = new Map<string, { request: string; response: TransportResponse }>();
  const refusals: string[] = [];
  const fault: { next: (request: OutboxRequest) => 'none' | 'drop' | 'lose' } = {
    next: () => 'none',
  };
  let onTheirWay = 0;
  let mostAtOnce = 0;
  const arrivals: string[] = [];
  const cart = () => cartOfLines(lines.map((line) => [line.productId, line.quantity]));
  const refuse = (status: number, message: string): TransportResponse => {
    refusals.push(message);
    return { status, body: { message } };
  };

  function effect(request: OutboxRequest): TransportResponse {
    const path = `${request.method} ${request.path}`;
    const itemId = Number(request.path.split('/')[2]);
    const at = (productId: number) => lines.findIndex((line) => line.productId === productId);
    if (path === 'POST cart/add') {
      const { productId, quantity } = request.body as { productId: number; quantity: number };
      const line = lines[at(productId)];
      if (line) line.quantity += quantity;
      else lines.push({ productId, quantity });
      return { status: 200, body: cart() };
    }
    if (request.method === 'PUT' && request.path.startsWith('cart/items/')) {
      const { quantity } = request.body as { quantity: number };
      const line = lines[at(itemId)];
      if (line) line.quantity = quantity;
      else lines.push({ productId: itemId, quantity });
      return { status: 200, body: cart() };
    }
    if (request.method === 'DELETE' && request.path.startsWith('cart/items/')) {
      if (at(itemId) !== -1) lines.splice(at(itemId), 1);
      return { status: 200, body: cart() };
    }
    if (path === 'DELETE cart') {
      lines.length = 0;
      return { status: 200, body: cart() };
    }
    if (path === 'POST cart/checkout') {
      if (lines.length === 0) return refuse(400, 'Your cart is empty');
      const ordered = [...lines]
        .sort((a, b) => a.productId - b.productId)
        .map((line) => [line.productId, line.quantity] as const);
      orders.push(ordered);
      lines.length = 0;
      const id = orders.length;
      return {
        status: 201,
        body: { order: { id, orderNumber: `FP-${id}`, createdAt: '', orderItems: [] } },
      };
    }
    return refuse(400, `Unknown request ${path}`);
  }

  const wait = () => new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3)));

  const transport: Transport = {
    async send(entry, request) {
      onTheirWay += 1;
      mostAtOnce = Math.max(mostAtOnce, onTheirWay);
      try {
        const happens = fault.next(request);
        await wait();
        if (happens === 'drop') throw new TypeError('Failed to fetch');
        arrivals.push(`${request.method} ${request.path}`);
        const fingerprint = JSON.stringify(request);
        const known = recorded.get(entry.idempotencyKey);
        let response: TransportResponse;
        if (known) {
          response =
            known.request === fingerprint
              ? known.response
              : refuse(422, 'This Idempotency-Key was already used for a different request.');
        } else {
          response = effect(request);
          if (response.status < 300) {
            recorded.set(entry.idempotencyKey, { request: fingerprint, response });
          }
        }
        await wait();
        if (happens === 'lose') throw new TypeError('Failed to fetch');
        return structuredClone(response);
      } finally {
        onTheirWay -= 1;
      }
    },
  };
  return {
    transport,
    fault,
    refusals,
    arrivals,
    orders,
    lines: () => lines.map((line) => [line.productId, line.quantity]),
    mostAtOnce: () => mostAtOnce,
    recordedKeys: () => recorded.size,
  };
}

let db: PortalDb;
let now = 1_000_000;

beforeEach(() => {
  db = createPortalDb(`outbox-drain-${Math.random()}`);
  now = 1_000_000;
});
afterEach(async () => {
  await db.delete();
});

let keys = 0;
async function queue(payload: OutboxPayload): Promise<number> {
  return (await db.outbox.add({
    userId: 1,
    kind: payload.kind,
    payload,
    idempotencyKey: `queued-${(keys += 1)}`,
    createdAt: new Date(now).toISOString(),
    attempts: 0,
    nextAttemptAt: 0,
    state: 'waiting',
  })) as number;
}

const replay = (transport: Transport) =>
  replayOutbox({ db, transport, currentUserId: () => 1, now: () => now, random: () => 0.5 });

describe('draining a long outbox', () => {
  it('sends 100 additions over five lines and a checkout as five additions and a checkout', async () => {
    for (let i = 0; i < 100; i += 1) await queue(add((i % 5) + 1));
    await queue(checkout());
    const server = cartServer();
    const result = await replay(server.transport);
    expect(result).toMatchObject({ requests: 6, done: 6, retryAt: null });
    expect(server.arrivals).toEqual([
      'POST cart/add',
      'POST cart/add',
      'POST cart/add',
      'POST cart/add',
      'POST cart/add',
      'POST cart/checkout',
    ]);
    expect(server.orders).toEqual([
      [
        [1, 20],
        [2, 20],
        [3, 20],
        [4, 20],
        [5, 20],
      ],
    ]);
    expect(server.refusals).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('sends changes of lines the server has side by side, at most four at once, the checkout last', async () => {
    const server = cartServer();
    for (let id = 1; id <= 6; id += 1) await queue(add(id));
    await replay(server.transport);
    expect(server.mostAtOnce()).toBe(1);

    for (let id = 1; id <= 6; id += 1) await queue(set(id, 10 + id));
    await queue(checkout());
    await replay(server.transport);
    expect(server.mostAtOnce()).toBe(4);
    expect(server.arrivals.at(-1)).toBe('POST cart/checkout');
    expect(server.orders).toEqual([[1, 2, 3, 4, 5, 6].map((id) => [id, 10 + id])]);
  });

  it('resends an entry whose answer was lost as it was, under its key, and merges only what came after', async () => {
    const server = cartServer();
    await queue(add(1));
    server.fault.next = () => 'lose';
    expect((await replay(server.transport)).retryAt).not.toBeNull();
    expect(server.lines()).toEqual([[1, 1]]);
    const [tried] = await db.outbox.toArray();
    expect(tried).toMatchObject({ sent: true, attempts: 1, responseLost: true, payload: add(1) });

    // More of the same line while the first waits for its retry.
    await queue(add(1));
    await queue(add(1));
    server.fault.next = () => 'none';
    await makeWaitingDue(db, 1);
    const result = await replay(server.transport);
    expect(result).toMatchObject({ requests: 2, done: 2 });
    expect(server.lines()).toEqual([[1, 3]]);
    expect(server.refusals).toEqual([]);
    expect(server.recordedKeys()).toBe(2);
  });

  it('remembers when the server may have made a change that no response confirmed', async () => {
    const answering = (status: number, code?: string): Transport => ({
      send: () => Promise.resolve({ status, body: { message: 'Not now', code } }),
    });
    const id = await queue(add(1));
    // A server fault with its response: the server did not make the change.
    await replay(answering(500));
    expect(await db.outbox.get(id)).toMatchObject({ attempts: 1, error: { status: 500 } });
    expect((await db.outbox.get(id))?.responseLost).toBeUndefined();
    // "Still in progress": another copy of the request was running, and may have made it.
    await makeWaitingDue(db, 1);
    await replay(answering(409, 'REQUEST_IN_PROGRESS'));
    expect(await db.outbox.get(id)).toMatchObject({ attempts: 2, responseLost: true });

    // An entry the app left on its way (it stopped before the response came).
    const left = await queue(add(2));
    await db.outbox.update(left, { state: 'sending', sent: true });
    await db.outbox.delete(id);
    await replay(answering(500));
    expect(await db.outbox.get(left)).toMatchObject({ attempts: 1, responseLost: true });
  });

  it('lets the user give up an entry only once the server surely failed it three times', async () => {
    const id = await queue(add(1));
    const fault: Transport = {
      send: () => Promise.resolve({ status: 500, body: { message: 'Internal Server Error' } }),
    };
    const given = async () => serverKeepsFailing((await db.outbox.get(id)) as OutboxEntry);
    for (let attempt = 1; attempt < KEEPS_FAILING_ATTEMPTS; attempt += 1) {
      await makeWaitingDue(db, 1);
      await replay(fault);
      expect(await given()).toBeUndefined();
    }
    await makeWaitingDue(db, 1);
    await replay(fault);
    expect(await given()).toBe('notMade');
  });

  it('lets the user give up an entry whose response was lost once the server failed it three times since, saying it may be made', async () => {
    const id = await queue(add(1));
    const fault: Transport = {
      send: () => Promise.resolve({ status: 500, body: { message: 'Internal Server Error' } }),
    };
    const lost: Transport = { send: () => Promise.reject(new TypeError('Failed to fetch')) };
    const given = async () => serverKeepsFailing((await db.outbox.get(id)) as OutboxEntry);
    // Two faults, then a lost response: the server may have the change, whatever came before.
    for (const transport of [fault, fault, lost]) {
      await makeWaitingDue(db, 1);
      await replay(transport);
    }
    expect(await given()).toBeUndefined();
    for (let attempt = 1; attempt < KEEPS_FAILING_ATTEMPTS; attempt += 1) {
      await makeWaitingDue(db, 1);
      await replay(fault);
      expect(await given()).toBeUndefined();
    }
    // A lost response in between starts the count again.
    await makeWaitingDue(db, 1);
    await replay(lost);
    for (let attempt = 1; attempt <= KEEPS_FAILING_ATTEMPTS; attempt += 1) {
      await makeWaitingDue(db, 1);
      await replay(fault);
    }
    expect(await given()).toBe('mayBeMade');
    expect(await db.outbox.get(id)).toMatchObject({ responseLost: true, attempts: 9 });
  });

  it('counts the faults since the app stopped with an entry on its way, not those before', async () => {
    const id = await queue(add(1));
    const fault: Transport = {
      send: () => Promise.resolve({ status: 500, body: { message: 'Internal Server Error' } }),
    };
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      await makeWaitingDue(db, 1);
      await replay(fault);
    }
    // The app stopped while the third attempt was on its way.
    await db.outbox.update(id, { state: 'sending', nextAttemptAt: 0 });
    await replay(fault);
    expect(await db.outbox.get(id)).toMatchObject({ responseLost: true, answeredFailures: 1 });
    expect(serverKeepsFailing((await db.outbox.get(id)) as OutboxEntry)).toBeUndefined();
  });

  it('keeps the cart of answers that arrive out of order right, line by line', async () => {
    await db.carts.put({
      userId: 1,
      cart: cartOfLines([
        [1, 1],
        [2, 1],
      ]),
      syncedAt: '',
    });
    await queue(set(1, 4));
    await queue(set(2, 7));
    // Each answer shows the other line as it was before: the later one must not undo it.
    const transport: Transport = {
      async send(_, request) {
        const id = Number(request.path.split('/')[2]);
        const quantity = (request.body as { quantity: number }).quantity;
        await new Promise((resolve) => setTimeout(resolve, id === 1 ? 20 : 0));
        return {
          status: 200,
          body: cartOfLines([
            [1, id === 1 ? quantity : 1],
            [2, id === 2 ? quantity : 1],
          ]),
        };
      },
    };
    await replay(transport);
    expect(linesOf((await db.carts.get(1))?.cart)).toEqual([
      [1, 4],
      [2, 7],
    ]);
  });
});

/** What a user can do in the cart: changes only of lines the cart shows, as the screens allow. */
type Intent =
  | { do: 'add'; productId: number; quantity: number }
  | { do: 'set'; productId: number; quantity: number }
  | { do: 'remove'; productId: number }
  | { do: 'clear' }
  | { do: 'checkout' }
  | { do: 'replay' };

const intents = fc.array(
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        do: fc.constant('add' as const),
        productId: fc.integer({ min: 1, max: 4 }),
        quantity: fc.integer({ min: 1, max: 3 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        do: fc.constant('set' as const),
        productId: fc.integer({ min: 1, max: 4 }),
        quantity: fc.integer({ min: 1, max: 9 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        do: fc.constant('remove' as const),
        productId: fc.integer({ min: 1, max: 4 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ do: 'clear' as const }) },
    { weight: 1, arbitrary: fc.constant({ do: 'checkout' as const }) },
    { weight: 2, arbitrary: fc.constant({ do: 'replay' as const }) },
  ),
  { maxLength: 30 },
);

describe('exactly once and in order, whatever the network does', () => {
  it('ends with the cart and the orders of the changes made one by one, each key applied once', async () => {
    await fc.assert(
      fc.asyncProperty(
        intents,
        fc.array(fc.constantFrom('none', 'none', 'drop', 'lose'), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        async (plan: Intent[], faults, seed) => {
          await db.outbox.clear();
          await db.carts.clear();
          let state = seed;
          const random = () => {
            state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
            return state / 2 ** 31;
          };
          const server = cartServer({ random });
          let nextFault = 0;
          server.fault.next = () => faults[nextFault++ % faults.length] ?? 'none';

          // The changes made one by one, as the user saw them: what the server must end with.
          const expected: { lines: [number, number][]; orders: [number, number][][] } = {
            lines: [],
            orders: [],
          };
          let queued = 0;
          let pass: Promise<unknown> = Promise.resolve();
          for (const intent of plan) {
            const line =
              'productId' in intent
                ? expected.lines.find(([id]) => id === intent.productId)
                : undefined;
            if (intent.do === 'replay') {
              // A pass runs while the user goes on queueing.
              pass = pass.then(() => replay(server.transport));
              continue;
            }
            if (intent.do === 'add') {
              if (line) line[1] += intent.quantity;
              else expected.lines.push([intent.productId, intent.quantity]);
              await queue(add(intent.productId, intent.quantity));
            } else if (intent.do === 'set' && line) {
              line[1] = intent.quantity;
              await queue(set(intent.productId, intent.quantity));
            } else if (intent.do === 'remove' && line) {
              expected.lines.splice(expected.lines.indexOf(line), 1);
              await queue(remove(intent.productId));
            } else if (intent.do === 'clear') {
              expected.lines = [];
              await queue(clear);
            } else if (intent.do === 'checkout' && expected.lines.length > 0) {
              expected.orders.push(
                [...expected.lines].sort((a, b) => a[0] - b[0]).map(([id, q]) => [id, q]),
              );
              expected.lines = [];
              await queue(checkout(`L-${queued}`));
            } else continue;
            queued += 1;
          }
          await pass;
          // Back online for good: everything goes.
          server.fault.next = () => 'none';
          for (let i = 0; i < 5 && (await db.outbox.count()) > 0; i += 1) {
            await makeWaitingDue(db, 1);
            await replay(server.transport);
          }
          expect(server.refusals).toEqual([]);
          expect(await db.outbox.count()).toBe(0);
          expect(server.lines()).toEqual(expected.lines);
          expect(server.orders).toEqual(expected.orders);
          expect(server.recordedKeys()).toBeLessThanOrEqual(queued);
        },
      ),
      { numRuns: 150 },
    );
    // 150 drains: about 2 s alone, several times that beside the server suites of `npm test`.
  }, 60_000);
});
