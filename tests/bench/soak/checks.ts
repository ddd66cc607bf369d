/**
 * What the database must hold after the soak, read once the server processes stopped:
 * the stock, the orders, the carts and the idempotency records agree with one another
 * and with what the salons were told, and every e-mail went out once.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, inArray, isNotNull, like, sql } from 'drizzle-orm';
import type { Db } from '../../../server/db/database';
import {
  cartItems,
  idempotencyKeys,
  mailQueue,
  orderItems,
  orders,
  products,
} from '../../../server/db/schema';
import type { Catalogue, ServerProcess } from './deployment';
import type { Outcomes } from './load';

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

/** Every key the soak sends starts with this (load.ts), and so does each order's reference. */
const SOAK_KEYS = 'soak-%';

/** At most this many examples of a failed check are printed. */
const MAX_EXAMPLES = 10;
const examples = (items: string[]) =>
  items.length === 0
    ? ''
    : `: ${items.slice(0, MAX_EXAMPLES).join('; ')}${items.length > MAX_EXAMPLES ? '; …' : ''}`;
const count = (n: number) => n.toLocaleString('en');
/** A number with its noun: "1 order", "2 orders". */
const counted = (n: number, noun: string) => `${count(n)} ${noun}${n === 1 ? '' : 's'}`;

