/**
 * Every mutating route of a signed-in user or of staff honours Idempotency-Key through the
 * one helper: the same key twice gives the recorded answer and changes things once, and
 * the key with another request is a 422. One table lists the routes, and a test checks
 * that the table covers every mutating route the app registers.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, registeredRoutes } from '../../server/app';
import {
  auditLog,
  boothDetails,
  cartItems,
  categories,
  companies,
  companyDocuments,
  idempotencyKeys,
  mailQueue,
  orderListItems,
  orderLists,
  orders,
  products,
  users,
} from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany, ensureAdmin } from '../../server/services/admin';
import { hashPassword } from '../../server/services/passwords';
import { createStaff } from '../../server/services/staff';
import { inTransaction } from '../../server/services/transactions';
import { openSession } from '../../server/services/sessions';
import type { StaffCreate } from '../../src/contracts/admin-schemas';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { ADDRESS, bearer, multipart, PDF, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let admin: Tokens;
let adminId: number;

const PASSWORD = 'Secure-Pass1';
/** Hashed once: every customer of the table has the same password. */
const passwordHash = hashPassword(PASSWORD);

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  await ensureAdmin(testDb.database.db, 'keys.staff@example.com', 'Keys-Staff-1');
  admin = await signIn(app, 'keys.staff@example.com', 'Keys-Staff-1');
  const [row] = await testDb.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'keys.staff@example.com'));
  adminId = row?.id ?? 0;
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

interface Request {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: object;
}

function send(tokens: Tokens, request: Request, key: string) {
  return app.inject({
    method: request.method,
    url: request.url,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
    headers: { ...bearer(tokens), 'idempotency-key': key },
  });
}

/**
 * A customer of a new company, approved unless told otherwise. Made in the database: the
 * table needs more accounts than one address may register in an hour.
 */
/** Rejecting and suspending take a reason for the salon; approving and reactivating none. */
const reasonFor = (action: string) =>
  action === 'reject' || action === 'suspend' ? { reason: 'Checked by the back office' } : {};

async function customer(approved = true) {
  const [company] = await db()
    .insert(companies)
    .values({ name: `Salon ${randomUUID()}` })
    .returning({ id: companies.id });
  const companyId = company?.id ?? 0;
  if (approved) await decideCompany(db(), companyId, 'approve');
  const [user] = await db()
    .insert(users)
    .values({
      email: `keys.${randomUUID()}@example.com`,
      passwordHash: await passwordHash,
      firstName: 'Ana',
      lastName: 'Ionescu',
      companyId,
    })
    .returning({ id: users.id });
  const userId = user?.id ?? 0;
  return { tokens: await openSession(db(), userId), userId, companyId };
}

async function productWithStock(offset: number, stock = 50): Promise<number> {
  const [row] = await db()
    .select({ id: products.id })
    .from(products)
    .orderBy(asc(products.id))
    .limit(1)
    .offset(offset);
  await db()
    .update(products)
    .set({ stock })
    .where(eq(products.id, row?.id ?? 0));
  return row?.id ?? 0;
}

async function addToCart(tokens: Tokens, productId: number, quantity = 1) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/cart/add',
    payload: { productId, quantity },
    headers: bearer(tokens),
  });
  expect(response.statusCode).toBe(200);
}

async function placeOrder(tokens: Tokens, productId: number): Promise<number> {
  await addToCart(tokens, productId, 2);
  const response = await app.inject({
    method: 'POST',
    url: '/api/cart/checkout',
    payload: { shippingAddress: ADDRESS },
    headers: bearer(tokens),
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ order: { id: number } }>().order.id;
}

async function uploadedDocument(tokens: Tokens): Promise<number> {
  const body = multipart({}, [
    { field: 'tradeRegister', filename: 'registru.pdf', contentType: 'application/pdf', data: PDF },
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/companies/me/documents',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(tokens) },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ documents: { id: number }[] }>().documents[0]?.id ?? 0;
}

const userRow = (id: number) => db().select().from(users).where(eq(users.id, id));
const cartOf = (userId: number) =>
  db()
    .select({ productId: cartItems.productId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.productId));
const orderRow = (id: number) => db().select().from(orders).where(eq(orders.id, id));
const companyRow = (id: number) => db().select().from(companies).where(eq(companies.id, id));
/** The audit entries of an entity: a staff decision replayed must not add a second. */
const auditOf = (
  entityType: 'company' | 'document' | 'order' | 'product' | 'category' | 'staff',
  entityId: number,
) =>
  db()
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)));
const stockOf = (id: number) =>
  db().select({ stock: products.stock }).from(products).where(eq(products.id, id));

