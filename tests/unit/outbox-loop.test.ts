import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry, OutboxPayload } from '../../src/lib/sync/outbox-rules';

// The page's replay loop, with a signed-in user and the network faked.
const signedIn = vi.hoisted(() => ({
  accessToken: 'token-1',
  refreshToken: 'refresh-1',
  user: { id: 1 },
}));
vi.mock('../../src/lib/auth/session-store', () => ({
  getSession: () => signedIn,
  signedInUserId: () => signedIn?.user.id ?? null,
  subscribeSession: () => () => undefined,
  updateStoredUser: () => undefined,
  saveSession: () => Promise.resolve(),
  clearSession: () => Promise.resolve(),
}));

const { db } = await import('../../src/lib/db/db');
const { getSyncState, requestSync } = await import('../../src/lib/sync/sync-loop');
const { checkConnectivity } = await import('../../src/lib/sync/connectivity');

const EMPTY = { items: [], subtotal: 0, total: 0, itemCount: 0, currency: 'EUR' };
const sent: string[] = [];

const reachableServer = (input: string, init?: RequestInit) => {
  if (input !== '/api/health') sent.push(`${init?.method ?? 'GET'} ${input}`);
  return Promise.resolve(
    new Response(JSON.stringify(input === '/api/health' ? { status: 'ok' } : EMPTY), {
      headers: { 'content-type': 'application/json' },
    }),
  );
};

beforeEach(() => {
  sent.length = 0;
  vi.stubGlobal('navigator', { onLine: true });
  vi.stubGlobal('fetch', reachableServer);
});
afterEach(async () => {
  // Back online with nothing waiting: no retry or connectivity check is left scheduled.
  vi.restoreAllMocks();
  vi.stubGlobal('fetch', reachableServer);
  await checkConnectivity();
  await db.outbox.clear();
  requestSync();
  await settled();
  vi.unstubAllGlobals();
});

async function queue(payload: OutboxPayload, backoff: Partial<OutboxEntry> = {}) {
  await db.outbox.add({
    userId: 1,
    kind: payload.kind,
    payload,
    idempotencyKey: crypto.randomUUID(),
    createdAt: new Date().toISOString(),
    attempts: 0,
    nextAttemptAt: 0,
    state: 'waiting',
    ...backoff,
  });
}

/**
 * The loop has stopped. Given time: `npm test` runs these beside the server suites on the
 * same cores, and the device database (fake-indexeddb) then answers slowly.
 */
const settled = () =>
  vi.waitFor(() => expect(getSyncState().running).toBe(false), { timeout: 5_000 });

describe('the page’s replay loop', () => {
  it('sends entries backed off to the longest wait at once when there is news the server can be reached', async () => {
    await queue(
      { kind: 'cart.remove', productId: 5 },
      { attempts: 9, nextAttemptAt: Date.now() + 60_000 },
    );
    requestSync();
    await settled();
    expect(sent).toEqual([]);

    const started = Date.now();
    requestSync({ now: true });
    await settled();
    expect(sent).toEqual(['DELETE /api/cart/items/5']);
    // Not after the minute its backoff asked for. (Within a second of reconnecting is held
    // in Chromium by sync-replay.spec; here, beside the server suites on the same cores,
    // the device database alone can take that long.)
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await db.outbox.count()).toBe(0);
    expect(getSyncState()).toMatchObject({ retryAt: null, storageFailed: false });
  });

  it('shows a failure of the device’s storage and tries again, without an unhandled rejection', async () => {
    await queue({ kind: 'cart.clear' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(db.outbox, 'where').mockImplementationOnce(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    requestSync();
    await settled();
    expect(getSyncState()).toMatchObject({ storageFailed: true });
    expect(getSyncState().retryAt).not.toBeNull();
    expect(warn).toHaveBeenCalled();
    expect(sent).toEqual([]);

    // Tried again after a short backoff: the storage works again and the change goes.
    await vi.waitFor(() => expect(sent).toEqual(['DELETE /api/cart']), { timeout: 3_000 });
    await settled();
    expect(getSyncState()).toMatchObject({ storageFailed: false, retryAt: null });
    expect(await db.outbox.count()).toBe(0);
  });

  it('tells a failing server apart from one that cannot be reached', async () => {
    vi.stubGlobal('fetch', (input: string) =>
      Promise.resolve(
        input === '/api/health'
          ? new Response('{"status":"ok"}', { headers: { 'content-type': 'application/json' } })
          : new Response('{"message":"Internal Server Error"}', {
              status: 500,
              headers: { 'content-type': 'application/json' },
            }),
      ),
    );
    await queue({ kind: 'cart.clear' });
    requestSync();
    await settled();
    expect(getSyncState()).toMatchObject({ serverFailed: true });
    expect(getSyncState().retryAt).not.toBeNull();

    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    requestSync({ now: true });
    await settled();
    expect(getSyncState()).toMatchObject({ serverFailed: false });
    expect(getSyncState().retryAt).not.toBeNull();
  });
});
