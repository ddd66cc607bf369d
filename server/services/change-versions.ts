/**
 * Versions of what a server process keeps in memory: the catalogue's answers and the
 * accounts of signed-in requests. Every transaction that changes products or categories
 * moves the catalogue's version, every one that changes users, companies or sessions moves
 * the accounts' version (triggers, migrations 0006 and 0007), whichever process made it,
 * and announces the move (NOTIFY). A kept copy is used only while the versions it was made
 * at are the newest this process knows of; the versions are read again after a move.
 *
 * - On the embedded database this process is the only one (its data folder is locked), and
 *   the database announces each move to it before the commit that made it returns.
 * - On PostgreSQL other processes change things too, and an announcement arrives a moment
 *   after the commit. So a process that changed something waits, before it answers, until
 *   every process listening has recorded the announcement (`seenEverywhere`, table
 *   change_listeners) — the way a synchronous standby confirms a commit. A copy is thus
 *   never served after its change was reported done.
 *
 *   Trust is a lease. Each answer of the listening connection to a query sent at time t
 *   proves that every announcement of a commit before t has arrived; it lets the process
 *   trust its copies until t + LEASE_MS, and renews the listener's `seen_at`. A writer
 *   waits only for listeners seen within LISTENER_GONE_MS, which is longer than the lease:
 *   a process whose connection is slow, lost or whose event loop is stuck is either
 *   waited for or no longer trusting. A process that is not trusting (starting,
 *   reconnecting) reads the versions for every request, as they are after it arrived.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Database } from '../db/database.js';

export interface Versions {
  catalogue: string;
  accounts: string;
}

export interface ChangeVersions {
  /** The versions as the database says them at or after the moment of the call. */
  read(): Promise<Versions>;
  /**
   * What `read` would give at once, without waiting: the versions already read and still
   * the newest announced, or null when they must be read first.
   */
  known(): Versions | null;
  /**
   * Resolves once every server process has been told of every change committed before the
   * call: true, or false if one still connected has not said so within SEEN_TIMEOUT_MS
   * (by then it no longer trusts its copies).
   */
  seenEverywhere(): Promise<boolean>;
  /** Stops listening for announcements. */
  close(): Promise<void>;
}

/** The channel the triggers announce moves on, with "<topic> <version>". */
const CHANNEL = 'portal_changes';
const TOPICS = ['catalogue', 'accounts'] as const;
type Topic = (typeof TOPICS)[number];

/** How long an answer of the listening connection lets this process trust its copies. */
const LEASE_MS = 3_000;
/** How often the listening connection is asked, to keep the trust. */
const HEARTBEAT_MS = 1_000;
/** An answer later than this ends the connection (and the trust until it is back). */
const HEARTBEAT_TIMEOUT_MS = 2_000;
/**
 * A listener not seen for this long has stopped trusting its copies (longer than LEASE_MS,
 * with a second to spare for the two clocks): writers no longer wait for it.
 */
const LISTENER_GONE_MS = LEASE_MS + 1_000;
/** The longest a writer waits for every listener to record a change. */
const SEEN_TIMEOUT_MS = LISTENER_GONE_MS + 1_000;
/** Pause before listening again after the connection was lost. */
const RECONNECT_MS = 1_000;

const QUERY = 'SELECT topic, version::text AS version FROM change_versions';

type Row = { topic: string; version: string };

const versionsOf = (rows: Row[]): Versions => {
  const of = (topic: Topic) => rows.find((row) => row.topic === topic)?.version ?? '0';
  return { catalogue: of('catalogue'), accounts: of('accounts') };
};

async function queryVersions({ db, prepared }: Database): Promise<Versions> {
  const rows = prepared
    ? await prepared<Row>('change-versions', QUERY)
    : ((await db.execute(sql.raw(QUERY))) as { rows: Row[] }).rows;
  return versionsOf(rows);
}

/** Records what a listener has been told of, and that it was seen now. */
const RECORD = `INSERT INTO change_listeners (id, seen_at, catalogue, accounts)
  VALUES ($1, now(), $2, $3)
  ON CONFLICT (id) DO UPDATE SET seen_at = now(),
    catalogue = EXCLUDED.catalogue, accounts = EXCLUDED.accounts`;

