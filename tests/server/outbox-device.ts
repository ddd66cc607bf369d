/**
 * The device the outbox fuzz test (outbox-fuzz.test.ts) drives: the page's tabs, each with
 * its own connection to the device's IndexedDB (fake-indexeddb) and its own sync loop
 * (src/lib/sync/sync-loop), sharing one outbox lock as the Web Locks API shares it; a clock
 * that moves only when the test moves it; and a network to the real server (Fastify's
 * inject) that does what the test planned for the next change it carries: lose the answer
 * after the server committed, answer 503 before it, deliver the request only after the
 * device gave up waiting, refuse the access token so that it is renewed, or take the tab
 * down half-way through its replay. Offline, every request fails.
 */
import 'fake-indexeddb/auto';
import type { FastifyInstance } from 'fastify';
import type { User } from '../../src/contracts/accounts';
import type { Cart, Order } from '../../src/contracts/orders';
import { DB_NAME } from '../../src/contracts/storage-names';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import { problemOfPayload } from '../../src/lib/sync/outbox-check';
import { BACKOFF_CAP_MS } from '../../src/lib/sync/outbox-rules';
import { storedSessionCredentials } from '../../src/lib/sync/stored-session';
import { createSyncLoop, type SyncLoop, type SyncRequest } from '../../src/lib/sync/sync-loop';
import { createTransport } from '../../src/lib/sync/transport';

/**
 * What happens to the next change that leaves the device:
 * - lose: the server commits it, the answer never comes back;
 * - fail: a 503 before the server saw it;
 * - late: the device stops waiting (a timeout) and the request reaches the server later;
 * - expire: the access token is refused (401), renewed with the refresh token, sent again;
 * - crash: the server commits it, then the tab is gone (its database connection closed,
 *   its lock released) and the app starts again in a new tab.
 */
export type Fault = 'lose' | 'fail' | 'late' | 'expire' | 'crash';

/** The signed-in user as the page keeps it. */
export interface DeviceSession {
  userId: () => number | null;
  user: () => User | null;
  storeUser: (user: User) => void;
}

interface Tab {
  db: PortalDb;
  loop: SyncLoop;
  alive: boolean;
  /** Its loop's timers, forgotten when the tab goes. */
  timers: Set<number>;
}

/** A clock whose timers run only when the test moves it on. */
function testClock() {
  let now = Date.now();
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run: () => void, ms: number): number {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout(id: number) {
      timers.delete(id);
    },
    /** Moves the time on by `ms`, running the timers due by then in the order they fall. */
    advance(ms: number) {
      now += ms;
      const due = [...timers].filter(([, timer]) => timer.at <= now);
      due.sort(([, a], [, b]) => a.at - b.at);
      for (const [id, timer] of due) {
        timers.delete(id);
        timer.run();
      }
    },
  };
}

/**
 * One exclusive lock, as navigator.locks gives the outbox's: granted in the order asked;
 * when a tab goes, what it held is released and what it waited for is refused.
 */
