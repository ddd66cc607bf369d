/**
 * Orders: checkout turns the cart into an order in one transaction (prices from the
 * catalogue at that moment, stock checked and taken under row locks, cart emptied);
 * a customer cancels only its company's orders, only while PENDING or CONFIRMED, and
 * the stock comes back. Staff handle orders in ./admin-orders.ts. Every change of status
 * is written to the order's history (./order-events.ts) in its transaction, and the
 * company's people who follow orders are e-mailed in it (./mail/queue.ts). Rows are
 * locked in the order of transactions.ts: products, then cart lines, then the order.
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  canCancel,
  MAX_LINE_QUANTITY,
  roundMoney,
  type Order,
  type ShippingAddress,
} from '../../src/contracts/orders.js';
import { trimmedAddress, validateShipping } from '../../src/contracts/form-schemas.js';
import type { Db } from '../db/database.js';
import { cartItems, orderItems, orders, products, users } from '../db/schema.js';
import type { Account } from './accounts.js';
import { lockCart, lockProducts, requireApproved, stockError } from './cart.js';
import { yearOf } from './dashboard.js';
import { HttpError, invalidFields, notFound } from './errors.js';
import { mailOrderFollowers } from './mail/queue.js';
import { recordOrderEvent } from './order-events.js';

export type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;
type ProductRow = typeof products.$inferSelect;

type Placer = NonNullable<Order['placedBy']>;

function toOrderDto(order: OrderRow, items: OrderItemRow[], rep: Placer | null): Order {
  const lines = items.map((item) => ({
    id: item.id,
    productId: item.productId,
    quantity: item.quantity,
    unitPrice: Number(item.unitPrice),
    totalPrice: Number(item.totalPrice),
    productName: item.productName,
    productSku: item.productSku,
    product: {
      id: item.productId,
      name: item.productName,
      sku: item.productSku,
      images: item.productImages,
    },
  }));
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    paymentStatus: order.paymentStatus,
    paymentMethod: 'BANK_TRANSFER',
    subtotal: Number(order.subtotal),
    total: Number(order.total),
    currency: 'EUR',
    notes: order.notes,
    clientReference: order.clientReference,
    shippingAddress: {
      firstName: order.shipFirstName,
      lastName: order.shipLastName,
      street: order.shipStreet,
      city: order.shipCity,
      zipCode: order.shipZipCode,
      country: order.shipCountry,
      phone: order.shipPhone,
    },
    orderItems: lines,
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    cancellationReason: order.cancellationReason,
    trackingNumber: order.trackingNumber,
    placedBy: rep,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

export async function withItems(db: Db, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(orderItems.id));
  const repIds = [...new Set(rows.flatMap((row) => row.placedByRepId ?? []))];
  const reps =
    repIds.length === 0
      ? []
      : await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(inArray(users.id, repIds));
  return rows.map((row) =>
    toOrderDto(
      row,
      items.filter((item) => item.orderId === row.id),
      reps.find((rep) => rep.id === row.placedByRepId) ?? null,
    ),
  );
}

export interface CheckoutRequest {
  shippingAddress: ShippingAddress;
  notes?: string | undefined;
  clientReference?: string | undefined;
  /** The lines the user confirmed, as its device showed them; the whole cart when absent. */
  items?: { productId: number; quantity: number }[] | undefined;
}

/** The address of an order, trimmed and checked (400 with each field's rule). */
export function shippingOf(input: ShippingAddress): ShippingAddress {
  const address = trimmedAddress(input);
  const errors = validateShipping(address);
  if (errors.length > 0) {
    throw invalidFields(errors.map((e) => ({ ...e, field: `shippingAddress.${e.field}` })));
  }
  return address;
}

/** An order about to be made: its lines' products are locked by the caller. */
export interface OrderDraft {
  companyId: number;
  /** The account that placed it: the salon's user, or the rep. */
  userId: number;
  placedByRep?: Placer;
  /** PENDING unless a rep orders for a customer staff have not verified yet. */
  status?: 'PENDING' | 'AWAITING_VERIFICATION';
  lines: { quantity: number; product: ProductRow }[];
  address: ShippingAddress;
  notes?: string | undefined;
  clientReference?: string | undefined;
}

/**
 * Makes an order of lines whose products the caller locked (steps 2 to 4 of `checkout`):
 * every line within the stock or nothing is ordered, prices are the catalogue's of this
 * moment, the stock is taken and the order's creation is in its history.
 */
