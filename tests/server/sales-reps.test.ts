/**
 * Sales reps: staff make them on the People page and assign each company at most one
 * (PUT /api/admin/companies/{id}/sales-rep, in the audit log); a rep reads its own
 * customers through /api/rep and nothing else: another rep's customer, a company with no
 * rep and one that does not exist all answer the same 404, and the other roles get 403.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { seedDatabase } from '../../server/db/seed';
import {
  auditLog,
  boothDetails,
  companies,
  companyDocuments,
  orderEvents,
  orders as ordersTable,
  orderSignatures,
  products,
  taxNumberKey,
  users,
} from '../../server/db/schema';
import { runAdminCommand } from '../../server/scripts/admin-commands';
import type { CompanyDocument } from '../../src/contracts/accounts';
import type {
  AdminCompanyDetail,
  AdminCompanyPage,
  AdminSummary,
  AuditPage,
  SalesRepAssigned,
  StaffCreated,
  StaffList,
} from '../../src/contracts/admin-schemas';
import type { AdminOrderDetail, AdminOrderPage } from '../../src/contracts/admin-orders-schemas';
import type { ErrorBody } from '../../src/contracts/error-schema';
import type { Order } from '../../src/contracts/orders';
import type {
  RepCustomer,
  RepCustomerList,
  RepOrderList,
} from '../../src/contracts/field-sales-schemas';
import { MAX_REP_ORDERS, REP_ORDERS_MAX_DAYS } from '../../src/contracts/field-sales';
import { order, orderRow, salon, staffMember, type Salon, type Staff } from './factories';
import { ADDRESS, bearer, multipart, PDF, PNG, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Staff;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database });
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  staff = await staffMember(app, testDb.database.db, 'reps.staff@example.com');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

const get = (url: string, tokens: Tokens = staff.tokens) =>
  app.inject({ url, headers: bearer(tokens) });

const send = (
  method: 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload: object,
  tokens = staff.tokens,
  key: string = randomUUID(),
) =>
  app.inject({
    method,
    url,
    payload,
    headers: { ...bearer(tokens), 'idempotency-key': key },
  });

interface Rep {
  id: number;
  email: string;
  tokens: Tokens;
}

/** A sales rep made on the People page, signed in with its temporary password. */
async function addRep(firstName = 'Victor'): Promise<Rep> {
  const email = `rep.${randomUUID()}@example.com`;
  const response = await send('POST', '/api/admin/staff', {
    firstName,
    lastName: 'Pop',
    email,
    role: 'SALES_REP',
  });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<StaffCreated>();
  expect(created.member.role).toBe('SALES_REP');
  return {
    id: created.member.id,
    email,
    tokens: await signIn(app, email, created.temporaryPassword ?? ''),
  };
}

const assign = (companyId: number, salesRepId: number | null, tokens = staff.tokens) =>
  send('PUT', `/api/admin/companies/${companyId}/sales-rep`, { salesRepId }, tokens);

async function customersOf(rep: Rep): Promise<RepCustomer[]> {
  const response = await get('/api/rep/customers', rep.tokens);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<RepCustomerList>().customers;
}

/** The first `count` products on sale (after `offset`), by id. */
const activeProducts = (count: number, offset = 0) =>
  db()
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.id))
    .limit(count)
    .offset(offset);

const stockOf = async (id: number) =>
  (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]
    ?.stock;

describe('sales rep accounts', () => {
  it('are made on the People page and listed with their role, staff being ADMIN by default', async () => {
    const rep = await addRep();
    const list = (await get('/api/admin/staff')).json<StaffList>().staff;
    expect(list.find((member) => member.id === rep.id)?.role).toBe('SALES_REP');
    expect(list.find((member) => member.id === staff.id)?.role).toBe('ADMIN');
    const plain = await send('POST', '/api/admin/staff', {
      firstName: 'Ana',
      lastName: 'Dinu',
      email: `plain.${randomUUID()}@example.com`,
    });
    expect(plain.json<StaffCreated>().member.role).toBe('ADMIN');
  });

  it('refuses a role that is not the maker’s (400), and a salon account never becomes one', async () => {
    const response = await send('POST', '/api/admin/staff', {
      firstName: 'Ana',
      lastName: 'Dinu',
      email: `user.${randomUUID()}@example.com`,
      role: 'USER',
    });
    expect(response.statusCode).toBe(400);
    const customer = await salon(db());
    const [row] = await db().select().from(users).where(eq(users.id, customer.userId));
    const taken = await send('POST', '/api/admin/staff', {
      firstName: 'Ana',
      lastName: 'Dinu',
      email: row?.email ?? '',
      role: 'SALES_REP',
    });
    expect(taken.statusCode).toBe(409);
    const [after] = await db().select().from(users).where(eq(users.id, customer.userId));
    expect(after?.role).toBe('USER');
  });

  it('see the catalogue’s prices, as the customers they quote them to', async () => {
    const rep = await addRep();
    const seen = await get('/api/products?limit=3', rep.tokens);
    const prices = seen.json<{ products: { price?: number }[] }>().products.map((p) => p.price);
    expect(prices).toHaveLength(3);
    for (const price of prices) expect(price).toBeGreaterThan(0);
    const mirror = await get('/api/products/mirror', rep.tokens);
    expect(mirror.body.split('\n')[1]).toMatch(/"price":\d/);
    const visitor = await app.inject({ url: '/api/products?limit=3' });
    expect(visitor.body).not.toMatch(/"price"/);
  });

  it('cannot open the back office', async () => {
    const rep = await addRep();
    expect((await get('/api/admin/summary', rep.tokens)).statusCode).toBe(403);
    expect((await get('/api/admin/companies', rep.tokens)).statusCode).toBe(403);
    const customer = await salon(db());
    expect((await assign(customer.companyId, rep.id, rep.tokens)).statusCode).toBe(403);
  });

  it('can be deactivated even when no other rep is left, unlike the last staff member', async () => {
    const rep = await addRep();
    const response = await send('POST', `/api/admin/staff/${rep.id}/deactivate`, {});
    expect(response.statusCode, response.body).toBe(200);
    expect((await get('/api/rep/customers', rep.tokens)).statusCode).toBe(401);
  });
});