async function stockChecks(db: Db, catalogue: Catalogue, outcomes: Outcomes): Promise<Check[]> {
  const after = await db.select({ id: products.id, stock: products.stock }).from(products);
  const sold = await db
    .select({
      productId: orderItems.productId,
      units: sql<string>`sum(${orderItems.quantity})`,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(like(orders.clientReference, SOAK_KEYS))
    .groupBy(orderItems.productId);
  const soldOf = new Map(sold.map((row) => [row.productId, Number(row.units)]));
  const negative = after.filter((row) => row.stock < 0);
  const soldOut = after.filter(
    (row) => row.stock === 0 && (catalogue.stockBefore.get(row.id) ?? 0) > 0,
  );
  const differing: string[] = [];
  let consumed = 0;
  for (const row of after) {
    const before = catalogue.stockBefore.get(row.id);
    if (before === undefined) continue;
    consumed += before - row.stock;
    const units = soldOf.get(row.id) ?? 0;
    if (before - row.stock !== units) {
      differing.push(`product ${row.id}: ${before} → ${row.stock}, ${units} sold`);
    }
  }
  const totalSold = [...soldOf.values()].reduce((sum, n) => sum + n, 0);
  const told = [...outcomes.orders.values()].reduce((sum, order) => sum + order.units, 0);
  return [
    {
      name: 'stock never below zero',
      passed: negative.length === 0,
      detail:
        negative.length === 0
          ? `lowest ${Math.min(...after.map((row) => row.stock))}; ${counted(soldOut.length, 'product')} sold out during the soak`
          : examples(negative.map((row) => `product ${row.id}: ${row.stock}`)),
    },
    {
      name: 'units sold = stock consumed, product by product',
      passed: differing.length === 0 && totalSold === told && consumed === totalSold,
      detail: `${counted(consumed, 'unit')} consumed, ${count(totalSold)} in orders, ${count(told)} in the orders salons were told of${examples(differing)}`,
    },
  ];
}

async function orderChecks(db: Db, outcomes: Outcomes): Promise<Check[]> {
  const rows = await db
    .select({
      key: orders.clientReference,
      orders: sql<string>`count(*)`,
      id: sql<number>`min(${orders.id})`,
    })
    .from(orders)
    .where(like(orders.clientReference, SOAK_KEYS))
    .groupBy(orders.clientReference);
  const problems: string[] = [];
  const found = new Map(rows.map((row) => [row.key, row]));
  for (const row of rows) {
    if (Number(row.orders) !== 1) problems.push(`${row.key}: ${row.orders} orders`);
    else if (!outcomes.orders.has(row.key))
      problems.push(`${row.key}: an order nobody was told of`);
  }
  for (const [key, order] of outcomes.orders) {
    const row = found.get(key);
    if (!row) problems.push(`${key}: ${order.orderNumber} answered but not stored`);
    else if (row.id !== order.orderId)
      problems.push(`${key}: answered ${order.orderId}, stored ${row.id}`);
  }

  // Prices are the catalogue's at the moment of the order (none changes during the soak),
  // and an order's totals are the sums of its lines.
  const wrongPrices = await db
    .select({ order: orders.orderNumber, product: orderItems.productId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(
      and(
        like(orders.clientReference, SOAK_KEYS),
        sql`(${orderItems.unitPrice} <> ${products.price} OR ${orderItems.totalPrice} <> ${orderItems.unitPrice} * ${orderItems.quantity})`,
      ),
    );
  const wrongTotals = await db
    .select({ order: orders.orderNumber })
    .from(orders)
    .where(
      and(
        like(orders.clientReference, SOAK_KEYS),
        sql`(${orders.subtotal} <> ${orders.total} OR ${orders.total} <> (SELECT sum(${orderItems.totalPrice}) FROM ${orderItems} WHERE ${orderItems.orderId} = ${orders.id}))`,
      ),
    );
  return [
    {
      name: 'exactly one order per checkout key, the one its answers named',
      passed: problems.length === 0,
      detail: `${counted(rows.length, 'order')} for ${counted(outcomes.orders.size, 'checkout')} answered 201${examples(problems)}`,
    },
    {
      name: 'every order holds the cart it was made from',
      passed: outcomes.orderMismatches.length === 0,
      detail: examples(outcomes.orderMismatches) || 'lines and quantities as the salon put them',
    },
    {
      name: "orders priced at the catalogue's prices, totals the sum of their lines",
      passed: wrongPrices.length === 0 && wrongTotals.length === 0,
      detail:
        examples([
          ...wrongPrices.map((row) => `${row.order}: product ${row.product}`),
          ...wrongTotals.map((row) => `${row.order}: total`),
        ]) || 'every line and total',
    },
  ];
}

function replayChecks(outcomes: Outcomes): Check[] {
  const { sequential, concurrent } = outcomes.replays;
  return [
    {
      name: 'replays answered with the first answer (the same order, the same cart)',
      passed: outcomes.replayMismatches.length === 0,
      detail:
        examples(outcomes.replayMismatches) ||
        `${count(sequential)} sent after the answer, ${counted(concurrent, 'pair')} sent to two processes at once`,
    },
    {
      name: 'no write ran twice',
      passed: outcomes.ranTwice.length === 0,
      detail: examples(outcomes.ranTwice) || counted(outcomes.keysSent, 'key'),
    },
  ];
}

async function idempotencyCheck(db: Db, outcomes: Outcomes): Promise<Check> {
  const rows = await db
    .select({
      userId: idempotencyKeys.userId,
      key: idempotencyKeys.key,
      status: idempotencyKeys.responseStatus,
    })
    .from(idempotencyKeys)
    .where(like(idempotencyKeys.key, SOAK_KEYS));
  const problems: string[] = [];
  const stored = new Set<string>();
  for (const row of rows) {
    stored.add(row.key);
    const told = outcomes.recordedKeys.get(row.key);
    if (!told) problems.push(`${row.key}: recorded (${row.status}) but never answered 2xx`);
    else if (told.userId !== row.userId || told.status !== row.status) {
      problems.push(`${row.key}: recorded ${row.status} for user ${row.userId}`);
    }
  }
  for (const key of outcomes.recordedKeys.keys()) {
    if (!stored.has(key)) problems.push(`${key}: answered 2xx but not recorded`);
  }
  return {
    name: 'each successful write recorded under its key once, refusals not recorded',
    passed: problems.length === 0,
    detail: `${counted(rows.length, 'record')}${examples(problems)}`,
  };
}

async function cartCheck(db: Db, outcomes: Outcomes): Promise<Check> {
  const users = [...outcomes.carts.keys()].filter((id) => !outcomes.uncertainUsers.has(id));
  const rows =
    users.length === 0
      ? []
      : await db
          .select({
            userId: cartItems.userId,
            productId: cartItems.productId,
            quantity: cartItems.quantity,
          })
          .from(cartItems)
          .where(inArray(cartItems.userId, users));
  const stored = new Map<number, Map<number, number>>(users.map((id) => [id, new Map()]));
  for (const row of rows) stored.get(row.userId)?.set(row.productId, row.quantity);
  const problems: string[] = [];
  let lines = 0;
  for (const id of users) {
    const expected = outcomes.carts.get(id) ?? new Map<number, number>();
    const actual = stored.get(id) ?? new Map<number, number>();
    lines += expected.size;
    const same =
      expected.size === actual.size &&
      [...expected].every(([product, quantity]) => actual.get(product) === quantity);
    if (!same) {
      problems.push(
        `user ${id}: ${JSON.stringify([...actual])} stored, ${JSON.stringify([...expected])} expected`,
      );
    }
  }
  const mismatches = outcomes.cartMismatches;
  return {
    name: 'carts hold exactly the changes made, each once',
    passed: problems.length === 0 && mismatches.length === 0,
    detail: `${counted(users.length, 'cart')}, ${counted(lines, 'line')} left${
      outcomes.uncertainUsers.size > 0
        ? ` (${outcomes.uncertainUsers.size} left unchecked: a write never answered)`
        : ''
    }${examples([...mismatches, ...problems])}`,
  };
}

/** Each process writes the e-mail it sends into its own data folder (no SMTP_URL). */
async function mailCheck(db: Db, processes: ServerProcess[]): Promise<Check> {
  const writers = new Map<number, number>();
  for (const server of processes) {
    let files: string[] = [];
    try {
      files = readdirSync(join(server.dataDir, 'mail'));
    } catch {
      // this process sent nothing
    }
    for (const file of files) {
      const id = Number(/^(\d+)-/.exec(file)?.[1]);
      if (id) writers.set(id, (writers.get(id) ?? 0) + 1);
    }
  }
  const [sent] = await db
    .select({ n: sql<string>`count(*)` })
    .from(mailQueue)
    .where(isNotNull(mailQueue.sentAt));
  const twice = [...writers].filter(([, n]) => n > 1).map(([id]) => `message ${id}`);
  const [waiting] = await db
    .select({ n: sql<string>`count(*)` })
    .from(mailQueue)
    .where(sql`${mailQueue.sentAt} IS NULL`);
  return {
    name: 'each e-mail sent once, by one process',
    passed: twice.length === 0 && writers.size === Number(sent?.n ?? 0),
    detail: `${counted(writers.size, 'file')} for ${counted(Number(sent?.n ?? 0), 'message')} marked sent, ${count(Number(waiting?.n ?? 0))} still queued${examples(twice)}`,
  };
}

function serverLogCheck(processes: ServerProcess[]): Check {
  const lines = processes.flatMap((server) => server.errors);
  return {
    name: 'no errors in the processes’ logs',
    passed: lines.length === 0,
    detail: lines.length === 0 ? 'none' : examples(lines.map((line) => line.slice(0, 300))),
  };
}

export async function checkDatabase(
  db: Db,
  catalogue: Catalogue,
  outcomes: Outcomes,
  processes: ServerProcess[],
): Promise<Check[]> {
  return [
    ...(await stockChecks(db, catalogue, outcomes)),
    ...(await orderChecks(db, outcomes)),
    ...replayChecks(outcomes),
    await idempotencyCheck(db, outcomes),
    await cartCheck(db, outcomes),
    await mailCheck(db, processes),
    serverLogCheck(processes),
  ];
}
