/**
 * The soak's load: approved salons browsing the catalogue, changing their carts and
 * checking out, as many at once as there are requests in flight. Each salon sends one
 * request at a time, as a device's outbox does, so the load tool knows what each cart
 * must hold; the deliberate replays are the exception:
 *
 * - every write carries an Idempotency-Key; some are sent again once answered (an answer
 *   the device lost), and some are sent twice at the same moment straight to two
 *   different processes (a device that retried while the first request was still
 *   running, through another route);
 * - a write answered 5xx, 409 REQUEST_IN_PROGRESS or not at all is sent again under its
 *   key until it has an answer, as the outbox does, so each write ends known.
 *
 * What the salons were told is kept (`Outcomes`) for the checks against the database.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { PRODUCTS_PAGE_SIZE } from '../../../src/contracts/catalogue';
import type { Cart, Order } from '../../../src/contracts/orders-schemas';
import { ADDRESS } from '../../fixtures/shipping-address';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../server/services/tokens';
import type { Catalogue, Salon } from './deployment';
import { jsonOf, type Answer, type Call, type Client } from './http';

export const READ_KINDS = ['list', 'search', 'category', 'detail'] as const;
export const WRITE_KINDS = ['cart add', 'cart set', 'cart remove', 'checkout'] as const;
export const REPLAY_KINDS = ['replay', 'replay, two processes at once'] as const;
export const KINDS = [...READ_KINDS, ...WRITE_KINDS, ...REPLAY_KINDS, 'refresh'] as const;
type ReadKind = (typeof READ_KINDS)[number];
type WriteKind = (typeof WRITE_KINDS)[number];
export type Kind = (typeof KINDS)[number];

/**
 * The mix: 80 % catalogue reads (a page of the list, a search, a category, a product),
 * 15 % cart changes, and the rest (5 %) checkouts. A checkout goes to a salon with
 * something in its cart; when none is found, it adds to a cart instead: nobody orders an
 * empty cart.
 */
const READ_SHARES: [ReadKind, number][] = [
  ['list', 0.2],
  ['search', 0.15],
  ['category', 0.2],
  ['detail', 0.25],
];
const READ_SHARE = READ_SHARES.reduce((sum, [, share]) => sum + share, 0);
const CART_SHARE = 0.15;

/** Of cart changes: adding most, then changing a quantity, then removing a line. */
const CART_ADD_SHARE = 0.6;
const CART_SET_SHARE = 0.25;

/**
 * Shares of product picks: the few bestsellers with a handful of units left (gone within
 * seconds), the demo range of about 40 bestsellers (a few thousand units between them,
 * which a high rate of orders empties within the minute), and any of the thousand others.
 */
const SCARCE_SHARE = 0.1;
const BESTSELLER_SHARE = 0.3;

/** Random looks among idle salons for one with a cart to change or check out. */
const IDLE_LOOKS = 20;

/** Writes sent once more after their answer, as after an answer the device lost. */
const REPLAY_SHARE = 0.05;

/** Checkouts (and cart changes) sent twice at once, straight to two different processes. */
const CONCURRENT_CHECKOUT_SHARE = 0.1;
const CONCURRENT_CART_SHARE = 0.02;

/** A write without a final answer is sent again at most this often. */
const MAX_ATTEMPTS = 20;

/**
 * Pause before sending a write again, doubling up to a second: a copy refused with 409
 * while the other runs is answered within its p99, and twenty attempts wait 15 s in all.
 */
const FIRST_RETRY_PAUSE_MS = 50;
const LONGEST_RETRY_PAUSE_MS = 1_000;

/** What salons type into the search box: words of the range's names and descriptions. */
const SEARCH_TERMS = [
  'shampoo',
  'argan',
  'tea tree',
  'keratin',
  'mask',
  'repair',
  'volume',
  'color',
  'serum',
  'curl',
  'blonde',
  '1000 ml',
  'spray',
  'silver',
  'hydra balance',
];