/** One route's requests, ready to send on a fresh state. */
interface Prepared {
  tokens: Tokens;
  /** Whose key it is (the caller's user id). */
  userId: number;
  request: Request;
  /** A valid request different from `request` (another body, or another path). */
  other: Request;
  /** What `request` changes, read from the database: equal twice means nothing changed. */
  effect: () => Promise<unknown>;
  /** The request ends the caller's session (deleting the account): nothing can follow it. */
  endsSession?: boolean;
  /** What a repeat answers, when not the first answer itself (a secret left out). */
  replayed?: (first: unknown) => unknown;
}

/** A staff account for the People routes to act on, made as the command line would. */
async function staffAccount(active = true, role: StaffCreate['role'] = 'ADMIN'): Promise<number> {
  const made = await inTransaction(db(), (tx) =>
    createStaff(
      tx,
      { firstName: 'Key', lastName: 'Case', email: `key.${randomUUID()}@example.com`, role },
      { commandLine: 'test' },
    ),
  );
  if (!active) {
    await db().update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, made.member.id));
  }
  return made.member.id;
}

async function staffCase(
  action: 'deactivate' | 'reactivate' | 'reset-password',
): Promise<Prepared> {
  const [id, otherId] = [
    await staffAccount(action !== 'reactivate'),
    await staffAccount(action !== 'reactivate'),
  ];
  return {
    tokens: admin,
    userId: adminId,
    request: { method: 'POST', url: `/api/admin/staff/${id}/${action}`, payload: {} },
    other: { method: 'POST', url: `/api/admin/staff/${otherId}/${action}`, payload: {} },
    effect: async () => [
      await db()
        .select({ hash: users.passwordHash, off: users.deactivatedAt })
        .from(users)
        .where(eq(users.id, id)),
      await auditOf('staff', id),
    ],
    // The temporary password is in the first answer only.
    ...(action === 'reset-password'
      ? { replayed: (first: unknown) => ({ ...(first as object), temporaryPassword: null }) }
      : {}),
  };
}

interface Case {
  /** The route as registered: method and URL pattern. */
  route: string;
  prepare: () => Promise<Prepared>;
}

async function companyCase(action: string, from: 'PENDING' | 'APPROVED' | 'SUSPENDED') {
  const { companyId } = await customer(false);
  if (from !== 'PENDING') await decideCompany(db(), companyId, 'approve');
  if (from === 'SUSPENDED') await decideCompany(db(), companyId, 'suspend');
  const { companyId: otherCompany } = await customer(false);
  if (from !== 'PENDING') await decideCompany(db(), otherCompany, 'approve');
  if (from === 'SUSPENDED') await decideCompany(db(), otherCompany, 'suspend');
  return {
    tokens: admin,
    userId: adminId,
    request: {
      method: 'POST',
      url: `/api/admin/companies/${companyId}/${action}`,
      payload: reasonFor(action),
    },
    other: {
      method: 'POST',
      url: `/api/admin/companies/${otherCompany}/${action}`,
      payload: reasonFor(action),
    },
    effect: async () => [await companyRow(companyId), await auditOf('company', companyId)],
  } satisfies Prepared;
}

async function documentCase(action: 'approve' | 'reject') {
  const { tokens } = await customer(false);
  const documentId = await uploadedDocument(tokens);
  return {
    tokens: admin,
    userId: adminId,
    request: {
      method: 'POST',
      url: `/api/admin/documents/${documentId}/${action}`,
      payload: { reviewNotes: 'Legible' },
    },
    other: {
      method: 'POST',
      url: `/api/admin/documents/${documentId}/${action}`,
      payload: { reviewNotes: 'Stamp missing' },
    },
    effect: async () => [
      await db().select().from(companyDocuments).where(eq(companyDocuments.id, documentId)),
      await auditOf('document', documentId),
    ],
  } satisfies Prepared;
}