/** Forgets listeners long gone. */
const PRUNE = `DELETE FROM change_listeners WHERE seen_at < now() - interval '1 hour'`;

/** How many listeners seen lately have not yet been told of the newest versions. */
const BEHIND = `SELECT count(*)::int AS behind
  FROM change_listeners l
  CROSS JOIN (SELECT max(version) FILTER (WHERE topic = 'catalogue') AS catalogue,
                     max(version) FILTER (WHERE topic = 'accounts') AS accounts
              FROM change_versions) v
  WHERE l.seen_at > now() - interval '${LISTENER_GONE_MS} milliseconds'
    AND (l.catalogue < v.catalogue OR l.accounts < v.accounts)`;

/**
 * A value as a query started after the call reads it. Calls that come while a query runs
 * share the next query: the running one may have started before them.
 */
export function freshReader<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const query = read().finally(() => {
      if (running === query) running = null;
    });
    running = query;
    return query;
  };
  return () => {
    if (!running) return start();
    const next = () => {
      queued = null;
      return start();
    };
    queued ??= running.then(next, next);
    return queued;
  };
}

/**
 * The versions kept between announcements: read once after each, the read shared by every
 * caller that needs it, and not kept if an announcement came while it ran.
 */
function announcedReader(read: () => Promise<Versions>) {
  let known: Versions | null = null;
  let announcements = 0;
  let reading: Promise<{ versions: Versions; current: boolean }> | null = null;
  const readNow = async () => {
    const before = announcements;
    const versions = await read();
    const current = announcements === before;
    if (current) known = versions;
    return { versions, current };
  };
  return {
    announced() {
      announcements += 1;
      known = null;
    },
    known: (): Versions | null => known,
    async read(): Promise<Versions> {
      for (;;) {
        if (known) return known;
        reading ??= readNow().finally(() => {
          reading = null;
        });
        const { versions, current } = await reading;
        // Nothing moved while it ran: what it read holds for every caller that joined it.
        if (current) return versions;
      }
    },
  };
}

const newer = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? a : b);