const SORTS = ['name', 'price', 'newest'];

interface SalonState extends Salon {
  /** What the salon's cart holds: product id → quantity, as the answers said. */
  cart: Map<number, number>;
  /** When its access token was issued (performance.now), or before the load began. */
  tokenSince: number;
  refreshing?: Promise<void> | undefined;
}

export interface PlacedOrder {
  orderId: number;
  orderNumber: string;
  userId: number;
  units: number;
}

export interface Outcomes {
  /** Checkout key → the order its answer named. */
  orders: Map<string, PlacedOrder>;
  /** Every write key answered 2xx → its user and status (what the database must record). */
  recordedKeys: Map<string, { userId: number; status: number }>;
  /** Every write key sent. */
  keysSent: number;
  /** What each salon's cart must hold at the end. */
  carts: Map<number, Map<number, number>>;
  /** Users whose last write never got an answer: their carts cannot be checked. */
  uncertainUsers: Set<number>;
  /** Repeats of a write answered with another status or body than its first answer. */
  replayMismatches: string[];
  /** Keys whose effect ran twice (two answers not marked as replays). */
  ranTwice: string[];
  /** Cart answers that differ from the changes the salon made. */
  cartMismatches: string[];
  /** Orders whose lines differ from the cart they were made from. */
  orderMismatches: string[];
  /** Replays sent (after an answer, and in pairs at once). */
  replays: { sequential: number; concurrent: number };
  /** Products a salon was told are out of stock. */
  soldOut: Set<number>;
}

/** Latencies and statuses per kind of request, counted after the warm-up. */
export class Stats {
  counting = false;
  started = 0;
  ended = 0;
  readonly latencies = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
  readonly statuses = new Map<Kind, Map<string, number>>(KINDS.map((kind) => [kind, new Map()]));
  /** Answers that no kind expects, with an example of each. */
  readonly unexpected = new Map<string, { count: number; example: string }>();
  serverErrors = 0;
  noAnswer = 0;
  total = 0;

  start(now: number): void {
    this.counting = true;
    this.started = now;
  }

  record(kind: Kind, answer: Answer, code: string | undefined): void {
    if (!this.counting) return;
    this.total += 1;
    this.latencies.get(kind)?.push(answer.ms);
    const label = code ? `${answer.status} ${code}` : String(answer.status);
    const counts = this.statuses.get(kind) as Map<string, number>;
    counts.set(label, (counts.get(label) ?? 0) + 1);
    if (answer.status >= 500) this.serverErrors += 1;
    if (answer.status === 0) this.noAnswer += 1;
    if (!expected(kind, answer.status, code)) {
      const name = `${kind}: ${label}`;
      const seen = this.unexpected.get(name);
      if (seen) seen.count += 1;
      else this.unexpected.set(name, { count: 1, example: answer.raw.toString('utf8', 0, 300) });
    }
  }
}

/** The documented answers of each kind: anything else is counted as unexpected. */
function expected(kind: Kind, status: number, code: string | undefined): boolean {
  switch (kind) {
    case 'list':
    case 'search':
    case 'category':
    case 'detail':
    case 'refresh':
    case 'cart remove':
      return status === 200;
    case 'cart add':
    case 'cart set':
      // 422: the line would exceed the stock left.
      return status === 200 || status === 422;
    case 'checkout':
      // 422: a line is short of stock by now; nothing is ordered.
      return status === 201 || status === 422;
    case 'replay':
      return status === 200 || status === 201 || status === 422;
    case 'replay, two processes at once':
      // 409: the other copy is still running; the copy is sent again until it is answered.
      return (
        status === 200 ||
        status === 201 ||
        status === 422 ||
        (status === 409 && code === 'REQUEST_IN_PROGRESS')
      );
  }
}

interface ErrorBody {
  message?: string;
  code?: string;
  details?: { field: string; code?: string }[];
}

