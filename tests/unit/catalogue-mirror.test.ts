import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MirrorLine, type Product } from '../../src/contracts/catalogue';
import { deriveSearchFields } from '../../src/contracts/catalogue-query';
import { createPortalDb, type PortalDb } from '../../src/lib/db/db';
import {
  readAllProducts,
  readProduct,
  readStoredCatalogue,
  storeProducts,
} from '../../src/lib/db/stored-products';
import {
  DamagedCatalogueError,
  forgetPricedCatalogue,
  IncompleteCatalogueError,
  refreshCatalogue,
  type CatalogueSource,
  type MirrorRequest,
} from '../../src/lib/sync/catalogue-mirror';
import { queryLocalCatalogue } from '../../src/lib/sync/local-catalogue';
import { GENERATED_CATEGORY, generatedProduct } from '../fixtures/generated-products';

const CATEGORY = GENERATED_CATEGORY;
const makeProduct = (id: number, updatedAt?: string) => generatedProduct(id, { updatedAt });

/** Products per line of the fake server's answer, as the real one sends them in batches. */
const BATCH = 100;

/**
 * A server in memory: answers the mirror like the API (an ETag naming the catalogue's
 * content, 304 when the caller names the catalogue as it is), and records what it was asked.
 */
function fakeServer(initial: Product[]) {
  const products = new Map(initial.map((p) => [p.id, p]));
  const calls: MirrorRequest[] = [];
  const answers: ('200' | '304')[] = [];
  /** Lines sent before the connection drops (Infinity: it never does). */
  let dropAfterLines = Infinity;
  /** Leave out the end line, as an answer cut at a line boundary would. */
  let withoutEnd = false;
  /** A line sent after the categories, whatever it holds. */
  let strayLine: unknown;
  const etagOf = (all: Product[]) =>
    `"${createHash('sha1').update(JSON.stringify(all)).digest('hex')}"`;
  async function* linesOf(since: string | undefined, all: Product[]): AsyncGenerator<MirrorLine> {
    const changed = all.filter((p) => !since || p.updatedAt >= since);
    const lines: MirrorLine[] = [{ type: 'categories', categories: [CATEGORY] }];
    if (strayLine !== undefined) lines.push(strayLine as MirrorLine);
    for (let i = 0; i < changed.length; i += BATCH) {
      lines.push({ type: 'products', products: changed.slice(i, i + BATCH) });
    }
    const newest =
      all
        .map((p) => p.updatedAt)
        .sort()
        .at(-1) ?? null;
    if (!withoutEnd) lines.push({ type: 'end', cursor: newest, ids: all.map((p) => p.id) });
    let sent = 0;
    for (const line of lines) {
      // Each line is read in a turn of its own, as from the network.
      await Promise.resolve();
      if (sent === dropAfterLines) throw new TypeError('network error');
      yield structuredClone(line);
      sent += 1;
    }
  }
  const source: CatalogueSource = {
    mirror(request) {
      calls.push(request);
      const since = request.updatedSince;
      const all = [...products.values()].sort((a, b) => a.id - b.id);
      const etag = etagOf(all);
      if (request.ifNoneMatch === etag) {
        answers.push('304');
        return Promise.resolve({ unchanged: true });
      }
      answers.push('200');
      return Promise.resolve({ unchanged: false, etag, lines: linesOf(since, all) });
    },
  };
  return {
    source,
    calls,
    answers,
    products,
    dropAfter: (lines: number) => {
      dropAfterLines = lines;
    },
    cutBeforeEnd: () => {
      withoutEnd = true;
    },
    sendStrayLine: (line: unknown) => {
      strayLine = line;
    },
  };
}

const opened: PortalDb[] = [];
function freshDb(): PortalDb {
  const db = createPortalDb(`mirror-${Math.random()}`);
  opened.push(db);
  return db;
}

afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) await db.delete();
});

const countOnDevice = async (db: PortalDb) => (await readAllProducts(db)).length;

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const NAME_ORDER = { page: 1, limit: 12, search: '', sortBy: 'name' as const };