export async function createOrder(db: Db, draft: OrderDraft): Promise<Order> {
  const short = draft.lines.filter((line) => line.quantity > line.product.stock);
  const [first] = short;
  if (short.length === 1 && first) throw stockError(first.product, first.quantity);
  if (short.length > 1) {
    const problems = short.map((line) => stockError(line.product, line.quantity));
    // The code and the products' names also at the top, for the client's language.
    const names = short.map((line) => line.product.name).join(', ');
    throw new HttpError(
      422,
      problems.map((p) => p.message).join(' '),
      problems.flatMap((p) => p.details ?? []),
      { code: 'STOCK_SHORT', params: { names } },
    );
  }

  const priced = draft.lines.map((line) => {
    const unitPrice = Number(line.product.price);
    return { ...line, unitPrice, totalPrice: roundMoney(unitPrice * line.quantity) };
  });
  const subtotal = roundMoney(priced.reduce((sum, p) => sum + p.totalPrice, 0));
  const [sequence] = await db
    .select({ n: sql<string>`nextval('order_number_seq')` })
    .from(sql`(SELECT 1) AS one`);
  const orderNumber = `FP-${yearOf(new Date())}-${String(sequence?.n ?? '0').padStart(6, '0')}`;
  const { address } = draft;
  const [order] = await db
    .insert(orders)
    .values({
      orderNumber,
      companyId: draft.companyId,
      userId: draft.userId,
      placedByRepId: draft.placedByRep?.id ?? null,
      status: draft.status ?? 'PENDING',
      subtotal: subtotal.toFixed(2),
      total: subtotal.toFixed(2),
      notes: draft.notes?.trim() ?? '',
      clientReference: draft.clientReference ?? '',
      shipFirstName: address.firstName,
      shipLastName: address.lastName,
      shipStreet: address.street,
      shipCity: address.city,
      shipZipCode: address.zipCode,
      shipCountry: address.country,
      shipPhone: address.phone,
    })
    .returning();
  if (!order) throw new Error('The order could not be created');
  const items = await db
    .insert(orderItems)
    .values(
      priced.map(({ product, quantity, unitPrice, totalPrice }) => ({
        orderId: order.id,
        productId: product.id,
        productName: product.name,
        productSku: product.sku,
        productImages: product.images,
        quantity,
        unitPrice: unitPrice.toFixed(2),
        totalPrice: totalPrice.toFixed(2),
      })),
    )
    .returning();
  await recordOrderEvent(db, {
    orderId: order.id,
    kind: 'status',
    from: null,
    to: order.status,
    by: draft.placedByRep ? { rep: draft.placedByRep } : { salonUserId: draft.userId },
  });
  for (const { product, quantity } of priced) {
    await db
      .update(products)
      .set({ stock: sql`${products.stock} - ${quantity}`, updatedAt: new Date() })
      .where(eq(products.id, product.id));
  }
  const rep = draft.placedByRep;
  await mailOrderFollowers(db, draft.companyId, {
    kind: 'order-received',
    data: {
      orderNumber,
      total: order.total,
      ...(rep ? { placedByRep: `${rep.firstName} ${rep.lastName}`.trim() } : {}),
      ...(order.status === 'AWAITING_VERIFICATION' ? { awaitingVerification: true } : {}),
    },
  });
  return toOrderDto(order, items, rep ?? null);
}

/**
 * `POST /api/cart/checkout`: the cart becomes an order.
 *
 * 1. The cart's products (and any other the checkout names), then its lines, locked
 *    (cart.ts, lockCart).
 * 2. What is ordered: with `items`, the lines the user confirmed on its device, at the
 *    quantities it saw, whatever another device of the same user did to the cart since
 *    (docs/product.md#one-user-on-two-devices); without, every line of the cart. A product
 *    named twice is one line of both quantities; an unknown one is 404, as for a cart.
 * 3. Every line within the stock, or nothing is ordered (`createOrder`, as the rest), at
 *    the catalogue's prices of this moment.
 * 4. The stock taken, and what was ordered taken out of the cart: a line keeps what was
 *    not ordered of it, and a line the checkout did not name (added meanwhile, here or on
 *    another device) stays.
 */
export async function checkout(db: Db, account: Account, request: CheckoutRequest): Promise<Order> {
  requireApproved(account);
  const address = shippingOf(request.shippingAddress);
  const { items } = request;
  const { lines, productOf } = await lockCart(
    db,
    account.user.id,
    (items ?? []).map((item) => item.productId),
  );
  const ordered = items
    ? namedLines(items, productOf)
    : lines.map(({ line, product }) => ({ quantity: line.quantity, product }));
  if (ordered.length === 0)
    throw new HttpError(400, 'Your cart is empty', undefined, { code: 'CART_EMPTY' });
  const order = await createOrder(db, {
    companyId: account.company?.id as number,
    userId: account.user.id,
    lines: ordered,
    address,
    notes: request.notes,
    clientReference: request.clientReference,
  });
  const orderedOf = new Map(ordered.map(({ product, quantity }) => [product.id, quantity]));
  for (const { line } of lines) {
    const taken = orderedOf.get(line.productId) ?? 0;
    if (taken === 0) continue;
    const where = and(eq(cartItems.userId, line.userId), eq(cartItems.productId, line.productId));
    if (taken >= line.quantity) await db.delete(cartItems).where(where);
    else
      await db
        .update(cartItems)
        .set({ quantity: line.quantity - taken })
        .where(where);
  }
  return order;
}

