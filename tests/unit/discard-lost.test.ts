import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry, OutboxPayload } from '../../src/lib/sync/outbox-rules';

// Discarding a change the server may have made after all (its response was lost): the
// device reads the server's cart and orders again, so that a change made shows.
const requestSync = vi.hoisted(() => vi.fn());
vi.mock('../../src/lib/sync/device', () => ({ requestSync }));

const { db } = await import('../../src/lib/db/db');
const { discardEntry } = await import('../../src/lib/sync/outbox');

afterEach(async () => {
  requestSync.mockClear();
  await db.outbox.clear();
});

const waiting = (payload: OutboxPayload, extra: Partial<OutboxEntry>): OutboxEntry => ({
  userId: 1,
  kind: payload.kind,
  payload,
  idempotencyKey: crypto.randomUUID(),
  createdAt: '',
  attempts: 4,
  nextAttemptAt: 0,
  state: 'waiting',
  sent: true,
  error: { status: 500, message: 'Internal Server Error' },
  ...extra,
});

describe('discarding a change the server keeps failing', () => {
  it('reads the server’s cart and orders again when a response was lost', async () => {
    const id = (await db.outbox.add(
      waiting(
        { kind: 'cart.add', productId: 5, quantity: 1 },
        {
          responseLost: true,
          answeredFailures: 3,
        },
      ),
    )) as number;
    await discardEntry(id);
    expect(await db.outbox.get(id)).toBeUndefined();
    expect(requestSync).toHaveBeenCalledWith({ refresh: true });
  });

  it('only sends what is left when every attempt had the server’s response', async () => {
    const id = (await db.outbox.add(
      waiting({ kind: 'cart.add', productId: 5, quantity: 1 }, {}),
    )) as number;
    await discardEntry(id);
    expect(await db.outbox.get(id)).toBeUndefined();
    expect(requestSync).toHaveBeenCalledWith(undefined);
  });
});