/** The listening connection of a process on PostgreSQL; see the top of this file. */
class Listener {
  /** The connection being set up or listening; null while there is none. */
  private connection: pg.Client | null = null;
  /** Set up: listening, and what moved before it read. */
  private ready = false;
  private trustedUntil = 0;
  /** The newest versions this process has been told of. */
  private told: Versions = { catalogue: '0', accounts: '0' };
  /** This listening connection's row in change_listeners (a new one per connection). */
  private id = randomUUID();
  private heartbeat: NodeJS.Timeout | null = null;
  private asking = false;
  private closed = false;
  /** The listening connection's queries, one after the other. */
  private queries: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connect: () => Promise<pg.Client>,
    private readonly announced: () => void,
  ) {}

  /** Whether the copies kept under announced versions may be served now. */
  trusted(): boolean {
    return this.ready && performance.now() < this.trustedUntil;
  }

  async start(): Promise<void> {
    let client: pg.Client;
    try {
      client = await this.connect();
    } catch {
      this.retry();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.connection = client;
    this.id = randomUUID();
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    client.on('notification', ({ payload }) => this.tell(client, payload ?? ''));
    try {
      const sentAt = performance.now();
      await client.query(`LISTEN ${CHANNEL}`);
      // Listening now: any later move is announced. What moved before is read.
      const { rows } = await client.query<Row>(QUERY);
      this.merge(versionsOf(rows));
      await client.query(PRUNE);
      if (this.connection !== client) return;
      this.ready = true;
      this.announced();
      await this.record(client, sentAt);
      this.heartbeat = setInterval(() => void this.ask(), HEARTBEAT_MS);
      this.heartbeat.unref();
    } catch {
      this.drop(client);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.connection;
    const listed = this.ready;
    this.stop();
    if (!client) return;
    // Writers need not wait for a process that stopped.
    if (listed)
      await this.query(client, 'DELETE FROM change_listeners WHERE id = $1', [this.id]).catch(
        () => undefined,
      );
    await client.end().catch(() => undefined);
  }

  private merge(versions: Versions): void {
    this.told = {
      catalogue: newer(this.told.catalogue, versions.catalogue),
      accounts: newer(this.told.accounts, versions.accounts),
    };
  }

  private tell(client: pg.Client, payload: string): void {
    if (client !== this.connection) return;
    const [topic, version] = payload.split(' ');
    if (TOPICS.includes(topic as Topic) && version && /^\d+$/.test(version)) {
      this.merge({ ...this.told, [topic as Topic]: version });
    }
    // Copies are dropped first, then the move is recorded as seen.
    this.announced();
    if (this.ready) this.record(client, performance.now()).catch(() => this.drop(client));
  }

  /** Runs a query on the listening connection once the ones before it have answered. */
  private query(client: pg.Client, text: string, values: unknown[] = []): Promise<unknown> {
    const run = this.queries.then(() => client.query(text, values));
    this.queries = run.catch(() => undefined);
    return run;
  }

  /** Records what it was told and that it was seen; the answer renews the trust. */
  private async record(client: pg.Client, sentAt: number): Promise<void> {
    // Sent now: what it was told by the time this query runs is recorded.
    await this.queries;
    await this.query(client, RECORD, [this.id, this.told.catalogue, this.told.accounts]);
    if (this.connection === client && this.ready) {
      this.trustedUntil = Math.max(this.trustedUntil, sentAt + LEASE_MS);
    }
  }

  private async ask(): Promise<void> {
    const client = this.connection;
    if (!client || !this.ready || this.asking) return;
    this.asking = true;
    const late = setTimeout(() => this.drop(client), HEARTBEAT_TIMEOUT_MS);
    try {
      await this.record(client, performance.now());
    } catch {
      this.drop(client);
    } finally {
      clearTimeout(late);
      this.asking = false;
    }
  }

  private stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.connection = null;
    this.ready = false;
    this.trustedUntil = 0;
    this.announced();
  }

  /** Ends a connection that failed; a new one follows. */
  private drop(client: pg.Client): void {
    if (client !== this.connection) return;
    this.stop();
    client.end().catch(() => undefined);
    this.retry();
  }

  private retry(): void {
    if (this.closed) return;
    setTimeout(() => void this.start(), RECONNECT_MS).unref();
  }
}

/**
 * Resolves once every server process connected to the database has been told of every
 * change committed before the call (see `ChangeVersions.seenEverywhere`). For a writer that
 * is not a server process itself, such as `npm run admin`.
 */
export async function seenEverywhere({ prepared }: Database): Promise<boolean> {
  // The embedded database's only process is told before a commit returns.
  if (!prepared) return true;
  const deadline = Date.now() + SEEN_TIMEOUT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    const [row] = await prepared<{ behind: number }>('change-listeners-behind', BEHIND);
    if (!row || row.behind === 0) return true;
    if (Date.now() >= deadline) return false;
    await delay(pause);
  }
}

export async function changeVersions(database: Database): Promise<ChangeVersions> {
  const { listen, connect, prepared } = database;
  if (connect && prepared) {
    const announced = announcedReader(() => queryVersions(database));
    const fresh = freshReader(() => queryVersions(database));
    const listener = new Listener(connect, () => announced.announced());
    await listener.start();
    return {
      read: () => (listener.trusted() ? announced.read() : fresh()),
      known: () => (listener.trusted() ? announced.known() : null),
      seenEverywhere: () => seenEverywhere(database),
      close: () => listener.close(),
    };
  }
  if (!listen) throw new Error('The database neither announces changes nor takes connections');
  const announced = announcedReader(() => queryVersions(database));
  const unlisten = await listen(CHANNEL, () => announced.announced());
  return {
    read: () => announced.read(),
    known: () => announced.known(),
    seenEverywhere: () => seenEverywhere(database),
    // The database may be closed already (then nothing listens any more).
    close: () => unlisten().catch(() => undefined),
  };
}
