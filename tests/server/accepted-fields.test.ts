/**
 * What a route accepts, it keeps: every field of every JSON body is sent with a value of
 * its own and read back where a client would look for it. (The two registration forms
 * are read back field by field in registration.test.ts.) A last test checks that the
 * bodies sent here name every field the routes' schemas accept.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, registeredRoutes } from '../../server/app';
import {
  mailQueue,
  newsletterSubscriptions,
  products,
  refreshTokens,
  users,
} from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import { decideCompany, ensureAdmin } from '../../server/services/admin';
import type { Company, CompanyDocument, User } from '../../src/contracts/accounts';
import type { ErrorBody } from '../../src/contracts/error-schema';
import type { OrderLists } from '../../src/contracts/order-lists';
import type { Cart, Order } from '../../src/contracts/orders';
import { ADDRESS, bearer, multipart, PDF, PNG, register, signIn, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Tokens;
/** Every field name sent in a JSON body here, by route ("METHOD url"). */
const sent = new Map<string, Set<string>>();

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  await ensureAdmin(testDb.database.db, 'fields.staff@example.com', 'Fields-Staff-1');
  staff = await signIn(app, 'fields.staff@example.com', 'Fields-Staff-1');
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/** Sends a JSON body to a route (`url` as registered, `path` as called), noting its fields. */
async function send(
  tokens: Tokens | null,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  path: string,
  payload: Record<string, unknown>,
) {
  const names = sent.get(`${method} ${url}`) ?? new Set<string>();
  const note = (prefix: string, value: Record<string, unknown>) => {
    for (const [key, inner] of Object.entries(value)) {
      names.add(prefix + key);
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
        note(`${prefix}${key}.`, inner as Record<string, unknown>);
      }
    }
  };
  note('', payload);
  sent.set(`${method} ${url}`, names);
  const response = await app.inject({
    method,
    url: path,
    payload,
    headers: tokens ? bearer(tokens) : {},
  });
  expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
  return response;
}

const read = async <Body>(tokens: Tokens, url: string) =>
  (await app.inject({ url, headers: bearer(tokens) })).json<Body>();

async function buyer() {
  const { email, password, user } = await register(app);
  await decideCompany(testDb.database.db, user.companyId, 'approve');
  return { email, password, user, tokens: await signIn(app, email, password) };
}