describe('PUT /api/admin/companies/{id}/sales-rep', () => {
  it('assigns a rep, shown on the company page and in its history, and takes it away', async () => {
    const rep = await addRep('Marius');
    const customer = await salon(db());
    const assigned = await assign(customer.companyId, rep.id);
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json<SalesRepAssigned>().salesRep).toEqual({
      id: rep.id,
      email: rep.email,
      firstName: 'Marius',
      lastName: 'Pop',
      active: true,
    });
    const detail = (
      await get(`/api/admin/companies/${customer.companyId}`)
    ).json<AdminCompanyDetail>();
    expect(detail.salesRep?.id).toBe(rep.id);
    expect(detail.history[0]).toMatchObject({
      action: 'company.assign-rep',
      before: { salesRepId: null, salesRep: null },
      after: { salesRepId: rep.id, salesRep: `Marius Pop <${rep.email}>` },
    });

    const removed = await assign(customer.companyId, null);
    expect(removed.json<SalesRepAssigned>().salesRep).toBeNull();
    const after = (
      await get(`/api/admin/companies/${customer.companyId}`)
    ).json<AdminCompanyDetail>();
    expect(after.salesRep).toBeNull();
    expect(await customersOf(rep)).toEqual([]);
  });

  it('gives a company at most one rep: a new one replaces the old', async () => {
    const [first, second] = [await addRep(), await addRep()];
    const customer = await salon(db());
    await assign(customer.companyId, first.id);
    await assign(customer.companyId, second.id);
    expect((await customersOf(first)).map((c) => c.id)).not.toContain(customer.companyId);
    expect((await customersOf(second)).map((c) => c.id)).toContain(customer.companyId);
  });

  it('records nothing when the rep chosen is the one the company has', async () => {
    const rep = await addRep();
    const customer = await salon(db());
    await assign(customer.companyId, rep.id);
    await assign(customer.companyId, rep.id);
    const log = await get(
      `/api/admin/audit?entityType=company&entityId=${customer.companyId}&action=company.assign-rep`,
    );
    expect(log.json<AuditPage>().entries).toHaveLength(1);
  });

  it('refuses anyone but an active rep on the field salesRepId (400), and an unknown company (404)', async () => {
    const customer = await salon(db());
    const inactive = await addRep();
    await send('POST', `/api/admin/staff/${inactive.id}/deactivate`, {});
    for (const salesRepId of [staff.id, customer.userId, inactive.id, 999_999]) {
      const response = await assign(customer.companyId, salesRepId);
      expect(response.statusCode, String(salesRepId)).toBe(400);
      expect(response.json<ErrorBody>().details).toEqual([
        { field: 'salesRepId', code: 'salesRepUnknown', message: 'Choose an active sales rep.' },
      ]);
    }
    const [row] = await db()
      .select({ salesRepId: companies.salesRepId })
      .from(companies)
      .where(eq(companies.id, customer.companyId));
    expect(row?.salesRepId).toBeNull();
    const rep = await addRep();
    expect((await assign(999_999, rep.id)).statusCode).toBe(404);
    expect((await assign(customer.companyId, 'x' as unknown as number)).statusCode).toBe(400);
  });

  it('keeps a deactivated rep named on its companies until staff choose another', async () => {
    const rep = await addRep();
    const customer = await salon(db());
    await assign(customer.companyId, rep.id);
    await send('POST', `/api/admin/staff/${rep.id}/deactivate`, {});
    const detail = (
      await get(`/api/admin/companies/${customer.companyId}`)
    ).json<AdminCompanyDetail>();
    expect(detail.salesRep).toMatchObject({ id: rep.id, active: false });
  });
});

