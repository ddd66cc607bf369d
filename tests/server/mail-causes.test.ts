/**
 * E-mail is queued where its cause happens, in the cause's transaction: registrations,
 * staff's decisions on companies and documents, and every step of an order a salon follows.
 * Each message goes to the right people, in the language each reads, and order e-mail only
 * to those who keep order notifications on. The language is the one the app shows: set at
 * registration and at each sign-in from the request.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { companies, mailQueue, products, users } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { hashPassword } from '../../server/services/passwords';
import { openSession } from '../../server/services/sessions';
import { createStaff } from '../../server/services/staff';
import { inTransaction } from '../../server/services/transactions';
import type { Language } from '../../src/contracts/languages';
import type { Order } from '../../src/contracts/orders';
import { companyDocument, salon, staffMember, type Salon, type Staff } from './factories';
import {
  ADDRESS,
  bearer,
  multipart,
  PDF,
  personPayload,
  uniqueEmail,
  wizardFields,
  type Tokens,
} from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Staff;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  staff = await staffMember(app, testDb.database.db, 'mail.staff@example.com');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

/** The last message queued before now: `queued` answers what comes after it. */
let before = 0;
async function mark(): Promise<void> {
  const [last] = await db()
    .select({ id: max(mailQueue.id) })
    .from(mailQueue);
  before = last?.id ?? 0;
}
beforeEach(mark);

/** What was queued since the test began: kind, recipient, language and data, in order. */
const queued = (kind?: string) =>
  db()
    .select({
      kind: mailQueue.kind,
      to: mailQueue.toAddress,
      language: mailQueue.language,
      data: mailQueue.data,
    })
    .from(mailQueue)
    .where(and(gt(mailQueue.id, before), kind ? eq(mailQueue.kind, kind) : undefined))
    .orderBy(asc(mailQueue.id));

const send = (method: 'POST' | 'DELETE', url: string, tokens: Tokens, payload: object = {}) =>
  app.inject({
    method,
    url,
    payload,
    headers: { ...bearer(tokens), 'idempotency-key': randomUUID() },
  });

const asStaff = (url: string, payload: object = {}) => send('POST', url, staff.tokens, payload);

const passwordHash = hashPassword('Salon-Pass-1');

/** One more person of a company, in a language, with order notifications on or off. */
async function colleague(
  companyId: number,
  fields: Partial<typeof users.$inferInsert> = {},
): Promise<{ id: number; email: string }> {
  const email = uniqueEmail('colleague');
  const [row] = await db()
    .insert(users)
    .values({
      email,
      passwordHash: await passwordHash,
      firstName: 'Mara',
      lastName: 'Dinu',
      companyId,
      ...fields,
    })
    .returning({ id: users.id });
  return { id: row?.id ?? 0, email };
}

const emailOf = async (userId: number) =>
  (await db().select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]?.email;

const languageOf = async (email: string): Promise<Language | undefined> =>
  (await db().select({ language: users.language }).from(users).where(eq(users.email, email)))[0]
    ?.language;

/**
 * A salon of several people: its first user in Romanian, an Italian and an English one
 * who follow orders, one who does not, a deleted and a deactivated one.
 */
async function salonOfMany(status: 'PENDING' | 'APPROVED' = 'APPROVED') {
  const first = await salon(db(), {
    status,
    isVerified: status === 'APPROVED',
    name: `Salon ${randomUUID()}`,
  });
  const firstEmail = (await emailOf(first.userId)) ?? '';
  const italian = await colleague(first.companyId, { language: 'it' });
  const english = await colleague(first.companyId, { language: 'en' });
  const quiet = await colleague(first.companyId, { language: 'en', notifyOrders: false });
  await colleague(first.companyId, { deletedAt: new Date() });
  await colleague(first.companyId, { deactivatedAt: new Date() });
  return { salon: first, firstEmail, italian, english, quiet };
}

type Many = Awaited<ReturnType<typeof salonOfMany>>;

/** Everyone live, each in its language, sorted like the queue (by user id). */
const everyone = (many: Many) => [
  { to: many.firstEmail, language: 'ro' },
  { to: many.italian.email, language: 'it' },
  { to: many.english.email, language: 'en' },
  { to: many.quiet.email, language: 'en' },
];
/** Those who follow orders. */
const followers = (many: Many) => everyone(many).filter((person) => person.to !== many.quiet.email);

async function checkout(buyer: Salon): Promise<Order> {
  const [product] = await db()
    .select({ id: products.id })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.id))
    .limit(1);
  const added = await send('POST', '/api/cart/add', buyer.tokens, {
    productId: product?.id,
    quantity: 2,
  });
  expect(added.statusCode, added.body).toBe(200);
  const placed = await send('POST', '/api/cart/checkout', buyer.tokens, {
    shippingAddress: ADDRESS,
  });
  expect(placed.statusCode, placed.body).toBe(201);
  return placed.json<{ order: Order }>().order;
}