describe('accounts', () => {
  it('keep the names of a profile, and its e-mail is the account’s own', async () => {
    const { email, tokens } = await buyer();
    await send(tokens, 'PUT', '/api/users/profile', '/api/users/profile', {
      firstName: 'Irina',
      lastName: 'Marin',
      email,
    });
    expect((await read<{ user: User }>(tokens, '/api/auth/me')).user).toMatchObject({
      firstName: 'Irina',
      lastName: 'Marin',
      email,
    });
  });

  it('keep each notification setting', async () => {
    const { tokens } = await buyer();
    const settings = {
      orderNotifications: false,
      newProductNotifications: false,
      marketingNewsletter: true,
    };
    await send(tokens, 'PUT', '/api/users/notifications', '/api/users/notifications', settings);
    expect((await read<{ user: User }>(tokens, '/api/auth/me')).user.notifications).toEqual(
      settings,
    );
  });

  it('keep a new password, and sign-in without "remember me" gets a working day', async () => {
    const { email, password, tokens } = await buyer();
    await send(tokens, 'PUT', '/api/users/password', '/api/users/password', {
      currentPassword: password,
      newPassword: 'Another-Pass-9',
    });
    const session = (
      await send(null, 'POST', '/api/auth/login', '/api/auth/login', {
        email,
        password: 'Another-Pass-9',
        rememberMe: false,
      })
    ).json<Tokens & { user: { id: number } }>();
    const [token] = await testDb.database.db
      .select({ expiresAt: refreshTokens.expiresAt, createdAt: refreshTokens.createdAt })
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, session.user.id))
      .orderBy(desc(refreshTokens.id))
      .limit(1);
    const hours =
      ((token?.expiresAt.getTime() ?? 0) - (token?.createdAt.getTime() ?? 0)) / 3_600_000;
    expect(Math.round(hours)).toBe(12);
    // The session's own tokens are sent back as they are: nothing to keep.
    await send(null, 'POST', '/api/auth/refresh', '/api/auth/refresh', {
      refreshToken: session.refreshToken,
    });
  });

  it('end with the password that confirms the deletion', async () => {
    const { password, tokens, user } = await buyer();
    await send(tokens, 'DELETE', '/api/users/me', '/api/users/me', { password });
    const [row] = await testDb.database.db
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row?.deletedAt).not.toBeNull();
  });

  it('sign out with the refresh token given', async () => {
    const { email, password } = await buyer();
    const tokens = await signIn(app, email, password);
    await send(null, 'POST', '/api/auth/logout', '/api/auth/logout', {
      refreshToken: tokens.refreshToken,
    });
    expect((await app.inject({ url: '/api/auth/me', headers: bearer(tokens) })).statusCode).toBe(
      401,
    );
  });

  it('take a reset request’s address, its link’s new password and a confirmation link’s token', async () => {
    const { email, user } = await buyer();
    const tokenOf = async (kind: 'password-reset' | 'verify-email') => {
      const [message] = await testDb.database.db
        .select({ data: mailQueue.data })
        .from(mailQueue)
        .where(and(eq(mailQueue.userId, user.id), eq(mailQueue.kind, kind)))
        .orderBy(desc(mailQueue.id));
      return new URL(String(message?.data.link)).searchParams.get('token') ?? '';
    };
    await send(null, 'POST', '/api/auth/password-reset', '/api/auth/password-reset', { email });
    await send(
      null,
      'POST',
      '/api/auth/password-reset/confirm',
      '/api/auth/password-reset/confirm',
      {
        token: await tokenOf('password-reset'),
        newPassword: 'Reset-Kept-Pass-3',
      },
    );
    expect((await signIn(app, email, 'Reset-Kept-Pass-3')).accessToken).toBeTruthy();
    await send(null, 'POST', '/api/auth/verify-email', '/api/auth/verify-email', {
      token: await tokenOf('verify-email'),
    });
    const me = await read<{ user: User }>(
      await signIn(app, email, 'Reset-Kept-Pass-3'),
      '/api/auth/me',
    );
    expect(me.user.emailVerified).toBe(true);
  });

  it('subscribe the newsletter’s address in its language', async () => {
    const email = `news.${randomUUID()}@example.com`;
    await send(null, 'POST', '/api/newsletter', '/api/newsletter', { email, locale: 'it' });
    const [row] = await testDb.database.db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, email));
    expect(row?.locale).toBe('it');
  });
});