async function documentRemovalCase() {
  const { tokens } = await customer(false);
  const [documentId, otherId] = [await uploadedDocument(tokens), await uploadedDocument(tokens)];
  return {
    tokens: admin,
    userId: adminId,
    request: { method: 'DELETE', url: `/api/admin/documents/${documentId}` },
    other: { method: 'DELETE', url: `/api/admin/documents/${otherId}` },
    effect: async () => [
      await db().select().from(companyDocuments).where(eq(companyDocuments.id, documentId)),
      await auditOf('document', documentId),
    ],
  } satisfies Prepared;
}

/** A product made for one case, with demo pictures (SVG) when asked. */
async function catalogueProduct(fields: Partial<typeof products.$inferInsert> = {}) {
  const [row] = await db()
    .insert(products)
    .values({
      sku: `ID-${randomUUID().slice(0, 8).toUpperCase()}`,
      name: 'Idempotent',
      categoryId: 1,
      price: '5.00',
      stock: 5,
      searchText: 'idempotent',
      nameKey: 'idempotent',
      ...fields,
    })
    .returning({ id: products.id });
  return row?.id ?? 0;
}

const productRow = (id: number) => db().select().from(products).where(eq(products.id, id));

const blankTexts = { name: '', shortDescription: '', description: '' };
const newProduct = (sku: string) => ({
  sku,
  price: 4,
  stock: 2,
  categoryId: 1,
  tags: [],
  texts: { ro: { ...blankTexts, name: sku }, en: blankTexts, it: blankTexts },
});

/** A catalogue case on one product: `request` on it, `other` on a second one. */
async function productCase(
  method: Request['method'],
  path: string,
  fields: Partial<typeof products.$inferInsert> = {},
  payload?: object,
) {
  const [id, otherId] = [await catalogueProduct(fields), await catalogueProduct(fields)];
  return {
    tokens: admin,
    userId: adminId,
    request: { method, url: `/api/admin/products/${id}${path}`, ...(payload && { payload }) },
    other: { method, url: `/api/admin/products/${otherId}${path}`, ...(payload && { payload }) },
    effect: async () => [await productRow(id), await auditOf('product', id)],
  } satisfies Prepared;
}

const categoryNames = (ro: string) => ({ names: { ro, en: '', it: '' } });

/** The catalogue's staff routes (services/admin-catalogue.ts); the picture upload is below. */
const CATALOGUE_CASES: Case[] = [
  {
    route: 'POST /api/admin/products',
    prepare() {
      const [sku, otherSku] = [
        `IDN-${randomUUID().slice(0, 6)}`,
        `IDO-${randomUUID().slice(0, 6)}`,
      ].map((text) => text.toUpperCase()) as [string, string];
      return Promise.resolve({
        tokens: admin,
        userId: adminId,
        request: { method: 'POST', url: '/api/admin/products', payload: newProduct(sku) },
        other: { method: 'POST', url: '/api/admin/products', payload: newProduct(otherSku) },
        effect: () => db().select().from(products).where(eq(products.sku, sku)),
      });
    },
  },
  {
    route: 'PATCH /api/admin/products/:id',
    async prepare() {
      const id = await catalogueProduct();
      const url = `/api/admin/products/${id}`;
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'PATCH', url, payload: { price: 6 } },
        other: { method: 'PATCH', url, payload: { price: 7 } },
        effect: async () => [await productRow(id), await auditOf('product', id)],
      };
    },
  },
  {
    route: 'DELETE /api/admin/products/:id',
    prepare: () => productCase('DELETE', ''),
  },
  {
    route: 'POST /api/admin/products/:id/activate',
    prepare: () => productCase('POST', '/activate', { active: false }, {}),
  },
  {
    route: 'POST /api/admin/products/:id/deactivate',
    prepare: () => productCase('POST', '/deactivate', {}, {}),
  },
  {
    route: 'PUT /api/admin/products/:id/pictures',
    async prepare() {
      const [a, b] = ['/uploads/products/a.svg', '/uploads/products/b.svg'];
      const id = await catalogueProduct({ images: [a, b] });
      const url = `/api/admin/products/${id}/pictures`;
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'PUT', url, payload: { images: [b, a] } },
        other: { method: 'PUT', url, payload: { images: [a, b] } },
        effect: async () => [await productRow(id), await auditOf('product', id)],
      };
    },
  },
  {
    route: 'DELETE /api/admin/products/:id/pictures/:file',
    async prepare() {
      const id = await catalogueProduct({
        images: ['/uploads/products/a.svg', '/uploads/products/b.svg'],
      });
      const url = `/api/admin/products/${id}/pictures`;
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'DELETE', url: `${url}/a.svg` },
        other: { method: 'DELETE', url: `${url}/b.svg` },
        effect: async () => [await productRow(id), await auditOf('product', id)],
      };
    },
  },
  {
    route: 'POST /api/admin/categories',
    prepare() {
      const name = `Idem ${randomUUID()}`;
      return Promise.resolve({
        tokens: admin,
        userId: adminId,
        request: { method: 'POST', url: '/api/admin/categories', payload: categoryNames(name) },
        other: {
          method: 'POST',
          url: '/api/admin/categories',
          payload: categoryNames(`Other ${randomUUID()}`),
        },
        effect: () => db().select().from(categories).where(eq(categories.name, name)),
      });
    },
  },
  {
    route: 'PATCH /api/admin/categories/:id',
    async prepare() {
      const [first] = await db().select({ id: categories.id }).from(categories).limit(1);
      const id = first?.id ?? 0;
      const url = `/api/admin/categories/${id}`;
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'PATCH', url, payload: categoryNames(`Renamed ${randomUUID()}`) },
        other: { method: 'PATCH', url, payload: categoryNames(`Other ${randomUUID()}`) },
        effect: async () => [
          await db().select().from(categories).where(eq(categories.id, id)),
          await auditOf('category', id),
        ],
      };
    },
  },
  {
    route: 'PUT /api/admin/categories/order',
    async prepare() {
      const ids = (
        await db()
          .select({ id: categories.id })
          .from(categories)
          .orderBy(asc(categories.position), asc(categories.id))
      ).map((row) => row.id);
      const url = '/api/admin/categories/order';
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'PUT', url, payload: { ids: [...ids].reverse() } },
        other: { method: 'PUT', url, payload: { ids } },
        effect: () =>
          db()
            .select({ id: categories.id, position: categories.position })
            .from(categories)
            .orderBy(asc(categories.id)),
      };
    },
  },
];