function outboxLock() {
  let held: { tab: Tab } | null = null;
  const queue: { tab: Tab; grant: () => void; refuse: (error: Error) => void }[] = [];
  const next = () => {
    if (held) return;
    const first = queue.shift();
    if (!first) return;
    held = { tab: first.tab };
    first.grant();
  };
  return {
    for:
      (tab: Tab) =>
      async <T>(work: () => Promise<T>): Promise<T> => {
        await new Promise<void>((grant, refuse) => {
          queue.push({ tab, grant, refuse });
          next();
        });
        const mine = held;
        try {
          return await work();
        } finally {
          if (held === mine) {
            held = null;
            next();
          }
        }
      },
    releaseFor(tab: Tab) {
      for (const waiting of queue.filter((item) => item.tab === tab)) {
        queue.splice(queue.indexOf(waiting), 1);
        waiting.refuse(new Error('The tab was closed'));
      }
      if (held?.tab === tab) {
        held = null;
        next();
      }
    },
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const networkDown = () => new TypeError('Failed to fetch');

export interface Device {
  /** Faults planned for the next changes that leave the device, one each, in order. */
  faults: Fault[];
  /**
   * What happens to the changes after those, in turn, over and over: the network's
   * character for the sequence ('none': the change goes through).
   */
  pattern: (Fault | 'none')[];
  offline: boolean;
  /** Asks the tab the user works in to sync (after a crash, the app started again). */
  requestSync: (options?: SyncRequest) => void;
  /** A second tab (opened the first time) asks to sync: it takes the lock in turn with the first. */
  secondTabSyncs: () => void;
  /** Delivers the oldest request that reaches the server late, if one waits. */
  lateArrives: () => Promise<void>;
  lateWaiting: () => number;
  /** Moves the clock on, running the loops' retries that fall due. */
  advance: (ms: number) => void;
  /** Waits until no loop runs and no request is on its way. */
  settle: () => Promise<void>;
  /**
   * Back online for good: every late request delivered, then the loops given time until
   * no change waits (entries that need attention stay), signing in again when asked to.
   */
  drain: (signIn: () => Promise<void>) => Promise<void>;
  needsSignIn: () => boolean;
  /** How many changes met each fault (a crash is one of them). */
  faultsMet: () => Record<Fault, number>;
  close: () => Promise<void>;
}

/** A request that reached the server, and the status it answered. */
export interface Delivery {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: unknown;
  status: number;
}

export interface DeviceOptions {
  /** Its IndexedDB database: another name is another device of the same user. */
  dbName?: string;
  /**
   * Hears of every request that reached the server, once it answered. With `serverGate`
   * shared, the devices' requests reach the server one at a time, so the order heard is
   * the order the server applied them in.
   */
  observe?: (delivery: Delivery) => void;
  serverGate?: <T>(work: () => Promise<T>) => Promise<T>;
}

/** One at a time: what a shared `serverGate` is made of. */
export function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const turn = last.then(work, work);
    last = turn.catch(() => undefined);
    return turn;
  };
}

/**
 * The device of one sequence, on `app`, for the user `session` says; `trace` hears of
 * every request that reached the server, with the fault planned for it.
 */