/**
 * The lines an order names, a product named twice being one line of both quantities: each
 * with its product as the caller locked it (404 for one not found), each within the most
 * a line may hold (400).
 */
export function namedLines(
  items: readonly { productId: number; quantity: number }[],
  productOf: ReadonlyMap<number, ProductRow>,
): { quantity: number; product: ProductRow }[] {
  const wanted = new Map<number, number>();
  for (const item of items) {
    wanted.set(item.productId, (wanted.get(item.productId) ?? 0) + item.quantity);
  }
  return [...wanted].map(([productId, quantity]) => {
    const product = productOf.get(productId);
    if (!product) throw notFound('Product not found', 'PRODUCT_NOT_FOUND');
    if (quantity > MAX_LINE_QUANTITY) {
      const message = `At most ${MAX_LINE_QUANTITY} of ${product.name} in one order.`;
      throw new HttpError(400, message, [{ field: `product:${productId}`, message }]);
    }
    return { quantity, product };
  });
}

function companyOf(account: Account): number {
  if (!account.company) throw notFound('No company is linked to this account');
  return account.company.id;
}

export async function listOrders(db: Db, account: Account): Promise<Order[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.companyId, companyOf(account)))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return withItems(db, rows);
}

export async function getOrder(db: Db, account: Account, id: number): Promise<Order> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.companyId, companyOf(account))));
  if (!row) throw notFound('Order not found');
  const [order] = await withItems(db, [row]);
  return order as Order;
}

/**
 * Cancels one of the company's orders and gives its stock back, locking in the lock order:
 *
 * 1. Read the order and its lines, without a lock (an order's lines never change).
 * 2. Lock the lines' products, by id.
 * 3. Lock the order, and only now decide whether it may be cancelled.
 * 4. Mark it cancelled and put its quantities back into stock.
 */
export async function cancelOrder(
  db: Db,
  account: Account,
  id: number,
  reason: string,
): Promise<Order> {
  const mine = and(eq(orders.id, id), eq(orders.companyId, companyOf(account)));
  const [found] = await db.select({ id: orders.id }).from(orders).where(mine);
  if (!found) throw notFound('Order not found');
  const items = await lockOrderProducts(db, id);

  const [row] = await db.select().from(orders).where(mine).for('update');
  if (!row) throw notFound('Order not found');
  if (!canCancel(row.status)) {
    throw new HttpError(
      409,
      `Order ${row.orderNumber} is ${row.status.toLowerCase()} and can no longer be cancelled.`,
      undefined,
      { code: 'ORDER_NOT_CANCELLABLE', params: { orderNumber: row.orderNumber } },
    );
  }
  const now = new Date();
  const [updated] = await db
    .update(orders)
    .set({
      status: 'CANCELLED',
      cancellationReason: reason.trim(),
      cancelledAt: now,
      updatedAt: now,
    })
    .where(eq(orders.id, id))
    .returning();
  await putBackStock(db, items);
  await recordOrderEvent(db, {
    orderId: id,
    kind: 'status',
    from: row.status,
    to: 'CANCELLED',
    by: { salonUserId: account.user.id },
    note: reason.trim(),
  });
  await mailOrderFollowers(db, row.companyId, {
    kind: 'order-cancelled',
    data: { orderNumber: row.orderNumber, reason: reason.trim() || null },
  });
  const [order] = await withItems(db, [updated ?? row]);
  return order as Order;
}

/**
 * Steps 1 and 2 of a cancellation (by the salon or by staff): the order's lines, read
 * without a lock (an order's lines never change), and their products locked by id.
 */
export const lockOrderProducts = (db: Db, orderId: number): Promise<OrderItemRow[]> =>
  lockOrdersProducts(db, [orderId]);

/** The same for several orders at once: the products of all their lines locked in one go, by id. */
export async function lockOrdersProducts(db: Db, orderIds: number[]): Promise<OrderItemRow[]> {
  if (orderIds.length === 0) return [];
  const items = await db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.productId));
  const productIds = items.flatMap((item) => (item.productId === null ? [] : [item.productId]));
  await lockProducts(db, [...new Set(productIds)]);
  return items;
}

/** The last step of a cancellation: the lines' quantities back into stock. */
export async function putBackStock(db: Db, items: OrderItemRow[]): Promise<void> {
  for (const item of items) {
    if (item.productId === null) continue;
    await db
      .update(products)
      .set({ stock: sql`${products.stock} + ${item.quantity}`, updatedAt: new Date() })
      .where(eq(products.id, item.productId));
  }
}
