/**
 * Keeps the device's copy of the catalogue in step with the server. A refresh is one
 * streamed answer (GET /api/products/mirror): the first asks for every product, later ones
 * only for products changed since the cursor of the last one (`updatedSince`); each batch of
 * products is written while the rest is still arriving. Every refresh ends with the ids the
 * server has, so products it no longer has are dropped. The mirror's state is written last,
 * in one transaction with the drops: a refresh cut short never counts as complete. Only one
 * refresh runs at a time.
 *
 * Each line is checked as it arrives (./mirror-check.ts): a product that does not match the
 * catalogue's schema is not stored, its copy on the device is dropped, and the refresh does
 * not count as complete.
 *
 * The server names each answer with an ETag: the catalogue's version and the viewer's
 * class. A refresh for the same viewer sends the last one, and a 304 says the catalogue
 * has not changed since: nothing is sent, nothing is written but the time of the check.
 */
import type { MirrorLine, Product } from '../../contracts/catalogue';
import {
  fetchCatalogueMirror,
  type MirrorAnswer,
  type MirrorRequest,
} from '../api/catalogue-mirror';
import type { CatalogueMirrorState, PortalDb } from '../db/db';
import {
  clearProducts,
  keepOnlyProducts,
  readAllProducts,
  removeProducts,
  storeProducts,
} from '../db/stored-products';
import { adoptMirroredCatalogue } from './local-catalogue';

export type { MirrorAnswer, MirrorRequest };

/** Where the mirror reads the catalogue from: the /api by default. */
export interface CatalogueSource {
  /**
   * The lines of the mirror's answer (changed since `updatedSince` if given), or
   * `unchanged` when the answer named by `ifNoneMatch` still holds.
   */
  mirror(request: MirrorRequest): Promise<MirrorAnswer>;
}

const apiSource: CatalogueSource = { mirror: fetchCatalogueMirror };

export type MirrorCheck = typeof import('./mirror-check').checkMirrorLine;

export interface RefreshOptions {
  /** Whose prices the products carry; a different viewer than the mirror's refetches all. */
  viewer?: string;
  source?: CatalogueSource;
  /** The check of each line; by default ./mirror-check, loaded with the first refresh. */
  check?: MirrorCheck;
}

/** The check of the lines, in a chunk of its own: it loads while the answer is asked for. */
const loadCheck = () => import('./mirror-check').then((module) => module.checkMirrorLine);

/** A refresh that ended without the answer's last line: it was cut short. */
export class IncompleteCatalogueError extends Error {
  constructor() {
    super('The catalogue arrived incomplete');
    this.name = 'IncompleteCatalogueError';
  }
}

/** A refresh whose answer held a line or products that do not match the catalogue's schema. */
export class DamagedCatalogueError extends Error {
  constructor(what: string) {
    super(`The catalogue arrived damaged: ${what}`);
    this.name = 'DamagedCatalogueError';
  }
}

const running = new WeakMap<PortalDb, { viewer: string; refresh: Promise<CatalogueMirrorState> }>();

export function refreshCatalogue(
  db: PortalDb,
  options: RefreshOptions = {},
): Promise<CatalogueMirrorState> {
  const viewer = options.viewer ?? 'visitor';
  const current = running.get(db);
  if (current?.viewer === viewer) return current.refresh;
  // A refresh for another viewer (someone signed in or out) runs after the current one.
  const refresh = (current?.refresh.catch(() => undefined) ?? Promise.resolve())
    .then(() => runRefresh(db, viewer, options.source ?? apiSource, options.check))
    .finally(() => {
      if (running.get(db)?.refresh === refresh) running.delete(db);
    });
  running.set(db, { viewer, refresh });
  return refresh;
}