describe('cart and orders', () => {
  it('keep the product and quantity of a line, the whole address, notes, reference and cancellation reason', async () => {
    const { tokens } = await buyer();
    const [product] = await testDb.database.db
      .update(products)
      .set({ stock: 50 })
      .where(eq(products.id, 3))
      .returning({ id: products.id });
    const productId = product?.id ?? 0;
    await send(tokens, 'POST', '/api/cart/add', '/api/cart/add', { productId, quantity: 2 });
    await send(tokens, 'PUT', '/api/cart/items/:id', `/api/cart/items/${productId}`, {
      quantity: 4,
    });
    expect((await read<Cart>(tokens, '/api/cart')).items).toEqual([
      expect.objectContaining({ productId, quantity: 4 }),
    ]);

    const shippingAddress = {
      firstName: 'Elena',
      lastName: 'Dobre',
      street: 'Bulevardul Unirii 12',
      city: 'București',
      zipCode: '030167',
      country: 'Romania',
      phone: '+40 21 555 0101',
    };
    const checkout = {
      shippingAddress,
      notes: 'Back door, after 14:00',
      clientReference: 'device-ref-42',
    };
    // The lines the user confirmed: the four in the cart.
    const items = [{ productId, quantity: 4 }];
    const created = await send(tokens, 'POST', '/api/cart/checkout', '/api/cart/checkout', {
      ...checkout,
      items,
    });
    const orderId = created.json<{ order: { id: number } }>().order.id;
    const order = (await read<{ order: Order }>(tokens, `/api/orders/${orderId}`)).order;
    expect(order).toMatchObject(checkout);
    expect(order.orderItems).toEqual([expect.objectContaining(items[0])]);

    await send(tokens, 'DELETE', '/api/orders/:id', `/api/orders/${orderId}`, {
      cancellationReason: 'Ordered twice by mistake',
    });
    expect((await read<{ order: Order }>(tokens, `/api/orders/${orderId}`)).order).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'Ordered twice by mistake',
    });
  });

  it('keep the status, tracking number, payment and cancellation staff set', async () => {
    const { tokens } = await buyer();
    await testDb.database.db.update(products).set({ stock: 50 }).where(eq(products.id, 5));
    const place = async () => {
      await send(tokens, 'POST', '/api/cart/add', '/api/cart/add', { productId: 5, quantity: 1 });
      const created = await send(tokens, 'POST', '/api/cart/checkout', '/api/cart/checkout', {
        shippingAddress: {
          firstName: 'Radu',
          lastName: 'Ene',
          street: 'Strada Mare 5',
          city: 'Iași',
          zipCode: '700001',
          country: 'Romania',
          phone: '+40 232 555 010',
        },
      });
      return created.json<{ order: { id: number } }>().order.id;
    };
    const orderId = await place();
    const move = (id: number, body: Record<string, unknown>) =>
      send(staff, 'POST', '/api/admin/orders/:id/status', `/api/admin/orders/${id}/status`, body);
    await move(orderId, { status: 'CONFIRMED' });
    await move(orderId, { status: 'PROCESSING' });
    await move(orderId, { status: 'SHIPPED', trackingNumber: '  RO-AWB 4471  ' });
    await send(
      staff,
      'POST',
      '/api/admin/orders/:id/payment',
      `/api/admin/orders/${orderId}/payment`,
      { paymentStatus: 'PAID', note: 'Statement 12' },
    );
    expect((await read<{ order: Order }>(tokens, `/api/orders/${orderId}`)).order).toMatchObject({
      status: 'SHIPPED',
      trackingNumber: 'RO-AWB 4471',
      paymentStatus: 'PAID',
    });

    const cancelledId = await place();
    await move(cancelledId, { status: 'CANCELLED', reason: 'The salon closed' });
    expect(
      (await read<{ order: Order }>(tokens, `/api/orders/${cancelledId}`)).order,
    ).toMatchObject({ status: 'CANCELLED', cancellationReason: 'The salon closed' });
  });
});

