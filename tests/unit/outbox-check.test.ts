import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import { problemOfPayload } from '../../src/lib/sync/outbox-check';
import { replayOutbox, type Transport } from '../../src/lib/sync/outbox-replay';
import type { OutboxPayload, OutboxRequest } from '../../src/lib/sync/outbox-rules';
import { ADDRESS } from '../fixtures/shipping-address';

// Before an entry is sent, its request is checked against the body schema the server
// applies: one the server would refuse needs attention at once and never travels.

const VALID: OutboxPayload[] = [
  { kind: 'cart.add', productId: 7, quantity: 2 },
  { kind: 'cart.update', productId: 7, quantity: 9999 },
  { kind: 'cart.remove', productId: 7 },
  { kind: 'cart.clear' },
  { kind: 'checkout', shippingAddress: ADDRESS, notes: 'At the desk', localRef: 'L-1' },
  { kind: 'order.cancel', orderId: 3, orderNumber: 'FP-2026-000003', cancellationReason: '' },
  { kind: 'profile.update', firstName: 'Ana', lastName: 'Pop', email: 'ana@example.com' },
  {
    kind: 'rep.order',
    customerId: 4,
    items: [{ productId: 7, quantity: 3 }],
    shippingAddress: ADDRESS,
    notes: '',
    localRef: 'L-2',
    signature: 'iVBORw0KGgo=',
  },
  {
    kind: 'rep.order',
    customerId: 4,
    items: [{ productId: 7, quantity: 3 }],
    shippingAddress: ADDRESS,
    notes: 'Unsigned',
    localRef: 'L-3',
    signature: null,
  },
];

const repOrder = (change: Partial<Extract<OutboxPayload, { kind: 'rep.order' }>>) =>
  ({ ...VALID.at(-1), ...change }) as OutboxPayload;

let db: PortalDb;
let sent: OutboxRequest[];
const transport: Transport = {
  send: (_entry, request) => {
    sent.push(request);
    return Promise.resolve({
      status: 200,
      body: { items: [], subtotal: 0, total: 0, itemCount: 0, currency: 'EUR' },
    });
  },
};

beforeEach(() => {
  db = createPortalDb(`outbox-check-${crypto.randomUUID()}`);
  sent = [];
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
    idempotencyKey: `check-${(keys += 1)}`,
    createdAt: new Date().toISOString(),
    attempts: 0,
    nextAttemptAt: 0,
    state: 'waiting',
  })) as number;
}

/** As the page replays: every entry checked first. */
const replay = () =>
  replayOutbox({
    db,
    transport,
    currentUserId: () => 1,
    random: () => 0.5,
    check: (payload) => Promise.resolve(problemOfPayload(payload)),
  });

describe('checking an outbox entry before it is sent', () => {
  it('finds nothing wrong with a well-formed entry of every kind', () => {
    for (const payload of VALID) expect(problemOfPayload(payload), payload.kind).toBeUndefined();
  });

  it('holds back a checkout whose address the server would refuse, naming the field', async () => {
    const id = await queue({
      kind: 'checkout',
      shippingAddress: { ...ADDRESS, city: 'C'.repeat(201) },
      notes: '',
      localRef: 'L-9',
    });
    await replay();
    expect(sent).toEqual([]);
    const entry = await db.outbox.get(id);
    expect(entry?.state).toBe('attention');
    expect(entry?.error).toMatchObject({
      code: 'CHANGE_INVALID',
      params: { field: 'shippingAddress.city' },
    });
    expect(entry?.error?.message).toContain('shippingAddress.city');
  });

  it('holds back a damaged entry and still sends the valid one queued after it', async () => {
    const damaged = await queue({ kind: 'cart.add', productId: 7, quantity: 0 });
    const damagedPath = await queue({ kind: 'cart.remove', productId: -1 });
    const good = await queue({ kind: 'cart.add', productId: 8, quantity: 1 });
    await replay();
    expect(sent).toEqual([
      { method: 'POST', path: 'cart/add', body: { productId: 8, quantity: 1 } },
    ]);
    expect((await db.outbox.get(damaged))?.error?.params).toEqual({ field: 'quantity' });
    expect((await db.outbox.get(damagedPath))?.error?.params).toEqual({ field: 'productId' });
    expect(await db.outbox.get(good)).toBeUndefined();
  });

  it('holds back a profile change whose name is not text', async () => {
    const id = await queue({
      kind: 'profile.update',
      firstName: 42 as unknown as string,
      lastName: 'Pop',
      email: 'ana@example.com',
    });
    await replay();
    expect(sent).toEqual([]);
    expect((await db.outbox.get(id))?.error?.params).toEqual({ field: 'firstName' });
  });

  it('holds back a rep’s order the server would refuse: its customer, lines or signature', () => {
    expect(problemOfPayload(repOrder({ customerId: 0 }))?.params).toEqual({ field: 'customerId' });
    expect(problemOfPayload(repOrder({ items: [] }))?.params).toEqual({ field: 'items' });
    expect(problemOfPayload(repOrder({ signature: 'not base64!' }))?.params).toEqual({
      field: 'signature',
    });
  });
});