/** One write and what became of it. */
interface Write {
  salon: SalonState;
  kind: WriteKind;
  call: Call & { idempotencyKey: string };
  /** Its first 2xx answer: every later one must repeat it. */
  first?: { status: number; body: unknown };
  /** 2xx answers not marked as replays: more than one means it ran twice. */
  fresh: number;
}

/** Every key starts so, and checks.ts finds the soak's orders and records by it. */
const newKey = () => `soak-${randomUUID()}`;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));
/**
 * A token this old may have run out: the sessions are opened before the processes start,
 * which takes up to a minute or so on a busy machine, hence two minutes' margin.
 */
const TOKEN_RENEWAL_MS = (ACCESS_TOKEN_TTL_SECONDS - 120) * 1000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Early pages far more often than late ones, as people browse. */
const page = (last: number) => 1 + Math.floor(Math.random() ** 3 * last);
/** At most this many examples of each kind of mismatch are kept for the report. */
const MAX_EXAMPLES = 20;
const note = (list: string[], text: string) => {
  if (list.length < MAX_EXAMPLES) list.push(text);
  else if (list.length === MAX_EXAMPLES) list.push('…');
};

export interface LoadOptions {
  balancer: Client;
  /** Each process's own address, for the copies sent to two processes at once. */
  processes: Client[];
  salons: Salon[];
  catalogue: Catalogue;
  connections: number;
  warmUpSeconds: number;
  seconds: number;
  /** Called when the warm-up ends and counting begins, and when the load ends. */
  onCounting: () => void;
  onEnd: () => void;
  log: (line: string) => void;
}