async function runRefresh(
  db: PortalDb,
  viewer: string,
  source: CatalogueSource,
  givenCheck: MirrorCheck | undefined,
): Promise<CatalogueMirrorState> {
  const checking = givenCheck ? Promise.resolve(givenCheck) : loadCheck();
  // Not waited for yet: a failed load is the refresh's failure, never an unhandled one.
  checking.catch(() => undefined);
  // A visitor's refresh after a signed-in one (whose products may have kept arriving after
  // the user signed out and they were forgotten): the prices go before anything is asked.
  if (viewer === 'visitor' && (await db.mirrorState.get('catalogue'))?.viewer !== 'visitor') {
    await forgetPricedCatalogue(db);
  }
  const previous = await db.mirrorState.get('catalogue');
  const incremental =
    previous?.complete === true && previous.viewer === viewer && previous.cursor !== null;
  const since = incremental ? (previous.cursor ?? undefined) : undefined;
  // The ETag names the catalogue as this viewer saw it at the last answer: while the
  // server's catalogue is still that one, there is nothing newer than the cursor either.
  const revalidate = incremental && previous.etag !== undefined;

  // 1. Ask; a 304 means the copy on the device is the server's catalogue still.
  const answer = await source.mirror({
    updatedSince: since,
    ifNoneMatch: revalidate ? previous.etag : undefined,
  });
  if (answer.unchanged) {
    if (!revalidate) throw new Error('The server answered 304 to a request without an ETag');
    const state: CatalogueMirrorState = { ...previous, syncedAt: new Date().toISOString() };
    // Only the time of the check: a state removed meanwhile (signing out) stays removed.
    await db.mirrorState.update('catalogue', { syncedAt: state.syncedAt });
    return state;
  }

  // 2. Check and write what arrives as it arrives. A full refresh also keeps the products in
  //    memory, to hand the catalogue query a ready copy instead of reading them all back.
  const check = await checking;
  // Another viewer's copy (a visitor's has no prices, another company's other ones) is
  // written over product by product from here: until this refresh is complete, the
  // device's copy is neither theirs nor this viewer's, and is not read as complete.
  if (previous?.complete === true && previous.viewer !== viewer) {
    await db.mirrorState.update('catalogue', { complete: false });
  }
  const received = incremental ? null : new Map<number, Product>();
  let end: Extract<MirrorLine, { type: 'end' }> | undefined;
  let damaged = 0;
  for await (const raw of answer.lines) {
    const checked = check(raw);
    // What was written stays; the copy is not complete.
    if (!checked.ok) throw new DamagedCatalogueError(checked.problem);
    const { line } = checked;
    damaged += checked.damaged;
    if (checked.damagedIds.length > 0) await removeProducts(db, checked.damagedIds);
    if (line.type === 'categories') {
      await db.transaction('rw', db.categories, async () => {
        await db.categories.clear();
        await db.categories.bulkPut(line.categories);
      });
    } else if (line.type === 'products') {
      await storeProducts(db, line.products);
      for (const product of line.products) received?.set(product.id, product);
    } else {
      end = line;
      break;
    }
  }
  // 3. No end line: the answer was cut short. What was written stays, but is not complete.
  if (!end) throw new IncompleteCatalogueError();
  // A product that did not match: the rest is written, but the copy is not complete.
  if (damaged > 0) throw new DamagedCatalogueError(`${damaged} products did not match`);

  // 4. Drop what the server no longer has, then record the refresh, in one transaction.
  const existing = new Set(end.ids);
  const state: CatalogueMirrorState = {
    key: 'catalogue',
    cursor: end.cursor,
    syncedAt: new Date().toISOString(),
    complete: true,
    viewer,
    ...(answer.etag === undefined ? {} : { etag: answer.etag }),
  };
  await db.transaction('rw', db.productBlocks, db.storedCatalogue, db.mirrorState, async () => {
    await keepOnlyProducts(db, existing);
    await db.mirrorState.put(state);
    if (received) {
      await adoptMirroredCatalogue(
        db,
        [...received.values()].filter((product) => existing.has(product.id)),
      );
    }
  });
  return state;
}

/** Keeps one product fresh after it was fetched on its own (the detail page). */
export async function storeProduct(db: PortalDb, product: Product): Promise<void> {
  await storeProducts(db, [product]);
}

export async function forgetProduct(db: PortalDb, id: number): Promise<void> {
  await removeProducts(db, [id]);
}

/** Removes priced products from the device (signing out); a visitor's copy is kept. */
export async function forgetPricedCatalogue(db: PortalDb): Promise<void> {
  await db.transaction('rw', db.productBlocks, db.storedCatalogue, db.mirrorState, async () => {
    const state = await db.mirrorState.get('catalogue');
    const priced =
      (state !== undefined && state.viewer !== 'visitor') ||
      (await readAllProducts(db)).some((p) => p.price !== undefined);
    if (priced) {
      await clearProducts(db);
      await db.mirrorState.delete('catalogue');
    }
  });
}