describe('GET /api/rep/customers', () => {
  let rep: Rep;
  let other: Rep;
  let mine: Salon;
  let theirs: Salon;
  let unassigned: Salon;

  beforeAll(async () => {
    [rep, other] = [await addRep('Dan'), await addRep('Sorin')];
    mine = await salon(db(), {
      name: 'Atelier Bella',
      status: 'APPROVED',
      city: 'Cluj-Napoca',
      address: 'Strada Memorandumului 4',
      postalCode: '400114',
      phone: '+40 264 000 000',
      email: 'office@bella.example',
    });
    theirs = await salon(db(), { name: 'Studio Lux' });
    unassigned = await salon(db(), { name: 'Salon Fără Rep' });
    await assign(mine.companyId, rep.id);
    await assign(theirs.companyId, other.id);
  });

  it('lists the rep’s customers with their address, contacts, last order and open orders', async () => {
    await order(db(), mine, { createdAt: new Date('2026-10-01T09:00:00Z') });
    await order(db(), mine, {
      status: 'DELIVERED',
      createdAt: new Date('2026-11-02T10:30:00Z'),
    });
    await order(db(), mine, { status: 'CANCELLED', createdAt: new Date('2026-09-01T10:00:00Z') });
    const [user] = await db().select().from(users).where(eq(users.id, mine.userId));
    expect(await customersOf(rep)).toEqual([
      {
        id: mine.companyId,
        name: 'Atelier Bella',
        status: 'APPROVED',
        taxNumber: '',
        registrationNumber: '',
        email: 'office@bella.example',
        phone: '+40 264 000 000',
        address: 'Strada Memorandumului 4',
        city: 'Cluj-Napoca',
        state: '',
        postalCode: '400114',
        country: 'Romania',
        website: '',
        contacts: [
          { id: mine.userId, firstName: 'Ana', lastName: 'Ionescu', email: user?.email ?? '' },
        ],
        lastOrderAt: '2026-11-02T10:30:00.000Z',
        openOrders: 1,
      },
    ]);
  });

  it('answers one customer of the rep, and 404 alike for another rep’s, an unassigned or a missing company', async () => {
    const own = await get(`/api/rep/customers/${mine.companyId}`, rep.tokens);
    expect(own.statusCode).toBe(200);
    expect(own.json<{ customer: RepCustomer }>().customer.name).toBe('Atelier Bella');
    const refusals = await Promise.all(
      [theirs.companyId, unassigned.companyId, 999_999].map((id) =>
        get(`/api/rep/customers/${id}`, rep.tokens),
      ),
    );
    expect(refusals.map((response) => response.statusCode)).toEqual([404, 404, 404]);
    expect(new Set(refusals.map((response) => response.body)).size).toBe(1);
  });

  it('is for reps only: 403 for a salon and for staff, 401 for a visitor', async () => {
    expect((await get('/api/rep/customers', mine.tokens)).statusCode).toBe(403);
    expect((await get(`/api/rep/customers/${mine.companyId}`, mine.tokens)).statusCode).toBe(403);
    expect((await get('/api/rep/customers')).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/rep/customers' })).statusCode).toBe(401);
  });
});

describe('POST /api/rep/customers/{id}/orders', () => {
  let rep: Rep;
  let customer: Salon;
  const { firstName, lastName, street, city, zipCode, country, phone } = ADDRESS;
  const shippingAddress = { firstName, lastName, street, city, zipCode, country, phone };

  beforeAll(async () => {
    rep = await addRep('Radu');
    customer = await salon(db(), { status: 'APPROVED', isVerified: true });
    await assign(customer.companyId, rep.id);
  });

  /** Two products of the catalogue, with this much stock each. */
  async function stocked(stock = 20) {
    const rows = await activeProducts(2);
    for (const row of rows) {
      await db().update(products).set({ stock }).where(eq(products.id, row.id));
    }
    return rows.map((row) => ({ id: row.id, price: Number(row.price) }));
  }

  const place = (body: object, companyId = customer.companyId, tokens = rep.tokens, key?: string) =>
    send('POST', `/api/rep/customers/${companyId}/orders`, body, tokens, key);

  it('places the order for the customer at the catalogue’s prices, named as the rep’s, signed', async () => {
    const [a, b] = await stocked();
    const signature = PNG.toString('base64');
    const response = await place({
      items: [
        { productId: a!.id, quantity: 2 },
        { productId: b!.id, quantity: 1 },
        { productId: a!.id, quantity: 1 },
      ],
      shippingAddress,
      notes: 'Livrare marți',
      clientReference: 'rep-device-1',
      signature,
    });
    expect(response.statusCode, response.body).toBe(201);
    const order = response.json<{ order: Order }>().order;
    expect(order.orderItems.map((item) => [item.productId, item.quantity])).toEqual([
      [a!.id, 3],
      [b!.id, 1],
    ]);
    expect(order.total).toBeCloseTo(a!.price * 3 + b!.price, 2);
    expect(order).toMatchObject({
      status: 'PENDING',
      notes: 'Livrare marți',
      clientReference: 'rep-device-1',
      placedBy: { id: rep.id, firstName: 'Radu', lastName: 'Pop' },
    });
    expect(await stockOf(a!.id)).toBe(17);

    // The salon sees it among its orders, placed by its rep, and the signature it gave.
    const mine = (await get('/api/orders', customer.tokens)).json<{ orders: Order[] }>().orders;
    expect(mine.find((o) => o.id === order.id)?.placedBy).toMatchObject({ firstName: 'Radu' });
    for (const tokens of [customer.tokens, rep.tokens, staff.tokens]) {
      const picture = await get(`/api/orders/${order.id}/signature`, tokens);
      expect(picture.statusCode).toBe(200);
      expect(picture.headers['content-type']).toBe('image/png');
      expect(picture.rawPayload.equals(PNG)).toBe(true);
    }
    const [event] = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(event).toMatchObject({ actor: 'rep', actorId: rep.id, actorName: 'Radu Pop' });
    const listed = await get(`/api/rep/customers/${customer.companyId}/orders`, rep.tokens);
    expect(listed.json<{ orders: Order[] }>().orders[0]?.id).toBe(order.id);
    const [summary] = (await customersOf(rep)).filter((c) => c.id === customer.companyId);
    expect(summary?.openOrders).toBeGreaterThanOrEqual(1);
  });

  it('places one order for one Idempotency-Key, however often the device sends it', async () => {
    const [a] = await stocked();
    const key = randomUUID();
    const body = { items: [{ productId: a!.id, quantity: 4 }], shippingAddress };
    const first = await place(body, customer.companyId, rep.tokens, key);
    const again = await place(body, customer.companyId, rep.tokens, key);
    expect(again.statusCode).toBe(201);
    expect(again.json<{ order: Order }>().order.id).toBe(first.json<{ order: Order }>().order.id);
    expect(await stockOf(a!.id)).toBe(16);
  });

  it('orders nothing when a line is over the stock (422), and takes no stock', async () => {
    const [a, b] = await stocked(3);
    const response = await place({
      items: [
        { productId: a!.id, quantity: 2 },
        { productId: b!.id, quantity: 5 },
      ],
      shippingAddress,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<ErrorBody>().details).toEqual([
      expect.objectContaining({ field: `product:${b!.id}`, code: 'insufficientStock' }),
    ]);
    expect([await stockOf(a!.id), await stockOf(b!.id)]).toEqual([3, 3]);
  });

  it('refuses another rep’s customer and an unassigned company alike (404), and a salon (403)', async () => {
    const [a] = await stocked();
    const body = { items: [{ productId: a!.id, quantity: 1 }], shippingAddress };
    const other = await salon(db(), { status: 'APPROVED', isVerified: true });
    await assign(other.companyId, (await addRep()).id);
    const unassigned = await salon(db(), { status: 'APPROVED', isVerified: true });
    for (const companyId of [other.companyId, unassigned.companyId, 999_999]) {
      const response = await place(body, companyId);
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorBody>().message).toBe('Customer not found');
    }
    expect((await place(body, customer.companyId, customer.tokens)).statusCode).toBe(403);
    expect((await place(body, customer.companyId, staff.tokens)).statusCode).toBe(403);
    expect(await stockOf(a!.id)).toBe(20);
  });

  it('refuses a customer staff rejected (409 CUSTOMER_NOT_APPROVED)', async () => {
    const [a] = await stocked();
    const rejected = await salon(db(), { status: 'REJECTED' });
    await assign(rejected.companyId, rep.id);
    const response = await place(
      { items: [{ productId: a!.id, quantity: 1 }], shippingAddress },
      rejected.companyId,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CUSTOMER_NOT_APPROVED' });
  });

  it('refuses a signature that is no PNG, an empty order, a bad address and an unknown product', async () => {
    const [a] = await stocked();
    const line = { productId: a!.id, quantity: 1 };
    const notPng = await place({
      items: [line],
      shippingAddress,
      signature: Buffer.from('<svg onload="alert(1)"/>').toString('base64'),
    });
    expect(notPng.statusCode).toBe(400);
    expect(notPng.json<ErrorBody>().details).toEqual([
      expect.objectContaining({ field: 'signature', code: 'signatureInvalid' }),
    ]);
    expect((await place({ items: [], shippingAddress })).statusCode).toBe(400);
    const noCity = await place({
      items: [line],
      shippingAddress: { ...shippingAddress, city: ' ' },
    });
    expect(noCity.statusCode).toBe(400);
    expect(noCity.json<ErrorBody>().details?.[0]?.field).toBe('shippingAddress.city');
    const unknown = await place({ items: [{ productId: 999_999, quantity: 1 }], shippingAddress });
    expect(unknown.statusCode).toBe(404);
    expect(await stockOf(a!.id)).toBe(20);
    expect(await db().select().from(orderSignatures)).toHaveLength(1);
  });

  it('shows a signature to no one outside the order: another salon, another rep', async () => {
    const [a] = await stocked();
    const placed = await place({
      items: [{ productId: a!.id, quantity: 1 }],
      shippingAddress,
      signature: PNG.toString('base64'),
    });
    const id = placed.json<{ order: Order }>().order.id;
    const strangers = [
      (await salon(db(), { status: 'APPROVED', isVerified: true })).tokens,
      (await addRep()).tokens,
    ];
    for (const tokens of strangers) {
      expect((await get(`/api/orders/${id}/signature`, tokens)).statusCode).toBe(404);
    }
    expect((await app.inject({ url: `/api/orders/${id}/signature` })).statusCode).toBe(401);
  });
});

describe('an order a rep took offline, replayed by the device', () => {
  it('reaches the server once, with its signature, though the first response was lost', async () => {
    const { createPortalDb } = await import('../../src/lib/db/db');
    const { replayOutbox, localOrderRef } = await import('../../src/lib/sync/outbox-replay');
    const { createTransport } = await import('../../src/lib/sync/transport');
    const device = createPortalDb(`rep-replay-${randomUUID()}`);
    const rep = await addRep('Ilie');
    const customer = await salon(db(), { status: 'APPROVED', isVerified: true });
    await assign(customer.companyId, rep.id);
    const [product] = await activeProducts(1);
    const signature = PNG.toString('base64');
    const { firstName, lastName, street, city, zipCode, country, phone } = ADDRESS;
    const shippingAddress = { firstName, lastName, street, city, zipCode, country, phone };
    await device.outbox.add({
      userId: rep.id,
      kind: 'rep.order',
      payload: {
        kind: 'rep.order',
        customerId: customer.companyId,
        items: [{ productId: product!.id, quantity: 2 }],
        shippingAddress,
        notes: 'Taken at the fair',
        localRef: 'L-FAIR1',
        signature,
      },
      idempotencyKey: randomUUID(),
      createdAt: new Date().toISOString(),
      attempts: 0,
      nextAttemptAt: 0,
      state: 'waiting',
    });
    await device.orders.put({
      ref: localOrderRef('L-FAIR1'),
      userId: rep.id,
      state: 'waiting',
      createdAt: new Date().toISOString(),
      // As the rep's tablet priced it, from a catalogue kept before a price change.
      order: {
        orderItems: [
          { productId: product!.id, productName: 'Kept name', quantity: 2, unitPrice: 0.5 },
        ],
      } as Order,
      localRef: 'L-FAIR1',
      customerId: customer.companyId,
      signature,
    });

    // The device's own transport, reaching this server; the first response is lost on the
    // way back, after the server has placed the order.
    let lost = 0;
    const fetchThroughApp: typeof fetch = async (input, init) => {
      const response = await app.inject({
        method: init?.method as 'POST',
        url: input as string,
        headers: init?.headers as Record<string, string>,
        payload: (init?.body as string | null) ?? '',
      });
      if (lost++ === 0) throw new TypeError('Failed to fetch');
      return new Response(new Uint8Array(response.rawPayload), {
        status: response.statusCode,
        headers: { 'content-type': String(response.headers['content-type'] ?? '') },
      });
    };
    const transport = createTransport(
      { accessToken: () => rep.tokens.accessToken, renew: () => Promise.resolve(null) },
      { fetch: fetchThroughApp },
    );
    let clock = Date.now();
    const replay = () =>
      replayOutbox({ db: device, transport, currentUserId: () => rep.id, now: () => clock });
    const first = await replay();
    expect(first).toMatchObject({ done: 0, requests: 1 });
    clock += 120_000;
    const second = await replay();
    expect(second).toMatchObject({ done: 1, requests: 1 });

    const orders = (await get(`/api/rep/customers/${customer.companyId}/orders`, rep.tokens)).json<{
      orders: Order[];
    }>().orders;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      clientReference: 'L-FAIR1',
      notes: 'Taken at the fair',
      placedBy: { id: rep.id },
    });
    const picture = await get(`/api/orders/${orders[0]!.id}/signature`, rep.tokens);
    expect(picture.rawPayload.equals(PNG)).toBe(true);
    // The device now holds the server's order, still bound to the customer and signed.
    expect(await device.outbox.count()).toBe(0);
    expect(await device.orders.get(localOrderRef('L-FAIR1'))).toBeUndefined();
    expect(await device.orders.get(`order:${orders[0]!.id}`)).toMatchObject({
      state: 'synced',
      localRef: 'L-FAIR1',
      customerId: customer.companyId,
      signature,
      changes: [
        {
          productName: 'Kept name',
          kind: 'price',
          before: 0.5,
          after: orders[0]!.orderItems[0]!.unitPrice,
        },
      ],
    });
    await device.delete();
  });
});
/** A salon at the booth, as the rep types it: the form of POST /api/rep/customers. */
function boothSalon(overrides: Record<string, string> = {}) {
  return {
    companyName: 'Salon Orhideea',
    taxNumber: `RO${randomUUID().replace(/\D/g, '').slice(0, 10)}`,
    registrationNumber: 'J12/3456/2024',
    companyEmail: 'Contact@Orhideea.example ',
    companyPhone: '+40 264 111 222',
    address: 'Strada Republicii 7',
    city: 'Cluj-Napoca',
    postalCode: '400015',
    country: 'Romania',
    website: 'orhideea.example',
    ...overrides,
  };
}