describe('staff decisions', () => {
  it('show the salon the reason of a rejection and of a suspension', async () => {
    const rejected = await register(app);
    const rejectedTokens = await signIn(app, rejected.email, rejected.password);
    await send(
      staff,
      'POST',
      '/api/admin/companies/:id/reject',
      `/api/admin/companies/${rejected.user.companyId}/reject`,
      { reason: 'The VAT number does not match the company' },
    );
    expect(
      (await read<{ company: Company }>(rejectedTokens, '/api/companies/me')).company,
    ).toMatchObject({
      status: 'REJECTED',
      statusReason: 'The VAT number does not match the company',
    });

    const { tokens, user } = await buyer();
    await send(
      staff,
      'POST',
      '/api/admin/companies/:id/suspend',
      `/api/admin/companies/${user.companyId}/suspend`,
      { reason: 'Unpaid invoices' },
    );
    expect((await read<{ company: Company }>(tokens, '/api/companies/me')).company).toMatchObject({
      status: 'SUSPENDED',
      statusReason: 'Unpaid invoices',
    });
  });

  it('refuse a reason for approving or reactivating, which clear it', async () => {
    const { user } = await register(app);
    const response = await app.inject({
      method: 'POST',
      url: `/api/admin/companies/${user.companyId}/approve`,
      payload: { reason: 'Looks fine' },
      headers: bearer(staff),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().details).toEqual([
      expect.objectContaining({ field: 'reason', message: 'is not a known field' }),
    ]);
  });

  it("keep every field of a company's data that staff correct", async () => {
    const { tokens, user } = await buyer();
    const corrected = {
      name: 'Salon Corectat SRL',
      taxNumber: 'RO99887766',
      registrationNumber: 'J12/345/2020',
      email: 'office@corectat.example',
      phone: '+40 264 555 099',
      address: 'Strada Nouă 5',
      city: 'Cluj-Napoca',
      state: 'Cluj',
      postalCode: '400002',
      country: 'Romania',
      website: 'https://corectat.example',
    };
    await send(
      staff,
      'PATCH',
      '/api/admin/companies/:id',
      `/api/admin/companies/${user.companyId}`,
      corrected,
    );
    expect((await read<{ company: Company }>(tokens, '/api/companies/me')).company).toMatchObject(
      corrected,
    );
  });

  it('keep every field of a new staff account and of its assignment to a company', async () => {
    const fields = {
      firstName: 'Mihaela',
      lastName: 'Stoica',
      email: `fields.${randomUUID()}@example.com`,
      role: 'SALES_REP',
    };
    const response = await send(staff, 'POST', '/api/admin/staff', '/api/admin/staff', fields);
    const created = response.json<{ member: { id: number }; temporaryPassword: string }>();
    const listed = await read<{ staff: { id: number }[] }>(staff, '/api/admin/staff');
    expect(listed.staff.find((member) => member.id === created.member.id)).toMatchObject(fields);
    const tokens = await signIn(app, fields.email, created.temporaryPassword);
    expect((await read<{ user: User }>(tokens, '/api/auth/me')).user).toMatchObject(fields);

    const { user, tokens: salonTokens } = await buyer();
    const assigned = await send(
      staff,
      'PUT',
      '/api/admin/companies/:id/sales-rep',
      `/api/admin/companies/${user.companyId}/sales-rep`,
      { salesRepId: created.member.id },
    );
    expect(assigned.json<{ salesRep: { id: number } }>().salesRep.id).toBe(created.member.id);
    const customers = await read<{ customers: { id: number }[] }>(tokens, '/api/rep/customers');
    expect(customers.customers.map((customer) => customer.id)).toEqual([user.companyId]);

    // An order the rep takes for the customer keeps every field it was sent with.
    const [product] = await testDb.database.db
      .select({ id: products.id })
      .from(products)
      .where(gt(products.stock, 5))
      .limit(1);
    const order = {
      items: [{ productId: product?.id ?? 0, quantity: 2 }],
      shippingAddress: ADDRESS,
      notes: 'Livrare la salon, după ora 10',
      clientReference: `rep-${randomUUID()}`,
      signature: PNG.toString('base64'),
    };
    const placed = await send(
      tokens,
      'POST',
      '/api/rep/customers/:id/orders',
      `/api/rep/customers/${user.companyId}/orders`,
      order,
    );
    const { id } = placed.json<{ order: { id: number } }>().order;
    const { order: stored } = await read<{ order: Order }>(salonTokens, `/api/orders/${id}`);
    expect(stored).toMatchObject({
      notes: order.notes,
      clientReference: order.clientReference,
      shippingAddress: order.shippingAddress,
      orderItems: [expect.objectContaining({ productId: product?.id, quantity: 2 })],
    });
    const signature = await app.inject({
      url: `/api/orders/${id}/signature`,
      headers: bearer(salonTokens),
    });
    expect(signature.rawPayload.equals(PNG)).toBe(true);
  });

  it('show the salon the note of a reviewed document', async () => {
    const { tokens } = await buyer();
    const upload = multipart({}, [
      {
        field: 'tradeRegister',
        filename: 'registry.pdf',
        contentType: 'application/pdf',
        data: PDF,
      },
    ]);
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/companies/me/documents',
      ...upload,
      headers: { ...upload.headers, ...bearer(tokens) },
    });
    const documentId = uploaded.json<{ documents: { id: number }[] }>().documents[0]?.id ?? 0;
    for (const [action, reviewNotes] of [
      ['approve', 'Readable and current'],
      ['reject', 'Older than three months'],
    ] as const) {
      await send(
        staff,
        'POST',
        `/api/admin/documents/:id/${action}`,
        `/api/admin/documents/${documentId}/${action}`,
        { reviewNotes },
      );
      const { documents } = await read<{ documents: CompanyDocument[] }>(
        tokens,
        '/api/companies/me/documents',
      );
      expect(documents).toEqual([expect.objectContaining({ id: documentId, reviewNotes })]);
    }
  });
});