describe('the language of a user’s e-mail', () => {
  it('is the one the request names at registration: lng, then the kept choice, then the browser’s', async () => {
    const quick = personPayload();
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: quick,
      headers: { 'accept-language': 'it-IT,it;q=0.9,en;q=0.5' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(await languageOf(String(quick.email))).toBe('it');

    const fields = wizardFields();
    const form = multipart(fields);
    const wizard = await app.inject({
      method: 'POST',
      url: '/api/auth/register-company',
      payload: form.payload,
      headers: {
        ...form.headers,
        cookie: 'other=1; portal-language=en',
        'accept-language': 'it',
      },
    });
    expect(wizard.statusCode, wizard.body).toBe(201);
    expect(await languageOf(fields.email)).toBe('en');

    const chosen = personPayload();
    await app.inject({
      method: 'POST',
      url: '/api/auth/register?lng=en',
      payload: chosen,
      headers: { cookie: 'portal-language=it', 'accept-language': 'it' },
    });
    expect(await languageOf(String(chosen.email))).toBe('en');

    const silent = personPayload();
    await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: silent,
      headers: { 'accept-language': 'de-DE, fr;q=0.8' },
    });
    expect(await languageOf(String(silent.email))).toBe('ro');
  });

  it('follows the language of each sign-in, and stays when the request names none', async () => {
    const payload = personPayload();
    await app.inject({ method: 'POST', url: '/api/auth/register', payload });
    const email = String(payload.email);
    const signIn = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: payload.password },
        headers,
      });
    expect((await signIn({ 'accept-language': 'it' })).statusCode).toBe(200);
    expect(await languageOf(email)).toBe('it');
    expect((await signIn({})).statusCode).toBe(200);
    expect(await languageOf(email)).toBe('it');
    expect((await signIn({ 'accept-language': 'de, fr' })).statusCode).toBe(200);
    expect(await languageOf(email)).toBe('it');
    expect(
      (await signIn({ cookie: 'portal-language=en', 'accept-language': 'it' })).statusCode,
    ).toBe(200);
    expect(await languageOf(email)).toBe('en');
  });
});

describe('a registration', () => {
  it('tells the person who registered that the company is under review, in its language', async () => {
    const fields = wizardFields();
    const form = multipart(fields);
    await app.inject({
      method: 'POST',
      url: '/api/auth/register-company',
      payload: form.payload,
      headers: { ...form.headers, 'accept-language': 'it' },
    });
    expect(await queued('registration-received')).toEqual([
      {
        kind: 'registration-received',
        to: fields.email,
        language: 'it',
        data: { companyName: fields.companyName },
      },
    ]);
  });

  it('queues nothing for an e-mail that already has an account', async () => {
    const payload = personPayload();
    await app.inject({ method: 'POST', url: '/api/auth/register', payload });
    await mark();
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...payload, companyName: 'Another Salon SRL' },
    });
    expect(again.statusCode).toBe(201);
    expect(await queued()).toEqual([]);
  });
});

describe('staff’s decisions on a company', () => {
  it('tell every person of the company, each in its language; deleted and deactivated accounts get nothing', async () => {
    const many = await salonOfMany('PENDING');
    const { companyId } = many.salon;
    const [company] = await db()
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, companyId));
    const companyName = company?.name ?? '';
    const expectMessage = async (kind: string, data: object) => {
      expect(await queued()).toEqual(everyone(many).map((person) => ({ ...person, kind, data })));
      await mark();
    };

    expect(
      (await asStaff(`/api/admin/companies/${companyId}/reject`, { reason: 'Unknown tax number' }))
        .statusCode,
    ).toBe(200);
    await expectMessage('company-rejected', { companyName, reason: 'Unknown tax number' });

    expect((await asStaff(`/api/admin/companies/${companyId}/approve`)).statusCode).toBe(200);
    await expectMessage('company-approved', { companyName });

    expect((await asStaff(`/api/admin/companies/${companyId}/suspend`)).statusCode).toBe(200);
    await expectMessage('company-suspended', { companyName, reason: null });

    expect((await asStaff(`/api/admin/companies/${companyId}/reactivate`)).statusCode).toBe(200);
    await expectMessage('company-approved', { companyName });
  });

  it('tell a rejected document with the staff’s note; an approval queues nothing', async () => {
    const many = await salonOfMany();
    const { companyId } = many.salon;
    const rejected = await companyDocument(db(), companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'registru <comerț>.pdf',
    });
    const approved = await companyDocument(db(), companyId, {
      data: PDF,
      contentType: 'application/pdf',
      originalName: 'cui.pdf',
    });
    expect((await asStaff(`/api/admin/documents/${approved}/approve`)).statusCode).toBe(200);
    expect(await queued()).toEqual([]);
    expect(
      (await asStaff(`/api/admin/documents/${rejected}/reject`, { reviewNotes: 'Blurred scan' }))
        .statusCode,
    ).toBe(200);
    const messages = await queued();
    expect(messages.map(({ to, language }) => ({ to, language }))).toEqual(everyone(many));
    expect(messages[0]).toMatchObject({
      kind: 'document-rejected',
      data: { documentName: 'registru <comerț>.pdf', note: 'Blurred scan' },
    });
  });
});