export function createDevice(
  app: FastifyInstance,
  session: DeviceSession,
  trace?: (line: string) => void,
  { dbName = DB_NAME, observe, serverGate = (work) => work() }: DeviceOptions = {},
): Device {
  const clock = testClock();
  const lock = outboxLock();
  const tabs: Tab[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const late: (() => Promise<unknown>)[] = [];
  const met: Record<Fault, number> = { lose: 0, fail: 0, late: 0, expire: 0, crash: 0 };
  let first: Tab;
  let second: Tab | null = null;

  let changesSent = 0;
  const nextFault = (): Fault | undefined => {
    const planned = device.faults.shift();
    if (planned) return planned;
    const turn = device.pattern[changesSent++ % Math.max(1, device.pattern.length)];
    return turn === 'none' ? undefined : turn;
  };

  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    const forget = () => inFlight.delete(work);
    work.then(forget, forget);
    return work;
  };

  const deliver = async (
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Response> => {
    const response = await serverGate(async () => {
      const answered = await app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(body === undefined ? {} : { payload: body }),
      });
      observe?.({
        method,
        url,
        idempotencyKey: headers['idempotency-key'],
        body: body === undefined ? undefined : parsed(body),
        status: answered.statusCode,
      });
      return answered;
    });
    const empty = [204, 205, 304].includes(response.statusCode);
    return new Response(empty ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      headers: { 'content-type': String(response.headers['content-type'] ?? '') },
    });
  };

  function fetchOf(tab: Tab): typeof fetch {
    return async (input, init = {}) => {
      if (!tab.alive || device.offline) throw networkDown();
      const url = input instanceof Request ? input.url : String(input);
      const method = init.method ?? 'GET';
      const headers = { ...(init.headers as Record<string, string>) };
      const body = typeof init.body === 'string' ? init.body : undefined;
      // Faults are planned for the outbox's changes, not for reads or the session's renewal.
      const change = method !== 'GET' && !url.startsWith('/api/auth/');
      const fault = change ? nextFault() : undefined;
      if (fault) met[fault] += 1;
      const send = () =>
        track(
          deliver(method, url, headers, body).then((response) => {
            trace?.(`${method} ${url} ${body ?? ''} ${fault ?? ''} → ${response.status}`);
            return response;
          }),
        );
      switch (fault) {
        case 'fail':
          return json(503, { message: 'The server is restarting.' });
        case 'lose':
          await send();
          throw networkDown();
        case 'late':
          // Sent when the test says so (lateArrives), or before the final drain.
          late.push(send);
          throw new DOMException('The operation timed out.', 'TimeoutError');
        case 'expire':
          headers.authorization = 'Bearer expired.access.token';
          return send();
        case 'crash':
          await send();
          crash(tab);
          throw networkDown();
        default:
          return send();
      }
    };
  }

  /** A read of the loop's refresh, with the session's access token. */
  async function read<T>(tab: Tab, path: string): Promise<T> {
    const token = (await tab.db.session.get('current'))?.accessToken;
    const response = await fetchOf(tab)(`/api/${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  function openTab(): Tab {
    const tab = { db: createPortalDb(dbName), alive: true, timers: new Set<number>() } as Tab;
    const fetch = fetchOf(tab);
    tab.loop = createSyncLoop({
      db: tab.db,
      transport: createTransport(storedSessionCredentials(tab.db, { fetch }), { fetch }),
      session,
      reportNetworkFailure: () => undefined,
      reportServerReached: () => undefined,
      clock: {
        now: clock.now,
        setTimeout: (run, ms) => {
          if (!tab.alive) return undefined;
          const id = clock.setTimeout(() => {
            tab.timers.delete(id);
            run();
          }, ms);
          tab.timers.add(id);
          return id;
        },
        clearTimeout: (id) => {
          if (typeof id !== 'number') return;
          clock.clearTimeout(id);
          tab.timers.delete(id);
        },
      },
      lock: lock.for(tab),
      check: (payload) => Promise.resolve(problemOfPayload(payload)),
      prepareCheck: () => undefined,
      server: {
        cart: () => read<Cart>(tab, 'cart'),
        orders: async () => (await read<{ orders: Order[] }>(tab, 'orders')).orders,
        refreshAccount: () => Promise.resolve(),
        // Every failed read here is the network's or the session's: the loop keeps its data.
        isNetworkError: () => true,
      },
      registerBackgroundSync: () => undefined,
    });
    tabs.push(tab);
    return tab;
  }

  /**
   * The tab is gone mid-replay: its connection closed (what it still does fails), its lock
   * released, its timers forgotten. The app starts again in a new tab and replays at once.
   */
  function crash(tab: Tab): void {
    tab.alive = false;
    for (const id of tab.timers) clock.clearTimeout(id);
    tab.timers.clear();
    lock.releaseFor(tab);
    tab.db.close();
    const restarted = openTab();
    if (tab === first) first = restarted;
    else second = restarted;
    restarted.loop.requestSync({ refresh: true, now: true });
  }

  const running = () => tabs.some((tab) => tab.loop.getState().running);

  async function settle(): Promise<void> {
    let quiet = 0;
    for (let turn = 0; turn < 100_000; turn += 1) {
      if (inFlight.size > 0) {
        quiet = 0;
        await Promise.allSettled([...inFlight]);
      } else if (running()) {
        quiet = 0;
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        // Nothing runs: a few more turns, for work that follows a promise just settled.
        quiet += 1;
        if (quiet >= 3) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    throw new Error('The device did not settle');
  }

  const waiting = async () => {
    const userId = session.userId();
    if (userId === null) return 0;
    return first.db.outbox
      .where('userId')
      .equals(userId)
      .filter((entry) => entry.state !== 'attention')
      .count();
  };

  first = openTab();

  const device: Device = {
    faults: [],
    pattern: [],
    offline: false,
    requestSync: (options) => first.loop.requestSync(options),
    secondTabSyncs() {
      second ??= openTab();
      second.loop.requestSync({ now: true });
    },
    async lateArrives() {
      await late.shift()?.();
    },
    lateWaiting: () => late.length,
    advance: (ms) => clock.advance(ms),
    settle,
    needsSignIn: () => first.loop.getState().needsSignIn,
    async drain(signIn) {
      device.faults.length = 0;
      device.pattern = [];
      device.offline = false;
      while (late.length > 0) await device.lateArrives();
      for (let round = 0; round < 20; round += 1) {
        await settle();
        if ((await waiting()) === 0) return;
        if (device.needsSignIn()) await signIn();
        // The retries fall due on their own timers; a last nudge in case none is set.
        clock.advance(BACKOFF_CAP_MS);
        if (!running()) first.loop.requestSync({ now: true });
      }
      throw new Error(`The outbox did not drain: ${await waiting()} changes still wait`);
    },
    faultsMet: () => met,
    async close() {
      await settle();
      for (const tab of tabs) {
        tab.alive = false;
        for (const id of tab.timers) clock.clearTimeout(id);
        tab.db.close();
      }
    },
  };
  return device;
}