describe('field sales', () => {
  it('keep every field of a salon a rep registers at the booth, as staff and the rep read it', async () => {
    const email = `booth.${randomUUID()}@example.com`;
    const made = await app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      payload: { firstName: 'Teodor', lastName: 'Lazăr', email, role: 'SALES_REP' },
      headers: bearer(staff),
    });
    const rep = await signIn(
      app,
      email,
      made.json<{ temporaryPassword: string }>().temporaryPassword,
    );
    const fields = {
      companyName: 'Salon Ariadna',
      taxNumber: `RO${Date.now()}`,
      registrationNumber: 'J40/1234/2020',
      companyEmail: 'office@ariadna.example',
      companyPhone: '+40 721 000 111',
      address: 'Strada Lipscani 10',
      city: 'București',
      postalCode: '030031',
      country: 'Romania',
      website: 'ariadna.example',
    };
    const registered = await send(rep, 'POST', '/api/rep/customers', '/api/rep/customers', fields);
    const { id } = registered.json<{ customer: { id: number } }>().customer;
    const detail = await read<{ company: Company }>(staff, `/api/admin/companies/${id}`);
    expect(detail.company).toMatchObject({
      name: fields.companyName,
      taxNumber: fields.taxNumber,
      registrationNumber: fields.registrationNumber,
      email: fields.companyEmail,
      phone: fields.companyPhone,
      address: fields.address,
      city: fields.city,
      postalCode: fields.postalCode,
      country: fields.country,
      website: fields.website,
    });
  });
});