/** Every mutating route of a signed-in user or of staff. */
/** A salon user's order list with one product, and another list to change instead. */
async function listCase(
  route: string,
  request: (list: string, productId: number) => Prepared['request'],
): Promise<Prepared> {
  const { tokens, userId } = await customer();
  const productId = await productWithStock(5);
  const [list, otherList] = [randomUUID(), randomUUID()];
  for (const id of [list, otherList]) {
    await send(
      tokens,
      { method: 'PUT', url: `/api/lists/${id}`, payload: { name: 'Back-bar' } },
      randomUUID(),
    );
    await send(
      tokens,
      { method: 'PUT', url: `/api/lists/${id}/items/${productId}`, payload: { quantity: 2 } },
      randomUUID(),
    );
  }
  const made = route === 'PUT /api/lists/:listId';
  return {
    tokens,
    userId,
    request: request(made ? randomUUID() : list, productId),
    other: request(otherList, productId),
    effect: async () => [
      await db()
        .select()
        .from(orderLists)
        .where(eq(orderLists.userId, userId))
        .orderBy(orderLists.id),
      await db()
        .select({ listId: orderListItems.listId, quantity: orderListItems.quantity })
        .from(orderListItems)
        .innerJoin(orderLists, eq(orderLists.id, orderListItems.listId))
        .where(eq(orderLists.userId, userId))
        .orderBy(orderListItems.listId),
    ],
  };
}

const LIST_CASES: Case[] = (
  [
    [
      'PUT /api/lists/:listId',
      (list) => ({ method: 'PUT', url: `/api/lists/${list}`, payload: { name: 'Christmas' } }),
    ],
    ['DELETE /api/lists/:listId', (list) => ({ method: 'DELETE', url: `/api/lists/${list}` })],
    [
      'PUT /api/lists/:listId/items/:productId',
      (list, productId) => ({
        method: 'PUT',
        url: `/api/lists/${list}/items/${productId}`,
        payload: { quantity: 7 },
      }),
    ],
    [
      'DELETE /api/lists/:listId/items/:productId',
      (list, productId) => ({ method: 'DELETE', url: `/api/lists/${list}/items/${productId}` }),
    ],
  ] as const satisfies readonly (readonly [
    string,
    (list: string, productId: number) => Prepared['request'],
  ])[]
).map(([route, request]) => ({ route, prepare: () => listCase(route, request) }));