export async function runLoad(options: LoadOptions): Promise<{ stats: Stats; outcomes: Outcomes }> {
  const { balancer, processes, catalogue } = options;
  const stats = new Stats();
  const began = performance.now();
  const salons: SalonState[] = options.salons.map((salon) => ({
    ...salon,
    cart: new Map(),
    tokenSince: began,
  }));
  const outcomes: Outcomes = {
    orders: new Map(),
    recordedKeys: new Map(),
    keysSent: 0,
    carts: new Map(),
    uncertainUsers: new Set(),
    replayMismatches: [],
    ranTwice: [],
    cartMismatches: [],
    orderMismatches: [],
    replays: { sequential: 0, concurrent: 0 },
    soldOut: new Set(),
  };
  const allProducts = [...catalogue.stockBefore.keys()];
  const categoryPages = Math.max(
    1,
    Math.ceil(allProducts.length / catalogue.categoryIds.length / PRODUCTS_PAGE_SIZE),
  );

  /** A product a salon would choose: not one it has been told is out of stock. */
  function chooseProduct(): number {
    let product = 0;
    for (let tries = 0; tries < 10; tries += 1) {
      const roll = Math.random();
      product =
        roll < SCARCE_SHARE
          ? pick(catalogue.scarce)
          : roll < SCARCE_SHARE + BESTSELLER_SHARE
            ? pick(catalogue.bestsellers)
            : pick(allProducts);
      if (!outcomes.soldOut.has(product)) return product;
    }
    return product;
  }

  async function refresh(salon: SalonState): Promise<void> {
    salon.refreshing ??= (async () => {
      const answer = await balancer.send({
        method: 'POST',
        path: '/api/auth/refresh',
        body: { refreshToken: salon.refreshToken },
      });
      stats.record('refresh', answer, undefined);
      if (answer.status === 200) {
        const tokens = await jsonOf<{ accessToken: string; refreshToken: string }>(answer);
        salon.accessToken = tokens.accessToken;
        salon.refreshToken = tokens.refreshToken;
        salon.tokenSince = performance.now();
      }
    })().finally(() => {
      salon.refreshing = undefined;
    });
    return salon.refreshing;
  }

  /**
   * Sends with the salon's token; an expired token is renewed once, as the app does. A 401
   * to a token well within its life is returned as it is: a session ended by mistake.
   */
  async function send(via: Client, salon: SalonState, call: Call): Promise<Answer> {
    const answer = await via.send({ ...call, token: salon.accessToken });
    const aged = performance.now() - salon.tokenSince > TOKEN_RENEWAL_MS;
    if (answer.status !== 401 || !aged) return answer;
    await refresh(salon);
    return via.send({ ...call, token: salon.accessToken });
  }

  const codeOf = async (answer: Answer): Promise<string | undefined> => {
    if (answer.status < 400 || answer.status >= 500) return undefined;
    try {
      return (await jsonOf<ErrorBody>(answer)).code;
    } catch {
      return undefined;
    }
  };

  async function read(salon: SalonState): Promise<void> {
    let roll = Math.random() * READ_SHARE;
    const kind = READ_SHARES.find(([, share]) => (roll -= share) < 0)?.[0] ?? 'list';
    const path =
      kind === 'list'
        ? `/api/products?page=${page(10)}&sortBy=${pick(SORTS)}`
        : kind === 'search'
          ? `/api/products?search=${encodeURIComponent(pick(SEARCH_TERMS))}`
          : kind === 'category'
            ? `/api/products?categoryId=${pick(catalogue.categoryIds)}&sortBy=${pick(SORTS)}&page=${page(categoryPages)}`
            : `/api/products/${chooseProduct()}`;
    const answer = await send(balancer, salon, { method: 'GET', path });
    stats.record(kind, answer, await codeOf(answer));
    if (kind === 'detail' && answer.status === 200) {
      const { product } = await jsonOf<{ product: { id: number; stock: number } }>(answer);
      if (product.stock === 0) outcomes.soldOut.add(product.id);
    }
  }

  /**
   * Sends a write until it has an answer that is not a 5xx, a 409 REQUEST_IN_PROGRESS or
   * no answer, recording each attempt; null when every attempt failed.
   */
  async function deliver(write: Write, via: Client, kind: Kind): Promise<Answer | null> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const answer = await send(via, write.salon, write.call);
      const code = await codeOf(answer);
      stats.record(kind, answer, code);
      const again =
        answer.status === 0 ||
        answer.status >= 500 ||
        (answer.status === 409 && code === 'REQUEST_IN_PROGRESS');
      if (!again) return answer;
      await pause(Math.min(FIRST_RETRY_PAUSE_MS * 2 ** (attempt - 1), LONGEST_RETRY_PAUSE_MS));
    }
    outcomes.uncertainUsers.add(write.salon.userId);
    return null;
  }

  const cartOfAnswer = (cart: Cart) =>
    new Map(cart.items.map((item) => [item.productId, item.quantity]));
  const describe = (cart: Map<number, number>) =>
    JSON.stringify([...cart].sort(([a], [b]) => a - b));

  /** The write's effect on what the salon's cart holds, once, from its first 2xx answer. */
  function apply(write: Write, body: unknown): void {
    const { salon, call } = write;
    if (write.kind === 'checkout') {
      const { order } = body as { order: Order };
      const lines = new Map(
        order.orderItems.map((item) => [item.productId ?? 0, item.quantity] as const),
      );
      if (!isDeepStrictEqual(lines, salon.cart)) {
        note(
          outcomes.orderMismatches,
          `${order.orderNumber}: ordered ${describe(lines)}, the cart held ${describe(salon.cart)}`,
        );
      }
      const units = order.orderItems.reduce((sum, item) => sum + item.quantity, 0);
      outcomes.orders.set(call.idempotencyKey, {
        orderId: order.id,
        orderNumber: order.orderNumber,
        userId: salon.userId,
        units,
      });
      salon.cart.clear();
      return;
    }
    const productId =
      write.kind === 'cart add'
        ? (call.body as { productId: number }).productId
        : Number(call.path.split('/').pop());
    if (write.kind === 'cart add') {
      const { quantity } = call.body as { quantity: number };
      salon.cart.set(productId, (salon.cart.get(productId) ?? 0) + quantity);
    } else if (write.kind === 'cart set') {
      salon.cart.set(productId, (call.body as { quantity: number }).quantity);
    } else {
      salon.cart.delete(productId);
    }
    const answered = cartOfAnswer(body as Cart);
    if (!isDeepStrictEqual(answered, salon.cart)) {
      note(
        outcomes.cartMismatches,
        `user ${salon.userId} after ${write.kind} ${call.idempotencyKey}: answered ${describe(answered)}, expected ${describe(salon.cart)}`,
      );
      // Carry on from what the server says, so that one mismatch is reported once.
      salon.cart = answered;
    }
  }

  /** What one answer of a write means: the effect once, and every repeat the same. */
  async function settle(write: Write, answer: Answer | null): Promise<ErrorBody | null> {
    if (!answer) return null;
    const key = write.call.idempotencyKey;
    const replayed = answer.headers['idempotent-replayed'] === 'true';
    if (answer.status >= 200 && answer.status < 300) {
      const body = await jsonOf<unknown>(answer);
      if (!replayed) write.fresh += 1;
      if (write.fresh > 1) note(outcomes.ranTwice, `${write.kind} ${key}`);
      if (!write.first) {
        write.first = { status: answer.status, body };
        outcomes.recordedKeys.set(key, { userId: write.salon.userId, status: answer.status });
        apply(write, body);
      } else if (
        answer.status !== write.first.status ||
        !isDeepStrictEqual(body, write.first.body)
      ) {
        // Which of two copies sent at once ran is anyone's guess: the one not marked as
        // replayed did (counted in `fresh`), and the other must say what it said.
        note(
          outcomes.replayMismatches,
          `${write.kind} ${key}: ${answer.status}${replayed ? ' (replayed)' : ''} differs from ${write.first.status}`,
        );
      }
      return null;
    }
    if (write.first) {
      note(
        outcomes.replayMismatches,
        `${write.kind} ${key}: ${answer.status} after ${write.first.status}`,
      );
    }
    return jsonOf<ErrorBody>(answer).catch(() => ({}));
  }

  /** A write with its replays: the refusal of its last answer, if any. */
  async function perform(
    salon: SalonState,
    kind: WriteKind,
    call: Omit<Call, 'idempotencyKey'>,
    idempotencyKey = newKey(),
  ): Promise<ErrorBody | null> {
    const write: Write = { salon, kind, call: { ...call, idempotencyKey }, fresh: 0 };
    outcomes.keysSent += 1;
    const together =
      processes.length > 1 &&
      Math.random() < (kind === 'checkout' ? CONCURRENT_CHECKOUT_SHARE : CONCURRENT_CART_SHARE);
    if (together) {
      outcomes.replays.concurrent += 1;
      const first = between(0, processes.length - 1);
      const second = (first + between(1, processes.length - 1)) % processes.length;
      // Both copies are counted as such: either may be the one that runs.
      const answers = await Promise.all([
        deliver(write, processes[first] as Client, 'replay, two processes at once'),
        deliver(write, processes[second] as Client, 'replay, two processes at once'),
      ]);
      let refusal: ErrorBody | null = null;
      for (const answer of answers) refusal = (await settle(write, answer)) ?? refusal;
      return refusal;
    }
    let refusal = await settle(write, await deliver(write, balancer, kind));
    if (Math.random() < REPLAY_SHARE) {
      outcomes.replays.sequential += 1;
      refusal = await settle(write, await deliver(write, balancer, 'replay'));
    }
    return refusal;
  }

  /** `roll` (0 to 1) chooses the change: adding, changing a quantity, removing a line. */
  async function changeCart(salon: SalonState, roll: number): Promise<void> {
    const lines = [...salon.cart.keys()];
    if (lines.length === 0 || roll < CART_ADD_SHARE) {
      const productId = chooseProduct();
      const refusal = await perform(salon, 'cart add', {
        method: 'POST',
        path: '/api/cart/add',
        body: { productId, quantity: between(1, 3) },
      });
      if (refusal?.details?.some((d) => d.code === 'outOfStock')) outcomes.soldOut.add(productId);
    } else if (roll < CART_ADD_SHARE + CART_SET_SHARE) {
      await perform(salon, 'cart set', {
        method: 'PUT',
        path: `/api/cart/items/${pick(lines)}`,
        body: { quantity: between(1, 6) },
      });
    } else {
      await perform(salon, 'cart remove', {
        method: 'DELETE',
        path: `/api/cart/items/${pick(lines)}`,
      });
    }
  }

  async function checkout(salon: SalonState): Promise<void> {
    // The device's own reference of the order is its key, as the outbox's local order has.
    const key = newKey();
    const refusal = await perform(
      salon,
      'checkout',
      {
        method: 'POST',
        path: '/api/cart/checkout',
        body: {
          shippingAddress: ADDRESS,
          clientReference: key,
          ...(Math.random() < 0.3 ? { notes: 'Livrare dimineața, vă rog.' } : {}),
        },
      },
      key,
    );
    // Short of stock: the salon takes the lines it was told about out of its cart.
    for (const detail of refusal?.details ?? []) {
      const productId = Number(/^product:(\d+)$/.exec(detail.field)?.[1]);
      if (!productId) continue;
      if (detail.code === 'outOfStock') outcomes.soldOut.add(productId);
      await perform(salon, 'cart remove', {
        method: 'DELETE',
        path: `/api/cart/items/${productId}`,
      });
    }
  }

  /** `roll` (0 to 1) chooses what the salon does, by the shares of the mix. */
  async function act(salon: SalonState, roll: number): Promise<void> {
    if (roll < READ_SHARE) return read(salon);
    if (roll < READ_SHARE + CART_SHARE) return changeCart(salon, (roll - READ_SHARE) / CART_SHARE);
    if (salon.cart.size === 0) return changeCart(salon, 0);
    return checkout(salon);
  }

  /** Whether what `roll` chooses needs something in the cart: a change of a line, a checkout. */
  const needsCart = (roll: number) => roll >= READ_SHARE + CART_SHARE * CART_ADD_SHARE;

  // Salons not busy now; each request goes to one taken from here at random.
  const idle = [...salons];

  /**
   * An idle salon at random; for a checkout or a change of a line, one with something in
   * its cart if a few random looks find one, so that each keeps its share of the mix.
   */
  function takeIdle(wantsCart: boolean): SalonState {
    let index = Math.floor(Math.random() * idle.length);
    for (let look = 0; wantsCart && look < IDLE_LOOKS; look += 1) {
      if ((idle[index] as SalonState).cart.size > 0) break;
      index = Math.floor(Math.random() * idle.length);
    }
    const salon = idle[index] as SalonState;
    idle[index] = idle[idle.length - 1] as SalonState;
    idle.pop();
    return salon;
  }

  const warmUpEnds = began + options.warmUpSeconds * 1000;
  const ends = warmUpEnds + options.seconds * 1000;
  let lastReport = warmUpEnds;
  let lastTotal = 0;

  async function worker(): Promise<void> {
    while (performance.now() < ends) {
      const now = performance.now();
      if (!stats.counting && now >= warmUpEnds) {
        options.onCounting();
        stats.start(performance.now());
      }
      if (stats.counting && now - lastReport >= 10_000) {
        const rate = Math.round(((stats.total - lastTotal) * 1000) / (now - lastReport));
        options.log(
          `  ${Math.round((now - warmUpEnds) / 1000)} s: ${rate} requests/s, ${outcomes.orders.size} orders, ${outcomes.soldOut.size} products out of stock`,
        );
        lastReport = now;
        lastTotal = stats.total;
      }
      const roll = Math.random();
      const salon = takeIdle(needsCart(roll));
      try {
        await act(salon, roll);
      } finally {
        idle.push(salon);
      }
    }
  }

  await Promise.all(Array.from({ length: options.connections }, () => worker()));
  stats.ended = performance.now();
  options.onEnd();
  for (const salon of salons) outcomes.carts.set(salon.userId, salon.cart);
  return { stats, outcomes };
}