describe('the back office catalogue', () => {
  const texts = (name: string) => ({
    name,
    shortDescription: `${name}, short`,
    description: `${name}, long`,
  });

  it('keeps every field of a product staff create and change, as the storefront shows it', async () => {
    const { tokens } = await buyer();
    const created = await send(staff, 'POST', '/api/admin/products', '/api/admin/products', {
      sku: 'AF-0001',
      ean: '5949990100015',
      price: 24.5,
      stock: 12,
      categoryId: 2,
      tags: ['argan', 'vegan'],
      texts: { ro: texts('Ulei de argan'), en: texts('Argan oil'), it: texts('Olio di argan') },
      active: true,
    });
    const id = created.json<{ product: { id: number } }>().product.id;
    const changed = {
      sku: 'AF-0002',
      ean: '5949990100022',
      price: 26,
      stock: 9,
      categoryId: 3,
      tags: ['argan'],
      texts: { ro: texts('Ulei pur'), en: texts('Pure oil'), it: texts('Olio puro') },
    };
    await send(staff, 'PATCH', '/api/admin/products/:id', `/api/admin/products/${id}`, changed);
    const { product } = await read<{ product: Record<string, unknown> }>(
      tokens,
      `/api/products/${id}`,
    );
    expect(product).toMatchObject({
      sku: 'AF-0002',
      ean: '5949990100022',
      price: 26,
      stock: 9,
      categoryId: 3,
      tags: ['argan'],
      ...changed.texts.ro,
      translations: { en: changed.texts.en, it: changed.texts.it },
    });
  });

  it('keeps the order of pictures and of categories, and the names of a category', async () => {
    const { tokens } = await buyer();
    const [row] = await testDb.database.db
      .insert(products)
      .values({
        sku: 'AF-PICS',
        name: 'Pictures',
        categoryId: 1,
        price: '1.00',
        images: ['/uploads/products/a.svg', '/uploads/products/b.svg'],
        searchText: 'pictures',
        nameKey: 'pictures',
      })
      .returning({ id: products.id });
    const images = ['/uploads/products/b.svg', '/uploads/products/a.svg'];
    await send(
      staff,
      'PUT',
      '/api/admin/products/:id/pictures',
      `/api/admin/products/${row?.id}/pictures`,
      { images },
    );
    expect(
      (await read<{ product: { images: string[] } }>(tokens, `/api/products/${row?.id}`)).product
        .images,
    ).toEqual(images);

    const names = { ro: 'Uleiuri AF', en: 'AF oils', it: 'Oli AF' };
    const created = await send(staff, 'POST', '/api/admin/categories', '/api/admin/categories', {
      names,
    });
    const id = created.json<{ category: { id: number } }>().category.id;
    const renamed = { ro: 'Uleiuri', en: 'Oils', it: 'Oli' };
    await send(staff, 'PATCH', '/api/admin/categories/:id', `/api/admin/categories/${id}`, {
      names: renamed,
    });
    const before = await read<{ categories: { id: number }[] }>(tokens, '/api/products/categories');
    const ids = [id, ...before.categories.map((c) => c.id).filter((c) => c !== id)];
    await send(staff, 'PUT', '/api/admin/categories/order', '/api/admin/categories/order', { ids });
    const after = await read<{ categories: { id: number; names?: object }[] }>(
      tokens,
      '/api/products/categories',
    );
    expect(after.categories.map((c) => c.id)).toEqual(ids);
    expect(after.categories[0]?.names).toEqual(renamed);
  });
});

describe('order lists', () => {
  it('keep a list’s name and each product’s quantity', async () => {
    const { tokens } = await buyer();
    const [product] = await testDb.database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.active, true))
      .limit(1);
    const id = randomUUID();
    await send(tokens, 'PUT', '/api/lists/:listId', `/api/lists/${id}`, { name: 'Back-bar' });
    await send(
      tokens,
      'PUT',
      '/api/lists/:listId/items/:productId',
      `/api/lists/${id}/items/${product!.id}`,
      { quantity: 4 },
    );
    expect((await read<OrderLists>(tokens, '/api/lists')).lists).toEqual([
      expect.objectContaining({
        id,
        name: 'Back-bar',
        items: [{ productId: product!.id, quantity: 4 }],
      }),
    ]);
  });
});

describe('coverage', () => {
  it('sends every field of every JSON body a route accepts (registration in its own file)', () => {
    const elsewhere = ['POST /api/auth/register'];
    const missing: string[] = [];
    const fieldsOf = (schema: unknown, prefix = ''): string[] => {
      const properties = (schema as { properties?: Record<string, unknown> })?.properties ?? {};
      return Object.entries(properties).flatMap(([name, inner]) => [
        prefix + name,
        ...fieldsOf(inner, `${prefix}${name}.`),
      ]);
    };
    for (const route of registeredRoutes.get(app) ?? []) {
      const key = `${route.method} ${route.url}`;
      if (!route.schema?.body || elsewhere.includes(key)) continue;
      for (const field of fieldsOf(route.schema.body)) {
        if (!sent.get(key)?.has(field)) missing.push(`${key} ${field}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