describe('an order', () => {
  it('is told, at each step, to the salon’s people who follow orders, in their languages', async () => {
    const many = await salonOfMany();
    const placed = await checkout(many.salon);
    const expectMessage = async (kind: string, data: object) => {
      expect(await queued()).toEqual(followers(many).map((person) => ({ ...person, kind, data })));
      await mark();
    };
    await expectMessage('order-received', {
      orderNumber: placed.orderNumber,
      total: placed.total.toFixed(2),
    });

    const move = (body: object) => asStaff(`/api/admin/orders/${placed.id}/status`, body);
    expect((await move({ status: 'CONFIRMED' })).statusCode).toBe(200);
    await expectMessage('order-confirmed', { orderNumber: placed.orderNumber });
    expect((await move({ status: 'PROCESSING' })).statusCode).toBe(200);
    expect(await queued()).toEqual([]);
    expect((await move({ status: 'SHIPPED', trackingNumber: 'AWB 123-456' })).statusCode).toBe(200);
    await expectMessage('order-shipped', {
      orderNumber: placed.orderNumber,
      trackingNumber: 'AWB 123-456',
    });
    expect((await move({ status: 'DELIVERED' })).statusCode).toBe(200);
    expect(await queued()).toEqual([]);
    // A payment is not an order's step the salon is written about.
    const paid = await asStaff(`/api/admin/orders/${placed.id}/payment`, { paymentStatus: 'PAID' });
    expect(paid.statusCode).toBe(200);
    expect(await queued()).toEqual([]);
  });

  it('cancelled by the salon or by staff is told with the reason', async () => {
    const many = await salonOfMany();
    const mine = await checkout(many.salon);
    const theirs = await checkout(many.salon);
    await mark();

    const cancelled = await send('DELETE', `/api/orders/${mine.id}`, many.salon.tokens, {
      cancellationReason: 'Ordered twice',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const byStaff = await asStaff(`/api/admin/orders/${theirs.id}/status`, {
      status: 'CANCELLED',
      reason: 'Discontinued <product>',
    });
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    expect(await queued()).toEqual([
      ...followers(many).map((person) => ({
        ...person,
        kind: 'order-cancelled',
        data: { orderNumber: mine.orderNumber, reason: 'Ordered twice' },
      })),
      ...followers(many).map((person) => ({
        ...person,
        kind: 'order-cancelled',
        data: { orderNumber: theirs.orderNumber, reason: 'Discontinued <product>' },
      })),
    ]);
  });

  it('a sales rep placed names the rep, and one awaiting verification is cancelled with the rejection', async () => {
    const many = await salonOfMany('PENDING');
    const { companyId } = many.salon;
    const { member } = await inTransaction(db(), (tx) =>
      createStaff(
        tx,
        {
          firstName: 'Victor',
          lastName: 'Pop',
          email: `rep.${randomUUID()}@example.com`,
          role: 'SALES_REP',
        },
        { commandLine: 'test' },
      ),
    );
    await db().update(companies).set({ salesRepId: member.id }).where(eq(companies.id, companyId));
    const rep = await openSession(db(), member.id);
    const [product] = await db()
      .select({ id: products.id })
      .from(products)
      .where(eq(products.active, true))
      .orderBy(asc(products.id))
      .limit(1);
    const taken = await send('POST', `/api/rep/customers/${companyId}/orders`, rep, {
      items: [{ productId: product?.id, quantity: 1 }],
      shippingAddress: ADDRESS,
    });
    expect(taken.statusCode, taken.body).toBe(201);
    const order = taken.json<{ order: Order }>().order;
    expect(order.status).toBe('AWAITING_VERIFICATION');
    expect(await queued()).toEqual(
      followers(many).map((person) => ({
        ...person,
        kind: 'order-received',
        data: {
          orderNumber: order.orderNumber,
          total: order.total.toFixed(2),
          placedByRep: 'Victor Pop',
          awaitingVerification: true,
        },
      })),
    );
    await mark();

    const rejected = await asStaff(`/api/admin/companies/${companyId}/reject`, {
      reason: 'Closed salon',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const messages = await queued();
    expect(messages.map((message) => message.kind)).toEqual([
      ...everyone(many).map(() => 'company-rejected'),
      ...followers(many).map(() => 'order-cancelled'),
    ]);
    expect(messages.at(-1)?.data).toEqual({
      orderNumber: order.orderNumber,
      reason: 'Closed salon',
    });
  });
});