const CASES: Case[] = [
  ...CATALOGUE_CASES,
  {
    route: 'PUT /api/users/profile',
    async prepare() {
      const { tokens, userId } = await customer();
      return {
        tokens,
        userId,
        request: {
          method: 'PUT',
          url: '/api/users/profile',
          payload: { firstName: 'Maria', lastName: 'Ionescu' },
        },
        other: {
          method: 'PUT',
          url: '/api/users/profile',
          payload: { firstName: 'Elena', lastName: 'Ionescu' },
        },
        effect: () => userRow(userId),
      };
    },
  },
  {
    route: 'PUT /api/users/password',
    async prepare() {
      const { tokens, userId } = await customer();
      return {
        tokens,
        userId,
        request: {
          method: 'PUT',
          url: '/api/users/password',
          payload: { currentPassword: PASSWORD, newPassword: 'Changed-Pass-2' },
        },
        other: {
          method: 'PUT',
          url: '/api/users/password',
          payload: { currentPassword: PASSWORD, newPassword: 'Another-Pass-3' },
        },
        effect: () => userRow(userId),
      };
    },
  },
  {
    route: 'PUT /api/users/notifications',
    async prepare() {
      const { tokens, userId } = await customer();
      const settings = {
        orderNotifications: false,
        newProductNotifications: true,
        marketingNewsletter: true,
      };
      return {
        tokens,
        userId,
        request: { method: 'PUT', url: '/api/users/notifications', payload: settings },
        other: {
          method: 'PUT',
          url: '/api/users/notifications',
          payload: { ...settings, marketingNewsletter: false },
        },
        effect: () => userRow(userId),
      };
    },
  },
  {
    route: 'POST /api/auth/verify-email/resend',
    async prepare() {
      const { tokens, userId } = await customer();
      return {
        tokens,
        userId,
        request: { method: 'POST', url: '/api/auth/verify-email/resend', payload: {} },
        // The route takes no data: the other request is another route of the same user.
        other: {
          method: 'PUT',
          url: '/api/users/notifications',
          payload: {
            orderNotifications: false,
            newProductNotifications: true,
            marketingNewsletter: false,
          },
        },
        // A repeat queues no second message.
        effect: () =>
          db().select({ id: mailQueue.id }).from(mailQueue).where(eq(mailQueue.userId, userId)),
      };
    },
  },
  {
    route: 'DELETE /api/users/me',
    async prepare() {
      const { tokens, userId } = await customer();
      return {
        tokens,
        userId,
        request: { method: 'DELETE', url: '/api/users/me', payload: { password: PASSWORD } },
        // Deleting is the last request of a session: the other request goes first.
        other: {
          method: 'PUT',
          url: '/api/users/profile',
          payload: { firstName: 'Maria', lastName: 'Ionescu' },
        },
        effect: () => userRow(userId),
        endsSession: true,
      };
    },
  },
  {
    route: 'POST /api/cart/add',
    async prepare() {
      const { tokens, userId } = await customer();
      const productId = await productWithStock(1);
      return {
        tokens,
        userId,
        request: { method: 'POST', url: '/api/cart/add', payload: { productId, quantity: 2 } },
        other: { method: 'POST', url: '/api/cart/add', payload: { productId, quantity: 1 } },
        effect: () => cartOf(userId),
      };
    },
  },
  {
    route: 'PUT /api/cart/items/:id',
    async prepare() {
      const { tokens, userId } = await customer();
      const productId = await productWithStock(2);
      await addToCart(tokens, productId);
      const url = `/api/cart/items/${productId}`;
      return {
        tokens,
        userId,
        request: { method: 'PUT', url, payload: { quantity: 3 } },
        other: { method: 'PUT', url, payload: { quantity: 2 } },
        effect: () =>
          db()
            .select()
            .from(cartItems)
            .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId))),
      };
    },
  },
  {
    route: 'DELETE /api/cart/items/:id',
    async prepare() {
      const { tokens, userId } = await customer();
      const [first, second] = [await productWithStock(3), await productWithStock(4)];
      await addToCart(tokens, first);
      await addToCart(tokens, second);
      return {
        tokens,
        userId,
        request: { method: 'DELETE', url: `/api/cart/items/${first}` },
        other: { method: 'DELETE', url: `/api/cart/items/${second}` },
        effect: () => cartOf(userId),
      };
    },
  },
  ...LIST_CASES,
  {
    route: 'DELETE /api/cart',
    async prepare() {
      const { tokens, userId } = await customer();
      const productId = await productWithStock(5);
      await addToCart(tokens, productId);
      return {
        tokens,
        userId,
        request: { method: 'DELETE', url: '/api/cart' },
        // Clearing has no body to vary: the other request is another call of the cart.
        other: { method: 'POST', url: '/api/cart/add', payload: { productId, quantity: 1 } },
        effect: () => cartOf(userId),
      };
    },
  },
  {
    route: 'POST /api/rep/customers/:id/orders',
    async prepare() {
      const { companyId } = await customer();
      const repId = await staffAccount(true, 'SALES_REP');
      await db().update(companies).set({ salesRepId: repId }).where(eq(companies.id, companyId));
      const productId = await productWithStock(7);
      const url = `/api/rep/customers/${companyId}/orders`;
      const payload = { items: [{ productId, quantity: 2 }], shippingAddress: ADDRESS };
      return {
        tokens: await openSession(db(), repId),
        userId: repId,
        request: { method: 'POST', url, payload },
        other: { method: 'POST', url, payload: { ...payload, notes: 'At the booth' } },
        effect: async () => [
          await db().select({ n: count() }).from(orders).where(eq(orders.companyId, companyId)),
          await stockOf(productId),
        ],
      };
    },
  },
  {
    route: 'POST /api/rep/customers',
    async prepare() {
      const repId = await staffAccount(true, 'SALES_REP');
      const registration = (taxNumber: string) => ({
        companyName: 'Salon la Stand',
        taxNumber,
        registrationNumber: 'J12/345/2021',
        companyEmail: 'stand@example.com',
        companyPhone: '+40 264 000 111',
        address: 'Strada Horea 1',
        city: 'Cluj-Napoca',
        postalCode: '400174',
        country: 'Romania',
      });
      const taxNumber = `RO${randomUUID().replace(/\D/g, '').slice(0, 12)}`;
      const otherTaxNumber = `RO${randomUUID().replace(/\D/g, '').slice(0, 12)}`;
      return {
        tokens: await openSession(db(), repId),
        userId: repId,
        request: { method: 'POST', url: '/api/rep/customers', payload: registration(taxNumber) },
        other: {
          method: 'POST',
          url: '/api/rep/customers',
          payload: registration(otherTaxNumber),
        },
        effect: () =>
          db()
            .select({ id: companies.id, taxNumber: companies.taxNumber })
            .from(companies)
            .where(eq(companies.registeredByRepId, repId))
            .orderBy(asc(companies.id)),
      };
    },
  },
  {
    route: 'POST /api/cart/checkout',
    async prepare() {
      const { tokens, userId, companyId } = await customer();
      const productId = await productWithStock(6);
      await addToCart(tokens, productId, 2);
      return {
        tokens,
        userId,
        request: {
          method: 'POST',
          url: '/api/cart/checkout',
          payload: { shippingAddress: ADDRESS },
        },
        other: {
          method: 'POST',
          url: '/api/cart/checkout',
          payload: { shippingAddress: ADDRESS, notes: 'Deliver after 10:00' },
        },
        effect: async () => [
          await db().select({ n: count() }).from(orders).where(eq(orders.companyId, companyId)),
          await stockOf(productId),
        ],
      };
    },
  },
  {
    route: 'DELETE /api/orders/:id',
    async prepare() {
      const { tokens, userId } = await customer();
      const productId = await productWithStock(7);
      const orderId = await placeOrder(tokens, productId);
      const url = `/api/orders/${orderId}`;
      return {
        tokens,
        userId,
        request: { method: 'DELETE', url, payload: { cancellationReason: 'Ordered twice' } },
        other: { method: 'DELETE', url, payload: { cancellationReason: 'Wrong shade' } },
        effect: async () => [await orderRow(orderId), await stockOf(productId)],
      };
    },
  },
  {
    route: 'POST /api/admin/companies/:id/approve',
    prepare: () => companyCase('approve', 'PENDING'),
  },
  {
    route: 'POST /api/admin/companies/:id/reject',
    prepare: () => companyCase('reject', 'PENDING'),
  },
  {
    route: 'POST /api/admin/companies/:id/suspend',
    prepare: () => companyCase('suspend', 'APPROVED'),
  },
  {
    route: 'POST /api/admin/companies/:id/reactivate',
    prepare: () => companyCase('reactivate', 'SUSPENDED'),
  },
  {
    route: 'PUT /api/admin/companies/:id/sales-rep',
    async prepare() {
      const { companyId } = await customer(false);
      const [rep, otherRep] = [
        await staffAccount(true, 'SALES_REP'),
        await staffAccount(true, 'SALES_REP'),
      ];
      const url = `/api/admin/companies/${companyId}/sales-rep`;
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'PUT', url, payload: { salesRepId: rep } },
        other: { method: 'PUT', url, payload: { salesRepId: otherRep } },
        effect: async () => [await companyRow(companyId), await auditOf('company', companyId)],
      };
    },
  },
  {
    route: 'PATCH /api/admin/companies/:id',
    async prepare() {
      const { companyId } = await customer(false);
      const url = `/api/admin/companies/${companyId}`;
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'PATCH', url, payload: { city: 'Brașov' } },
        other: { method: 'PATCH', url, payload: { city: 'Sibiu' } },
        effect: async () => [await companyRow(companyId), await auditOf('company', companyId)],
      };
    },
  },
  {
    route: 'POST /api/admin/documents/:id/approve',
    prepare: () => documentCase('approve'),
  },
  {
    route: 'POST /api/admin/documents/:id/reject',
    prepare: () => documentCase('reject'),
  },
  {
    route: 'DELETE /api/admin/documents/:id',
    prepare: documentRemovalCase,
  },
  {
    route: 'POST /api/admin/booth-details/:id/dismiss',
    async prepare() {
      const { companyId, userId } = await customer(false);
      const [entry, otherEntry] = await db()
        .insert(boothDetails)
        .values([
          { companyId, repId: userId, details: { city: 'Turda' } },
          { companyId, repId: userId, details: { city: 'Dej' } },
        ])
        .returning({ id: boothDetails.id });
      const url = (id = 0) => `/api/admin/booth-details/${id}/dismiss`;
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'POST', url: url(entry?.id), payload: {} },
        other: { method: 'POST', url: url(otherEntry?.id), payload: {} },
        effect: async () => [
          await db().select().from(boothDetails).where(eq(boothDetails.companyId, companyId)),
          await auditOf('company', companyId),
        ],
      };
    },
  },
  {
    route: 'POST /api/admin/staff',
    prepare() {
      const [email, otherEmail] = [
        `new.${randomUUID()}@example.com`,
        `new.${randomUUID()}@example.com`,
      ];
      const staffOf = () => db().select({ id: users.id }).from(users).where(eq(users.email, email));
      return Promise.resolve({
        tokens: admin,
        userId: adminId,
        request: {
          method: 'POST',
          url: '/api/admin/staff',
          payload: { firstName: 'Nou', lastName: 'Coleg', email },
        },
        other: {
          method: 'POST',
          url: '/api/admin/staff',
          payload: { firstName: 'Alt', lastName: 'Coleg', email: otherEmail },
        },
        effect: async () => {
          const rows = await staffOf();
          return [rows, rows[0] ? await auditOf('staff', rows[0].id) : []];
        },
        replayed: (first) => ({ ...(first as object), temporaryPassword: null }),
      });
    },
  },
  { route: 'POST /api/admin/staff/:id/deactivate', prepare: () => staffCase('deactivate') },
  { route: 'POST /api/admin/staff/:id/reactivate', prepare: () => staffCase('reactivate') },
  {
    route: 'POST /api/admin/staff/:id/reset-password',
    prepare: () => staffCase('reset-password'),
  },
  {
    route: 'POST /api/admin/orders/:id/status',
    async prepare() {
      const { tokens } = await customer();
      const productId = await productWithStock(8);
      const [orderId, otherId] = [
        await placeOrder(tokens, productId),
        await placeOrder(tokens, productId),
      ];
      return {
        tokens: admin,
        userId: adminId,
        request: {
          method: 'POST',
          url: `/api/admin/orders/${orderId}/status`,
          payload: { status: 'CONFIRMED' },
        },
        // From PENDING the only step is CONFIRMED: the other request moves another order.
        other: {
          method: 'POST',
          url: `/api/admin/orders/${otherId}/status`,
          payload: { status: 'CONFIRMED' },
        },
        effect: async () => [await orderRow(orderId), await auditOf('order', orderId)],
      };
    },
  },
  {
    route: 'POST /api/admin/orders/:id/payment',
    async prepare() {
      const { tokens } = await customer();
      const orderId = await placeOrder(tokens, await productWithStock(9));
      const url = `/api/admin/orders/${orderId}/payment`;
      return {
        tokens: admin,
        userId: adminId,
        request: { method: 'POST', url, payload: { paymentStatus: 'PAID' } },
        other: { method: 'POST', url, payload: { paymentStatus: 'FAILED' } },
        effect: async () => [await orderRow(orderId), await auditOf('order', orderId)],
      };
    },
  },
];