describe('the catalogue mirror', () => {
  it('copies every product and category from one answer and marks itself complete', async () => {
    const db = freshDb();
    const server = fakeServer(range(2300).map((id) => makeProduct(id)));
    const state = await refreshCatalogue(db, { source: server.source });
    expect(await countOnDevice(db)).toBe(2300);
    expect(await readProduct(db, 1234)).toEqual(makeProduct(1234));
    expect(await db.categories.toArray()).toEqual([CATEGORY]);
    expect(server.calls).toEqual([{ updatedSince: undefined }]);
    expect(state).toMatchObject({
      complete: true,
      viewer: 'visitor',
      cursor: '2026-01-01T00:00:00.000Z',
    });
    expect(await db.mirrorState.get('catalogue')).toEqual(state);
  });

  it('writes each batch while the rest of the answer is still arriving', async () => {
    const db = freshDb();
    const server = fakeServer(range(2500).map((id) => makeProduct(id)));
    async function* checked(lines: AsyncIterable<MirrorLine>) {
      for await (const line of lines) {
        // Before each batch is sent, the batches sent earlier are on the device.
        if (line.type === 'products') {
          expect(await countOnDevice(db)).toBe((line.products[0]?.id ?? 1) - 1);
        }
        yield line;
      }
    }
    await refreshCatalogue(db, {
      source: {
        async mirror(request) {
          const answer = await server.source.mirror(request);
          return answer.unchanged ? answer : { ...answer, lines: checked(answer.lines) };
        },
      },
    });
    expect(await countOnDevice(db)).toBe(2500);
  });

  it('asks only for products changed since the cursor of the last refresh, and applies them', async () => {
    const db = freshDb();
    const server = fakeServer(range(20).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    server.products.set(7, { ...makeProduct(7, '2026-02-01T00:00:00.000Z'), name: 'Renamed' });

    const state = await refreshCatalogue(db, { source: server.source });
    expect(server.calls[1]).toMatchObject({ updatedSince: '2026-01-01T00:00:00.000Z' });
    expect((await readProduct(db, 7))?.name).toBe('Renamed');
    expect(await countOnDevice(db)).toBe(20);
    expect(state.cursor).toBe('2026-02-01T00:00:00.000Z');
  });

  it('names the catalogue it holds with the ETag of its last answer, and takes a 304 as unchanged', async () => {
    const db = freshDb();
    const server = fakeServer(range(20).map((id) => makeProduct(id)));
    const first = await refreshCatalogue(db, { source: server.source });
    // Nothing changed: the next refresh asks from its cursor, naming what it holds.
    const writes = vi.spyOn(db.productBlocks, 'bulkPut');
    const second = await refreshCatalogue(db, { source: server.source });
    expect(server.calls[1]).toEqual({ updatedSince: first.cursor, ifNoneMatch: first.etag });
    expect(server.answers).toEqual(['200', '304']);
    expect(writes).not.toHaveBeenCalled();
    expect(await countOnDevice(db)).toBe(20);
    expect(second).toMatchObject({ cursor: first.cursor, etag: first.etag, complete: true });
    expect(second.syncedAt >= first.syncedAt).toBe(true);
    expect(await db.mirrorState.get('catalogue')).toEqual(second);
  });

  it('gets the changes when the catalogue changed since the answer its ETag names', async () => {
    const db = freshDb();
    const server = fakeServer(range(20).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    await refreshCatalogue(db, { source: server.source });
    server.products.delete(4);
    // Changed, but no newer than the cursor: only the ETag can tell.
    server.products.set(9, { ...makeProduct(9), name: 'Renamed' });
    await refreshCatalogue(db, { source: server.source });
    expect(server.calls[2]?.ifNoneMatch).toBeDefined();
    expect(server.answers.at(-1)).toBe('200');
    expect(await readProduct(db, 4)).toBeUndefined();
    expect(await countOnDevice(db)).toBe(19);
  });

  it('sends no ETag for another viewer: its catalogue is fetched whole', async () => {
    const db = freshDb();
    const server = fakeServer(range(20).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    await refreshCatalogue(db, { source: server.source, viewer: 'company:1' });
    expect(server.calls[1]).toEqual({ updatedSince: undefined });
    server.products.set(7, makeProduct(7, '2026-02-01T00:00:00.000Z'));
    await refreshCatalogue(db, { source: server.source, viewer: 'company:1' });
    expect(server.calls[2]?.ifNoneMatch).toBeDefined();
    expect(server.answers).toEqual(['200', '200', '200']);
  });

  it('drops products on a refresh without reading every product back', async () => {
    const db = freshDb();
    // Changed one after the other: a refresh gets back only the newest (the cursor's own).
    const at = (id: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString();
    const server = fakeServer(range(500).map((id) => makeProduct(id, at(id))));
    await refreshCatalogue(db, { source: server.source });
    server.products.delete(250);
    const reads = vi.spyOn(db.productBlocks, 'toArray');
    const blockReads = vi.spyOn(db.productBlocks, 'bulkGet');
    await refreshCatalogue(db, { source: server.source });
    expect(server.calls.at(-1)?.updatedSince).toBe(at(500));
    expect(reads).not.toHaveBeenCalled();
    // The block of the newest product (sent again) and that of the dropped one.
    expect(blockReads.mock.calls.flatMap(([keys]) => keys).sort()).toEqual([2, 5]);
    expect((await readStoredCatalogue(db)).ids).toHaveLength(499);
    expect(await readProduct(db, 250)).toBeUndefined();
  });

  it('drops products the server no longer has, on an incremental refresh too', async () => {
    const db = freshDb();
    const server = fakeServer(range(10).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    server.products.delete(4);
    await refreshCatalogue(db, { source: server.source });
    expect(server.calls.at(-1)?.updatedSince).toBeDefined();
    expect(await readProduct(db, 4)).toBeUndefined();
    expect(await countOnDevice(db)).toBe(9);
  });

  it('fetches everything again for another viewer, and drops what the server no longer has', async () => {
    const db = freshDb();
    const server = fakeServer(range(10).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    server.products.delete(3);
    server.products.set(5, { ...makeProduct(5), price: 12.5 });
    // Another viewer (a signed-in company) means other prices: everything is fetched again.
    const state = await refreshCatalogue(db, { source: server.source, viewer: 'company:1' });
    expect(server.calls.at(-1)).toEqual({ updatedSince: undefined });
    expect(await readProduct(db, 3)).toBeUndefined();
    expect(await countOnDevice(db)).toBe(9);
    expect((await readProduct(db, 5))?.price).toBe(12.5);
    expect(state.viewer).toBe('company:1');
  });

  it('is no longer complete when another viewer’s refresh is cut short', async () => {
    const db = freshDb();
    const server = fakeServer(range(150).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    // A company signs in: its prices start arriving, and the connection drops.
    for (const id of range(150)) server.products.set(id, { ...makeProduct(id), price: 10 });
    server.dropAfter(2);
    await expect(
      refreshCatalogue(db, { source: server.source, viewer: 'company:1' }),
    ).rejects.toThrow('network error');
    // Some products have the company's prices, the others have none: neither viewer's copy.
    expect((await readProduct(db, 1))?.price).toBe(10);
    expect((await readProduct(db, 150))?.price).toBeUndefined();
    expect(await db.mirrorState.get('catalogue')).toMatchObject({ complete: false });

    // The next refresh for the company fetches everything again and is complete.
    server.dropAfter(Infinity);
    const state = await refreshCatalogue(db, { source: server.source, viewer: 'company:1' });
    expect(server.calls.at(-1)).toEqual({ updatedSince: undefined });
    expect(state).toMatchObject({ complete: true, viewer: 'company:1' });
    expect((await readProduct(db, 150))?.price).toBe(10);
  });

  it('keeps what it had when the network fails half-way', async () => {
    const db = freshDb();
    const server = fakeServer(range(150).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    const before = await db.mirrorState.get('catalogue');
    server.products.set(3, { ...makeProduct(3, '2026-02-01T00:00:00.000Z'), name: 'Renamed' });
    server.dropAfter(1);
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toThrow('network error');
    expect(await countOnDevice(db)).toBe(150);
    expect(await db.mirrorState.get('catalogue')).toEqual(before);
  });

  it('is not complete when the first answer is cut short, even at a line boundary', async () => {
    const db = freshDb();
    const server = fakeServer(range(250).map((id) => makeProduct(id)));
    server.dropAfter(2);
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toThrow('network error');
    expect(await db.mirrorState.get('catalogue')).toBeUndefined();

    server.dropAfter(Infinity);
    server.cutBeforeEnd();
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toBeInstanceOf(
      IncompleteCatalogueError,
    );
    expect(await countOnDevice(db)).toBe(250);
    expect(await db.mirrorState.get('catalogue')).toBeUndefined();
  });

  it('stores the products that match the schema, drops its copy of one that does not, and is not complete', async () => {
    const db = freshDb();
    const server = fakeServer(range(150).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    const before = await db.mirrorState.get('catalogue');

    const later = '2026-02-01T00:00:00.000Z';
    server.products.set(4, { ...makeProduct(4, later), name: 'Renamed' });
    // A price the device cannot trust: a string, where the schema says a number.
    server.products.set(7, { ...makeProduct(7, later), price: '9.90' } as unknown as Product);
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toBeInstanceOf(
      DamagedCatalogueError,
    );
    expect((await readProduct(db, 4))?.name).toBe('Renamed');
    expect(await readProduct(db, 7)).toBeUndefined();
    // The cursor stays: the next refresh asks for the damaged product again.
    expect(await db.mirrorState.get('catalogue')).toEqual(before);

    server.products.set(7, { ...makeProduct(7, later), price: 9.9 });
    await refreshCatalogue(db, { source: server.source });
    expect((await readProduct(db, 7))?.price).toBe(9.9);
    expect(await countOnDevice(db)).toBe(150);
  });

  it('ends a refresh at a line that is none of the answer’s kinds, and is not complete', async () => {
    const db = freshDb();
    const server = fakeServer(range(20).map((id) => makeProduct(id)));
    server.sendStrayLine({ type: 'prices', prices: [] });
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toBeInstanceOf(
      DamagedCatalogueError,
    );
    expect(await db.mirrorState.get('catalogue')).toBeUndefined();

    server.sendStrayLine({ type: 'products', products: 'all' });
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toBeInstanceOf(
      DamagedCatalogueError,
    );
    expect(await db.mirrorState.get('catalogue')).toBeUndefined();
  });

  it('surfaces a full device as the storage error, and is not marked complete', async () => {
    const db = freshDb();
    const server = fakeServer(range(50).map((id) => makeProduct(id)));
    vi.spyOn(db.productBlocks, 'bulkPut').mockRejectedValue(
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    );
    await expect(refreshCatalogue(db, { source: server.source })).rejects.toMatchObject({
      name: 'QuotaExceededError',
    });
    expect(await db.mirrorState.get('catalogue')).toBeUndefined();
  });

  it('runs one refresh at a time', async () => {
    const db = freshDb();
    const server = fakeServer(range(5).map((id) => makeProduct(id)));
    const [a, b] = await Promise.all([
      refreshCatalogue(db, { source: server.source }),
      refreshCatalogue(db, { source: server.source }),
    ]);
    expect(a).toBe(b);
    expect(server.calls).toHaveLength(1);
  });

  it('runs a refresh for another viewer after the current one, not alongside it', async () => {
    const db = freshDb();
    const server = fakeServer(range(5).map((id) => makeProduct(id)));
    const visitor = refreshCatalogue(db, { source: server.source });
    const company = refreshCatalogue(db, { source: server.source, viewer: 'company:1' });
    expect(await visitor).toMatchObject({ viewer: 'visitor' });
    expect(await company).toMatchObject({ viewer: 'company:1' });
    expect(await db.mirrorState.get('catalogue')).toMatchObject({ viewer: 'company:1' });
    expect(server.calls).toHaveLength(2);
  });

  it('answers the device query right after a full refresh, with what the server sent', async () => {
    const db = freshDb();
    const server = fakeServer(range(30).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    const reads = vi.spyOn(db.productBlocks, 'toArray');
    const page = await queryLocalCatalogue(db, NAME_ORDER);
    expect(reads).not.toHaveBeenCalled();
    expect(page.pagination.totalProducts).toBe(30);
    expect(page.products.map((p) => p.name)).toEqual(
      [...range(30)]
        .map((id) => `Product ${id}`)
        .sort()
        .slice(0, 12),
    );
  });

  it('answers the device query from the device when it holds other products than were sent', async () => {
    const db = freshDb();
    const server = fakeServer(range(30).map((id) => makeProduct(id)));
    await refreshCatalogue(db, { source: server.source });
    // A product stored meanwhile (a product page opened in another tab) that the mirror did
    // not send: the device query must see it.
    const extra = { ...makeProduct(99, '2026-03-01T00:00:00.000Z'), name: 'Aaa extra' };
    await storeProducts(db, [{ ...extra, ...deriveSearchFields(extra) }]);
    const page = await queryLocalCatalogue(db, NAME_ORDER);
    expect(page.pagination.totalProducts).toBe(31);
    expect(page.products[0]?.id).toBe(99);
  });

  it('takes prices off the device before a visitor’s refresh, also those written after signing out', async () => {
    const db = freshDb();
    const products = range(200).map((id) => ({ ...makeProduct(id), price: 10 }));
    let signedOut: () => void = () => undefined;
    const signingOut = new Promise<void>((resolve) => (signedOut = resolve));
    // A company's catalogue on its way when the user signs out: half of it arrives after.
    async function* lines(): AsyncGenerator<MirrorLine> {
      yield { type: 'categories', categories: [CATEGORY] };
      yield { type: 'products', products: products.slice(0, 100) };
      await signingOut;
      yield { type: 'products', products: products.slice(100) };
      yield { type: 'end', cursor: null, ids: products.map((p) => p.id) };
    }
    const company = refreshCatalogue(db, {
      viewer: 'company:1',
      source: {
        mirror: () => Promise.resolve({ unchanged: false, etag: undefined, lines: lines() }),
      },
    });
    await vi.waitFor(async () => expect(await countOnDevice(db)).toBe(100));
    await forgetPricedCatalogue(db);
    signedOut();
    // The visitor's refresh comes next, and finds no network.
    const visitor = refreshCatalogue(db, {
      source: { mirror: () => Promise.reject(new TypeError('Failed to fetch')) },
    });
    await company;
    await expect(visitor).rejects.toThrow('Failed to fetch');
    expect((await readAllProducts(db)).filter((p) => p.price !== undefined)).toEqual([]);
  });

  it('forgets a priced catalogue on signing out, and keeps a visitor’s', async () => {
    const priced = fakeServer(range(150).map((id) => ({ ...makeProduct(id), price: 10 })));
    const company = freshDb();
    await refreshCatalogue(company, { source: priced.source, viewer: 'company:1' });
    await forgetPricedCatalogue(company);
    expect(await countOnDevice(company)).toBe(0);
    expect(await company.mirrorState.get('catalogue')).toBeUndefined();

    const visitor = freshDb();
    await refreshCatalogue(visitor, {
      source: fakeServer(range(150).map((id) => makeProduct(id))).source,
    });
    await forgetPricedCatalogue(visitor);
    expect(await countOnDevice(visitor)).toBe(150);

    // A product opened while signed in carries its price: the visitor's copy goes too.
    await storeProducts(visitor, [{ ...makeProduct(7), price: 10 }]);
    const blockReads = vi.spyOn(visitor.productBlocks, 'bulkGet');
    await forgetPricedCatalogue(visitor);
    expect(await countOnDevice(visitor)).toBe(0);
    expect(blockReads).not.toHaveBeenCalled();
  });
});