type Registered = { message: string; customer: RepCustomer };

const registerAtBooth = (rep: Rep, body: object, key?: string) =>
  send('POST', '/api/rep/customers', body, rep.tokens, key);

/** The companies whose tax number is this one, however it is spelled. */
const companiesTaxed = (taxNumber: string) =>
  db()
    .select()
    .from(companies)
    .where(sql`${taxNumberKey(companies.taxNumber)} = ${taxNumberKey(taxNumber)}`);

describe('POST /api/rep/customers', () => {
  it('registers a salon at the booth: PENDING, the rep’s customer, registered by it, with no account', async () => {
    const rep = await addRep('Cornel');
    const form = boothSalon();
    const response = await registerAtBooth(rep, form);
    expect(response.statusCode, response.body).toBe(201);
    const { message, customer } = response.json<Registered>();
    expect(message).toBe('Salon Orhideea is registered and waits for verification.');
    expect(customer).toEqual({
      id: expect.any(Number) as number,
      name: 'Salon Orhideea',
      status: 'PENDING',
      taxNumber: form.taxNumber,
      registrationNumber: 'J12/3456/2024',
      email: 'contact@orhideea.example',
      phone: '+40 264 111 222',
      address: 'Strada Republicii 7',
      city: 'Cluj-Napoca',
      state: '',
      postalCode: '400015',
      country: 'Romania',
      website: 'orhideea.example',
      contacts: [],
      lastOrderAt: null,
      openOrders: 0,
    });
    const [row] = await db().select().from(companies).where(eq(companies.id, customer.id));
    expect(row).toMatchObject({
      status: 'PENDING',
      isVerified: false,
      registrationNumber: 'J12/3456/2024',
      website: 'orhideea.example',
      salesRepId: rep.id,
      registeredByRepId: rep.id,
    });
    expect(await db().select().from(users).where(eq(users.companyId, customer.id))).toEqual([]);
    expect((await customersOf(rep)).map((c) => c.id)).toEqual([customer.id]);

    // Staff see who registered it, on its page and in the list.
    const detail = (await get(`/api/admin/companies/${customer.id}`)).json<AdminCompanyDetail>();
    expect(detail.registeredBy).toEqual({
      id: rep.id,
      firstName: 'Cornel',
      lastName: 'Pop',
    });
    expect(detail.salesRep?.id).toBe(rep.id);
    const listed = (
      await get(`/api/admin/companies?search=${encodeURIComponent(form.taxNumber)}`)
    ).json<AdminCompanyPage>().companies;
    expect(listed.map((c) => [c.id, c.registeredBy])).toEqual([
      [customer.id, { id: rep.id, firstName: 'Cornel', lastName: 'Pop' }],
    ]);
    const self = await salon(db());
    const own = (await get(`/api/admin/companies/${self.companyId}`)).json<AdminCompanyDetail>();
    expect(own.registeredBy).toBeNull();
  });

  it('checks the form’s rules: 400 with a code for each field, and registers nothing', async () => {
    const rep = await addRep();
    const form = boothSalon({
      companyName: '  ',
      registrationNumber: '',
      companyEmail: 'not-an-address',
      companyPhone: 'call me',
      country: 'Atlantis',
      website: 'not a site',
    });
    const response = await registerAtBooth(rep, form);
    expect(response.statusCode).toBe(400);
    const body = response.json<ErrorBody>();
    expect(body.message).toBe('Please review the highlighted fields and try again.');
    expect(body.details?.map(({ field, code }) => [field, code])).toEqual([
      ['companyName', 'companyRequired'],
      ['registrationNumber', 'registrationNumberRequired'],
      ['companyEmail', 'emailFormat'],
      ['companyPhone', 'phoneInvalid'],
      ['country', 'countryInvalid'],
      ['website', 'websiteInvalid'],
    ]);
    expect(await companiesTaxed(form.taxNumber)).toEqual([]);
    // A body of another shape is malformed, before any rule (400).
    const { website: _website, ...withoutWebsite } = form;
    expect((await registerAtBooth(rep, { ...withoutWebsite, state: 'Cluj' })).statusCode).toBe(400);
    expect((await registerAtBooth(rep, { ...form, taxNumber: 12 })).statusCode).toBe(400);
  });

  it('answers the rep’s own salon again (200) for its tax number in any spelling, never a second', async () => {
    const rep = await addRep();
    const digits = randomUUID().replace(/\D/g, '').slice(0, 9);
    const first = await registerAtBooth(rep, boothSalon({ taxNumber: `RO${digits}` }));
    expect(first.statusCode).toBe(201);
    const { id } = first.json<Registered>().customer;
    for (const taxNumber of [`RO${digits}`, `ro ${digits}`, ` ${digits} `, `R O${digits}`]) {
      const again = await registerAtBooth(
        rep,
        boothSalon({ taxNumber, companyName: 'Orhideea 2' }),
      );
      expect(again.statusCode, taxNumber).toBe(200);
      expect(again.json<Registered>()).toMatchObject({
        message: 'Salon Orhideea is already your customer.',
        customer: { id, name: 'Salon Orhideea' },
      });
    }
    expect(await companiesTaxed(digits)).toHaveLength(1);
  });

  it('refuses a tax number that is anyone else’s (409 COMPANY_EXISTS): another rep’s, no rep’s', async () => {
    const [rep, other] = [await addRep(), await addRep()];
    const theirs = boothSalon();
    expect((await registerAtBooth(other, theirs)).statusCode).toBe(201);
    const digits = randomUUID().replace(/\D/g, '').slice(0, 9);
    const unassigned = await salon(db(), { taxNumber: `RO ${digits}` });
    for (const taxNumber of [theirs.taxNumber, `${digits}`]) {
      const response = await registerAtBooth(rep, boothSalon({ taxNumber }));
      expect(response.statusCode, taxNumber).toBe(409);
      expect(response.json<ErrorBody>()).toMatchObject({
        code: 'COMPANY_EXISTS',
        message:
          'A company with this tax number is already registered. The maker’s staff can assign it to you.',
      });
    }
    expect(await companiesTaxed(theirs.taxNumber)).toHaveLength(1);
    expect(await companiesTaxed(digits)).toEqual([
      expect.objectContaining({ id: unassigned.companyId, salesRepId: null }),
    ]);
    expect(await customersOf(rep)).toEqual([]);
  });

  it('gives back its own customer that has people of its own, also when the number is on another company', async () => {
    const rep = await addRep();
    const digits = randomUUID().replace(/\D/g, '').slice(0, 9);
    // A salon that registered itself first under the same number, then the rep's own.
    await salon(db(), { taxNumber: digits });
    const mine = await salon(db(), { taxNumber: `RO ${digits}` });
    await assign(mine.companyId, rep.id);
    const response = await registerAtBooth(rep, boothSalon({ taxNumber: `ro${digits}` }));
    expect(response.statusCode).toBe(200);
    expect(response.json<{ customer: RepCustomer }>().customer.id).toBe(mine.companyId);
  });

  it('makes one company of two registrations of one tax number sent at once', async () => {
    const rep = await addRep();
    const form = boothSalon();
    const answers = await Promise.all([
      registerAtBooth(rep, form),
      registerAtBooth(rep, {
        ...form,
        taxNumber: form.taxNumber.toLowerCase(),
      }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 201]);
    const ids = answers.map((answer) => answer.json<Registered>().customer.id);
    expect(ids[0]).toBe(ids[1]);
    expect(await companiesTaxed(form.taxNumber)).toHaveLength(1);
  });

  it('registers once for one Idempotency-Key, and answers the recorded response again', async () => {
    const rep = await addRep();
    const form = boothSalon();
    const key = randomUUID();
    const first = await registerAtBooth(rep, form, key);
    const again = await registerAtBooth(rep, form, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await companiesTaxed(form.taxNumber)).toHaveLength(1);
    const reused = await registerAtBooth(rep, boothSalon(), key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json<ErrorBody>().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('is for reps only: 403 for a salon and for staff', async () => {
    const customer = await salon(db());
    for (const tokens of [customer.tokens, staff.tokens]) {
      expect((await send('POST', '/api/rep/customers', boothSalon(), tokens)).statusCode).toBe(403);
    }
  });
});

describe('details typed at the booth for a customer already', () => {
  /** A customer of a new rep, registered at the booth (201), and what staff read of it. */
  async function customerAtBooth() {
    const rep = await addRep('Ilie');
    const form = boothSalon();
    const created = await registerAtBooth(rep, form);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<Registered>().customer;
    return { rep, form, id };
  }
  const detailOf = async (id: number) => {
    const response = await get(`/api/admin/companies/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AdminCompanyDetail>();
  };
  const toReview = async () =>
    (await get('/api/admin/summary')).json<AdminSummary>().boothDetailsToReview;
  const listedWithOpen = async (taxNumber: string) =>
    (await get(`/api/admin/companies?boothDetails=OPEN&search=${encodeURIComponent(taxNumber)}`))
      .json<AdminCompanyPage>()
      .companies.map((company) => company.id);

  it('keeps for staff only what the record does not say, once, and shows it on the company’s page', async () => {
    const { rep, form, id } = await customerAtBooth();
    const before = await toReview();
    // The record's own details in other spellings: nothing for staff.
    const same = await registerAtBooth(rep, {
      ...form,
      companyEmail: 'CONTACT@orhideea.example',
      companyPhone: '0264 111 222',
      website: 'https://www.orhideea.example',
      address: 'strada republicii 7',
    });
    expect(same.statusCode, same.body).toBe(200);
    expect((await detailOf(id)).boothDetails).toEqual([]);
    expect(await listedWithOpen(form.taxNumber)).toEqual([]);

    // A new phone and address, taken at the fair, sent twice (the salon registered again)
    // and once more as a replay of the same request.
    const key = randomUUID();
    const typed = { ...form, companyPhone: '+40 721 000 999', address: 'Strada Nouă 3' };
    for (const again of [key, randomUUID(), key]) {
      const response = await registerAtBooth(rep, typed, again);
      expect(response.statusCode, response.body).toBe(200);
      // The record is kept as it is.
      expect(response.json<Registered>().customer).toMatchObject({
        phone: '+40 264 111 222',
        address: 'Strada Republicii 7',
      });
    }
    const { boothDetails: entries } = await detailOf(id);
    expect(entries).toEqual([
      {
        id: expect.any(Number) as number,
        rep: { id: rep.id, firstName: 'Ilie', lastName: 'Pop' },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
        details: { phone: '+40 721 000 999', address: 'Strada Nouă 3' },
      },
    ]);
    expect(await toReview()).toBe(before + 1);
    expect(await listedWithOpen(form.taxNumber)).toEqual([id]);
  });

  it('is settled as staff correct the record to say it: what is left shows until all is', async () => {
    const { rep, form, id } = await customerAtBooth();
    const typed = { ...form, companyPhone: '+40 721 000 999', city: 'Turda' };
    expect((await registerAtBooth(rep, typed)).statusCode).toBe(200);
    const before = await toReview();

    const edit = (fields: object) => send('PATCH', `/api/admin/companies/${id}`, fields);
    expect((await edit({ phone: '0721 000 999' })).statusCode).toBe(200);
    expect((await detailOf(id)).boothDetails.map((entry) => entry.details)).toEqual([
      { city: 'Turda' },
    ]);
    expect(await toReview()).toBe(before);

    // The salon registered again with the same form: what the entry still says is not kept
    // again, and a new e-mail is kept alone.
    expect((await registerAtBooth(rep, typed)).statusCode).toBe(200);
    expect(
      (await registerAtBooth(rep, { ...typed, companyEmail: 'new@orhideea.example' })).statusCode,
    ).toBe(200);
    expect((await detailOf(id)).boothDetails.map((entry) => entry.details)).toEqual([
      { city: 'Turda' },
      { email: 'new@orhideea.example' },
    ]);
    expect(await toReview()).toBe(before);

    expect((await edit({ city: 'Turda', email: 'new@orhideea.example' })).statusCode).toBe(200);
    expect((await detailOf(id)).boothDetails).toEqual([]);
    expect(await toReview()).toBe(before - 1);
    const settled = await db()
      .select({
        id: boothDetails.id,
        settledAs: boothDetails.settledAs,
        settledBy: boothDetails.settledBy,
      })
      .from(boothDetails)
      .where(eq(boothDetails.companyId, id))
      .orderBy(asc(boothDetails.id));
    expect(settled.map(({ id: _id, ...rest }) => rest)).toEqual([
      { settledAs: 'applied', settledBy: staff.id },
      { settledAs: 'applied', settledBy: staff.id },
    ]);
    // Dismissed from a page read before the correction: said to be applied, and not logged.
    const late = await send('POST', `/api/admin/booth-details/${settled[0]?.id ?? 0}/dismiss`, {});
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toEqual({ companyId: id, settledAs: 'applied' });
    expect(
      (
        await db()
          .select({ action: auditLog.action })
          .from(auditLog)
          .where(eq(auditLog.companyId, id))
      ).map((entry) => entry.action),
    ).toEqual(['company.edit', 'company.edit']);
  });

  it('is dismissed by staff only, once, with what it said in the audit log', async () => {
    const { rep, form, id } = await customerAtBooth();
    expect(
      (
        await registerAtBooth(rep, {
          ...form,
          companyName: 'Orhideea Beauty',
          city: 'Turda',
        })
      ).statusCode,
    ).toBe(200);
    // Staff apply the city: the rest is what they dismiss, and what the log keeps.
    expect((await send('PATCH', `/api/admin/companies/${id}`, { city: 'Turda' })).statusCode).toBe(
      200,
    );
    const [entry] = (await detailOf(id)).boothDetails;
    if (!entry) throw new Error('The details were not kept');
    const dismiss = (tokens: Tokens) =>
      send('POST', `/api/admin/booth-details/${entry.id}/dismiss`, {}, tokens);

    // A rep (its own customer's details even) and a salon are refused.
    expect((await dismiss(rep.tokens)).statusCode).toBe(403);
    const self = await salon(db());
    expect((await dismiss(self.tokens)).statusCode).toBe(403);
    expect((await detailOf(id)).boothDetails).toHaveLength(1);

    const dismissed = await dismiss(staff.tokens);
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json()).toEqual({ companyId: id, settledAs: 'dismissed' });
    expect((await detailOf(id)).boothDetails).toEqual([]);
    const logged = () =>
      db()
        .select({ action: auditLog.action, before: auditLog.before, actorId: auditLog.actorId })
        .from(auditLog)
        .where(eq(auditLog.companyId, id))
        .orderBy(asc(auditLog.id));
    expect(await logged()).toEqual([
      expect.objectContaining({ action: 'company.edit' }),
      {
        action: 'company.booth-details-dismiss',
        before: { name: 'Orhideea Beauty' },
        actorId: staff.id,
      },
    ]);
    // Dismissed again (another click, another key): nothing changes.
    expect((await dismiss(staff.tokens)).statusCode).toBe(200);
    expect(await logged()).toHaveLength(2);

    expect(
      (await send('POST', '/api/admin/booth-details/999999/dismiss', {}, staff.tokens)).statusCode,
    ).toBe(404);
  });
});

describe('POST /api/rep/customers/{id}/documents', () => {
  let rep: Rep;
  let customerId: number;

  beforeAll(async () => {
    rep = await addRep('Iulia');
    customerId = (await registerAtBooth(rep, boothSalon())).json<Registered>().customer.id;
  });

  const upload = (
    companyId: number,
    file: { filename: string; contentType: string; data: Buffer },
    tokens = rep.tokens,
    key: string = randomUUID(),
  ) => {
    const body = multipart({}, [{ field: 'tradeRegister', ...file }]);
    return app.inject({
      method: 'POST',
      url: `/api/rep/customers/${companyId}/documents`,
      payload: body.payload,
      headers: { ...body.headers, ...bearer(tokens), 'idempotency-key': key },
    });
  };
  const registry = {
    filename: 'registru.pdf',
    contentType: 'application/pdf',
    data: PDF,
  };
  const documentsOf = (companyId: number) =>
    db()
      .select({ id: companyDocuments.id })
      .from(companyDocuments)
      .where(eq(companyDocuments.companyId, companyId));

  it('stores a document of the rep’s customer, as the salon’s own upload does, once per key', async () => {
    const key = randomUUID();
    const response = await upload(customerId, registry, rep.tokens, key);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{
      message: string;
      documents: CompanyDocument[];
    }>();
    expect(body.message).toBe('Document registru.pdf uploaded successfully.');
    expect(body.documents).toEqual([
      expect.objectContaining({
        type: 'TRADE_REGISTER',
        status: 'PENDING',
        originalName: 'registru.pdf',
        contentType: 'application/pdf',
      }),
    ]);
    const again = await upload(customerId, registry, rep.tokens, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(body);
    const detail = (await get(`/api/admin/companies/${customerId}`)).json<AdminCompanyDetail>();
    expect(detail.documents.map((document) => document.id)).toEqual([body.documents[0]?.id]);
  });

  it('finds no other company (404): another rep’s, an unassigned one, one that does not exist', async () => {
    const theirs = (await registerAtBooth(await addRep(), boothSalon())).json<Registered>().customer
      .id;
    const unassigned = (await salon(db())).companyId;
    for (const companyId of [theirs, unassigned, 999_999]) {
      const response = await upload(companyId, registry);
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorBody>().message).toBe('Customer not found');
    }
    expect([...(await documentsOf(theirs)), ...(await documentsOf(unassigned))]).toEqual([]);
  });

  it('is for reps only (403 for a salon), and takes only PDF, JPEG or PNG (415)', async () => {
    const customer = await salon(db());
    await assign(customer.companyId, rep.id);
    expect((await upload(customer.companyId, registry, customer.tokens)).statusCode).toBe(403);
    const program = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]);
    const response = await upload(customer.companyId, {
      filename: 'registru.pdf.exe',
      contentType: 'application/pdf',
      data: program,
    });
    expect(response.statusCode).toBe(415);
    expect(response.json<ErrorBody>().details?.[0]?.code).toBe('fileUnsupported');
    expect(await documentsOf(customer.companyId)).toEqual([]);
  });
});

describe('orders awaiting verification', () => {
  let rep: Rep;
  const { firstName, lastName, street, city, zipCode, country, phone } = ADDRESS;
  const shippingAddress = {
    firstName,
    lastName,
    street,
    city,
    zipCode,
    country,
    phone,
  };

  beforeAll(async () => {
    rep = await addRep('Horia');
  });

  /** A product of the catalogue with this much stock, not one the earlier suites count. */
  async function productWith(stock: number): Promise<number> {
    const [row] = await activeProducts(1, 5);
    await db().update(products).set({ stock }).where(eq(products.id, row!.id));
    return row!.id;
  }

  const newCustomer = async () =>
    (await registerAtBooth(rep, boothSalon())).json<Registered>().customer.id;

  async function placeFor(companyId: number, productId: number, quantity = 3) {
    const response = await send(
      'POST',
      `/api/rep/customers/${companyId}/orders`,
      { items: [{ productId, quantity }], shippingAddress },
      rep.tokens,
    );
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ order: Order }>().order;
  }

  const eventsOf = (orderId: number) =>
    db()
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, orderId))
      .orderBy(asc(orderEvents.id));

  const decide = (companyId: number, action: 'approve' | 'reject', body: object = {}) =>
    send('POST', `/api/admin/companies/${companyId}/${action}`, body);

  it('places the order of a customer not verified yet as AWAITING_VERIFICATION, and takes its stock', async () => {
    const productId = await productWith(10);
    const companyId = await newCustomer();
    const order = await placeFor(companyId, productId);
    expect(order).toMatchObject({
      status: 'AWAITING_VERIFICATION',
      placedBy: { id: rep.id },
    });
    expect(await stockOf(productId)).toBe(7);
    expect(await eventsOf(order.id)).toEqual([
      expect.objectContaining({
        fromValue: null,
        toValue: 'AWAITING_VERIFICATION',
        actor: 'rep',
      }),
    ]);
    const [customer] = (await customersOf(rep)).filter((c) => c.id === companyId);
    expect(customer?.openOrders).toBe(1);
    // Staff may only cancel it while the company waits.
    const confirm = await send('POST', `/api/admin/orders/${order.id}/status`, {
      status: 'CONFIRMED',
    });
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json<{ details: { allowed: string[] } }>().details.allowed).toEqual([
      'CANCELLED',
    ]);
  });

  it('makes them PENDING when staff approve the company, each with an event naming the staff member', async () => {
    const productId = await productWith(10);
    const companyId = await newCustomer();
    const orders = [
      await placeFor(companyId, productId, 2),
      await placeFor(companyId, productId, 1),
    ];
    const approved = await decide(companyId, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    const listed = (await get(`/api/rep/customers/${companyId}/orders`, rep.tokens)).json<{
      orders: Order[];
    }>().orders;
    expect(listed.map((order) => order.status)).toEqual(['PENDING', 'PENDING']);
    for (const order of orders) {
      expect((await eventsOf(order.id)).map((event) => [event.fromValue, event.toValue])).toEqual([
        [null, 'AWAITING_VERIFICATION'],
        ['AWAITING_VERIFICATION', 'PENDING'],
      ]);
      const detail = (await get(`/api/admin/orders/${order.id}`)).json<AdminOrderDetail>();
      expect(detail.events[1]).toMatchObject({
        actor: { kind: 'staff', id: staff.id },
        note: 'Company approved',
      });
    }
    expect(await stockOf(productId)).toBe(7);
    // Approved now: the next order is PENDING at once.
    expect((await placeFor(companyId, productId, 1)).status).toBe('PENDING');
  });

  it('cancels them with the reason when staff reject the company, and puts their stock back', async () => {
    const productId = await productWith(10);
    const companyId = await newCustomer();
    const order = await placeFor(companyId, productId, 4);
    expect(await stockOf(productId)).toBe(6);
    const rejected = await decide(companyId, 'reject', {
      reason: 'The tax number is not valid',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const [row] = await db().select().from(ordersTable).where(eq(ordersTable.id, order.id));
    expect(row).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'The tax number is not valid',
    });
    expect(row?.cancelledAt).not.toBeNull();
    expect(await stockOf(productId)).toBe(10);
    const events = await eventsOf(order.id);
    expect(events[1]).toMatchObject({
      fromValue: 'AWAITING_VERIFICATION',
      toValue: 'CANCELLED',
      actor: 'staff',
      actorId: staff.id,
      note: 'The tax number is not valid',
    });
    // A rejected customer still cannot be ordered for.
    const refused = await send(
      'POST',
      `/api/rep/customers/${companyId}/orders`,
      { items: [{ productId, quantity: 1 }], shippingAddress },
      rep.tokens,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorBody>().code).toBe('CUSTOMER_NOT_APPROVED');
    expect(await stockOf(productId)).toBe(10);
  });

  it('follows a decision of the command line too, which its events name', async () => {
    const productId = await productWith(10);
    const companyId = await newCustomer();
    const order = await placeFor(companyId, productId, 1);
    await runAdminCommand(db(), ['reject', String(companyId)], () => {}, {
      commandLine: 'ops@office',
    });
    const [row] = await db().select().from(ordersTable).where(eq(ordersTable.id, order.id));
    expect(row).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'Company rejected',
    });
    expect((await eventsOf(order.id))[1]).toMatchObject({
      actor: 'staff',
      actorId: null,
      actorName: 'ops@office',
    });
    expect(await stockOf(productId)).toBe(10);
  });

  it('still refuses a suspended customer (409), and a salon not approved still cannot check out', async () => {
    const productId = await productWith(10);
    const suspended = await salon(db(), {
      status: 'SUSPENDED',
      isVerified: true,
    });
    await assign(suspended.companyId, rep.id);
    const response = await send(
      'POST',
      `/api/rep/customers/${suspended.companyId}/orders`,
      { items: [{ productId, quantity: 1 }], shippingAddress },
      rep.tokens,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().code).toBe('CUSTOMER_NOT_APPROVED');
    const pending = await salon(db());
    const checkout = await send('POST', '/api/cart/checkout', { shippingAddress }, pending.tokens);
    expect(checkout.statusCode).toBe(403);
    expect(checkout.json<ErrorBody>().code).toBe('NOT_APPROVED');
    expect(await stockOf(productId)).toBe(10);
  });
});

describe('GET /api/admin/orders?salesRepId', () => {
  it('lists the orders a rep placed, each naming it, and no one else’s', async () => {
    const [rep, other] = [await addRep('Sabina'), await addRep('Tudor')];
    const customer = await salon(db(), {
      status: 'APPROVED',
      isVerified: true,
    });
    await assign(customer.companyId, rep.id);
    const mine = [
      await order(db(), customer, { placedByRepId: rep.id, userId: rep.id }),
      await order(db(), customer, { placedByRepId: rep.id, userId: rep.id }),
    ];
    await order(db(), customer, { placedByRepId: other.id, userId: other.id });
    const bySalon = await order(db(), customer);
    const page = (await get(`/api/admin/orders?salesRepId=${rep.id}`)).json<AdminOrderPage>();
    expect(page.orders.map((row) => row.id).sort()).toEqual([...mine].sort());
    for (const row of page.orders) {
      expect(row.placedBy).toEqual({
        id: rep.id,
        firstName: 'Sabina',
        lastName: 'Pop',
      });
    }
    const all = (
      await get(`/api/admin/orders?companyId=${customer.companyId}&limit=100`)
    ).json<AdminOrderPage>();
    expect(all.orders).toHaveLength(4);
    expect(all.orders.find((row) => row.id === bySalon)?.placedBy).toBeNull();
    expect((await get('/api/admin/orders?salesRepId=0')).statusCode).toBe(400);
    // The export names the rep in its last column, and leaves it empty for the salon's order.
    const csv = (await get(`/api/admin/orders/export.csv?companyId=${customer.companyId}`)).body;
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]?.split(',').at(-1)).toBe('Placed by');
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',').at(-1))
        .sort(),
    ).toEqual(['', 'Sabina Pop', 'Sabina Pop', 'Tudor Pop'].sort());
  });
});

describe('GET /api/rep/orders?since', () => {
  let rep: Rep;
  let other: Rep;
  let bella: Salon;
  let lux: Salon;
  /** A moment an hour before the suite starts: the rep's day, as its device asks for it. */
  let since: Date;
  /** A moment `minutes` after `since` (before it when negative). */
  const after = (minutes: number) => new Date(since.getTime() + minutes * 60 * 1000);

  beforeAll(async () => {
    since = new Date(Date.now() - 60 * 60 * 1000);
    [rep, other] = [await addRep('Irina'), await addRep('Paul')];
    bella = await salon(db(), {
      name: 'Salon Bella Day',
      status: 'APPROVED',
      isVerified: true,
      taxNumber: 'RO555001',
      address: 'Strada Horea 2',
      city: 'Cluj-Napoca',
      postalCode: '400174',
    });
    lux = await salon(db(), { name: 'Studio Lux Day', status: 'APPROVED', isVerified: true });
    await assign(bella.companyId, rep.id);
    await assign(lux.companyId, rep.id);
  });

  const byRep = (customer: Salon, placedBy: Rep, createdAt: Date) =>
    order(db(), customer, { placedByRepId: placedBy.id, userId: placedBy.id, createdAt });

  const ordersSince = (moment: string, tokens = rep.tokens) =>
    get(`/api/rep/orders?since=${encodeURIComponent(moment)}`, tokens);

  it('lists the orders the rep placed since the moment, for any customer, newest first, each with its customer', async () => {
    const atSince = await byRep(bella, rep, since);
    const forBella = await byRep(bella, rep, after(30));
    const forLux = await byRep(lux, rep, after(50));
    // Before the moment, another rep's, and the salon's own: none of them.
    await byRep(bella, rep, after(-1));
    await byRep(lux, other, after(55));
    await order(db(), bella, { createdAt: after(55) });

    const response = await ordersSince(since.toISOString());
    expect(response.statusCode, response.body).toBe(200);
    const { orders } = response.json<RepOrderList>();
    expect(orders.map((listed) => listed.id)).toEqual([forLux, forBella, atSince]);
    expect(orders[0]?.customer).toEqual({
      id: lux.companyId,
      name: 'Studio Lux Day',
      taxNumber: '',
      address: '',
      city: '',
      state: '',
      postalCode: '',
      country: 'Romania',
    });
    expect(orders[1]?.customer).toMatchObject({
      id: bella.companyId,
      name: 'Salon Bella Day',
      taxNumber: 'RO555001',
      address: 'Strada Horea 2',
      postalCode: '400174',
    });
    for (const listed of orders) {
      expect(listed.placedBy).toEqual({ id: rep.id, firstName: 'Irina', lastName: 'Pop' });
    }
    // The same moment in another offset names the same instant.
    const local = await ordersSince(
      new Date(since.getTime() + 2 * 60 * 60 * 1000).toISOString().replace('Z', '+02:00'),
    );
    expect(local.json<RepOrderList>().orders.map((listed) => listed.id)).toEqual(
      orders.map((listed) => listed.id),
    );
    // The other rep reads its own order alone.
    const theirs = (await ordersSince(since.toISOString(), other.tokens)).json<RepOrderList>();
    expect(theirs.orders.map((listed) => listed.customer.name)).toEqual(['Studio Lux Day']);
  });

  it('answers each order as the customer’s orders do, lines included, and keeps one of a customer given to another rep', async () => {
    const [product] = await activeProducts(1);
    await db().update(products).set({ stock: 50 }).where(eq(products.id, product!.id));
    const { firstName, lastName, street, city, zipCode, country, phone } = ADDRESS;
    const placed = await send(
      'POST',
      `/api/rep/customers/${bella.companyId}/orders`,
      {
        items: [{ productId: product!.id, quantity: 2 }],
        shippingAddress: { firstName, lastName, street, city, zipCode, country, phone },
        clientReference: 'L-DAY00001',
      },
      rep.tokens,
    );
    expect(placed.statusCode, placed.body).toBe(201);
    const { order: taken } = placed.json<{ order: Order }>();
    const customerOrders = (
      await get(`/api/rep/customers/${bella.companyId}/orders`, rep.tokens)
    ).json<{ orders: Order[] }>().orders;
    const { orders } = (await ordersSince(since.toISOString())).json<RepOrderList>();
    const { customer, ...listed } = orders.find((candidate) => candidate.id === taken.id) ?? {};
    expect(listed).toEqual(customerOrders.find((candidate) => candidate.id === taken.id));
    expect(listed).toMatchObject({ clientReference: 'L-DAY00001', itemCount: 2 });
    expect(customer?.name).toBe('Salon Bella Day');

    // Staff give the customer to another rep: the order stays this rep's, and is listed.
    await assign(bella.companyId, other.id);
    const reassigned = (await ordersSince(since.toISOString())).json<RepOrderList>();
    expect(reassigned.orders.map((candidate) => candidate.id)).toContain(taken.id);
    expect((await get(`/api/rep/customers/${bella.companyId}/orders`, rep.tokens)).statusCode).toBe(
      404,
    );
    await assign(bella.companyId, rep.id);
  });

  it(`answers at most ${MAX_REP_ORDERS} orders, the newest`, async () => {
    const busy = await addRep('Mihai');
    const start = after(1).getTime();
    const ids = (
      await db()
        .insert(ordersTable)
        .values(
          Array.from({ length: MAX_REP_ORDERS + 1 }, (_, i) =>
            orderRow(
              { companyId: lux.companyId, userId: busy.id },
              {
                placedByRepId: busy.id,
                subtotal: '10.00',
                total: '10.00',
                createdAt: new Date(start + i * 1000),
              },
            ),
          ),
        )
        .returning({ id: ordersTable.id })
    ).map((row) => row.id);
    const { orders } = (await ordersSince(since.toISOString(), busy.tokens)).json<RepOrderList>();
    expect(orders).toHaveLength(MAX_REP_ORDERS);
    expect(orders[0]?.id).toBe(ids.at(-1));
    expect(orders.map((listed) => listed.id)).not.toContain(ids[0]);
  });

  it('is for reps only: 403 for a salon and for staff, 401 for a visitor', async () => {
    const moment = encodeURIComponent(since.toISOString());
    for (const tokens of [bella.tokens, staff.tokens]) {
      const refused = await get(`/api/rep/orders?since=${moment}`, tokens);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<ErrorBody>().message).toBe('This area is for sales reps only.');
    }
    const visitor = await app.inject({ url: `/api/rep/orders?since=${moment}` });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json<ErrorBody>().message).toEqual(expect.any(String));
  });

  it(`refuses a missing since, one that is no date-time and one older than ${REP_ORDERS_MAX_DAYS} days (400, on the field)`, async () => {
    const tooOld = new Date(Date.now() - (REP_ORDERS_MAX_DAYS + 1) * 24 * 60 * 60 * 1000);
    const cases = [
      ['/api/rep/orders', /^Invalid request: since /],
      ['/api/rep/orders?since=yesterday', /^Invalid request: since /],
      ['/api/rep/orders?since=2026-02-30T10:00:00Z', /^Invalid request: since /],
      [`/api/rep/orders?since=${tooOld.toISOString()}`, /within the last 31 days$/],
      [
        `/api/rep/orders?since=${since.toISOString()}&customerId=1`,
        /customerId is not a known field$/,
      ],
    ] as const;
    for (const [url, message] of cases) {
      const response = await get(url, rep.tokens);
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = response.json<ErrorBody>();
      expect(body.message, url).toMatch(message);
      expect(body.details?.[0]?.field, url).toBe(
        url.includes('customerId') ? 'customerId' : 'since',
      );
      expect(response.body).not.toMatch(/at .+\.(ts|js):\d+/);
    }
  });
});
