/**
 * Sales reps: staff make them on the People page and assign each company at most one
 * (PUT /api/admin/companies/{id}/sales-rep, in the audit log); a rep reads its own
 * customers through /api/rep and nothing else: another rep's customer, a company with no
 * rep and one that does not exist all answer the same 404, and the other roles get 403.
 */
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { seedDatabase } from '../../server/db/seed';
import { companies, orderEvents, orderSignatures, products, users } from '../../server/db/schema';
import type {
  AdminCompanyDetail,
  AuditPage,
  SalesRepAssigned,
  StaffCreated,
  StaffList,
} from '../../src/contracts/admin-schemas';
import type { ErrorBody } from '../../src/contracts/error-schema';
import type { Order } from '../../src/contracts/orders';
import type { RepCustomer, RepCustomerList } from '../../src/contracts/field-sales-schemas';
import { order, salon, staffMember, type Salon, type Staff } from './factories';
import { ADDRESS, bearer, PNG, signIn, type Tokens } from './helpers';
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
  method: 'POST' | 'PUT',
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
        email: 'office@bella.example',
        phone: '+40 264 000 000',
        address: 'Strada Memorandumului 4',
        city: 'Cluj-Napoca',
        state: '',
        postalCode: '400114',
        country: 'Romania',
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
    const rows = await db()
      .select({ id: products.id, price: products.price })
      .from(products)
      .where(eq(products.active, true))
      .orderBy(asc(products.id))
      .limit(2);
    for (const row of rows) {
      await db().update(products).set({ stock }).where(eq(products.id, row.id));
    }
    return rows.map((row) => ({ id: row.id, price: Number(row.price) }));
  }

  const stockOf = async (id: number) =>
    (await db().select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]
      ?.stock;

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

  it('refuses a customer not approved (409 CUSTOMER_NOT_APPROVED)', async () => {
    const [a] = await stocked();
    const pending = await salon(db());
    await assign(pending.companyId, rep.id);
    const response = await place(
      { items: [{ productId: a!.id, quantity: 1 }], shippingAddress },
      pending.companyId,
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