/** Mutating routes anyone may call without signing in: no user to bind a key to. */
const ANONYMOUS_ROUTES = [
  'POST /api/auth/register',
  'POST /api/auth/register-company',
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  'POST /api/auth/verify-email',
  'POST /api/newsletter',
];

/**
 * Honour Idempotency-Key through runIdempotent itself (they read a multipart upload before
 * its transaction); tested in documents.test.ts and sales-reps.test.ts.
 */
const UPLOAD_ROUTES = ['POST /api/companies/me/documents', 'POST /api/rep/customers/:id/documents'];
/** Goes through `once` after reading its multipart file; tested in admin-catalogue.test.ts. */
const PICTURE_ROUTE = 'POST /api/admin/products/:id/pictures';

const recordOf = (userId: number, key: string) =>
  db()
    .select({ fingerprint: idempotencyKeys.fingerprint })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));

describe('Idempotency-Key on every mutating route', () => {
  it('is honoured by every POST, PUT, PATCH and DELETE under /api but the anonymous ones', () => {
    const mutating = (registeredRoutes.get(app) ?? [])
      .filter(
        (r) => r.url.startsWith('/api/') && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method),
      )
      .map((r) => `${r.method} ${r.url}`);
    const covered = new Set([
      ...CASES.map((c) => c.route),
      ...ANONYMOUS_ROUTES,
      ...UPLOAD_ROUTES,
      PICTURE_ROUTE,
    ]);
    expect(mutating.filter((route) => !covered.has(route))).toEqual([]);
    // And the table names only routes that exist.
    expect(CASES.map((c) => c.route).filter((route) => !mutating.includes(route))).toEqual([]);
  });

  it.each(CASES)(
    '$route answers the same key twice with the recorded response and changes things once',
    async ({ prepare }) => {
      const { tokens, userId, request, effect, endsSession, replayed } = await prepare();
      const key = randomUUID();
      const first = await send(tokens, request, key);
      expect(first.statusCode).toBeLessThan(300);
      const after = await effect();
      const again = await send(tokens, request, key);
      if (endsSession) {
        // The account is gone with its sessions, so its token is refused before any replay;
        // the deletion was recorded under the key all the same.
        expect(again.statusCode).toBe(401);
        expect(await recordOf(userId, key)).toHaveLength(1);
      } else {
        expect(again.statusCode).toBe(first.statusCode);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json()).toEqual(replayed ? replayed(first.json()) : first.json());
      }
      expect(await effect()).toEqual(after);
    },
  );

  it.each(CASES)(
    '$route answers 422 to a key already used for another request, and changes nothing',
    async ({ prepare }) => {
      const { tokens, request, other, effect } = await prepare();
      const key = randomUUID();
      expect((await send(tokens, other, key)).statusCode).toBeLessThan(300);
      const before = await effect();
      const reused = await send(tokens, request, key);
      expect(reused.statusCode).toBe(422);
      expect(reused.json<ErrorBody>().code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await effect()).toEqual(before);
    },
  );

  it('keeps no fast digest of a request that carries a password', async () => {
    const { tokens, userId } = await customer();
    const key = randomUUID();
    const response = await send(
      tokens,
      {
        method: 'PUT',
        url: '/api/users/password',
        payload: { currentPassword: PASSWORD, newPassword: 'Changed-Pass-2' },
      },
      key,
    );
    expect(response.statusCode).toBe(200);
    const [record] = await recordOf(userId, key);
    // Salted and slow, like the account's own password hash.
    expect(record?.fingerprint).toMatch(/^\$argon2id\$/);
  });
});
