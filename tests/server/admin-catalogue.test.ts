/**
 * The back office's catalogue through /api/admin: products (list, create, edit, on and off
 * sale, delete), their pictures (upload checked by content, resized, reordered, removed) and
 * categories; each change audited and seen at once by the storefront and the mirror.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { auditLog, orderItems, products } from '../../server/db/schema';
import { seedDatabase } from '../../server/db/seed';
import type {
  AdminCategory,
  AdminProduct,
  AdminProductInput,
  AdminProductPage,
} from '../../src/contracts/admin-catalogue';
import type { Category, MirrorLine, ProductPage } from '../../src/contracts/catalogue';
import { withCheckDigit } from '../../src/contracts/barcodes';
import type { ErrorBody } from '../../src/contracts/error-schema';
import { PICTURE_WIDTHS, pictureFiles } from '../../src/contracts/product-pictures';
import { order, salon, staffMember, type Salon, type Staff } from './factories';
import { bearer, multipart, type Tokens } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

let testDb: TestDatabase;
let app: FastifyInstance;
let staff: Staff;
let buyer: Salon;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedDatabase(testDb.database.db, { demoAccounts: false });
  app = await buildApp({ database: testDb.database });
  staff = await staffMember(app, testDb.database.db, 'catalogue.staff@example.com');
  buyer = await salon(testDb.database.db, { status: 'APPROVED', isVerified: true });
});

afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const db = () => testDb.database.db;

const get = (url: string, tokens: Tokens = staff.tokens) =>
  app.inject({ url, headers: bearer(tokens) });

function send(
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  key?: string,
) {
  return app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: { ...bearer(staff.tokens), ...(key ? { 'idempotency-key': key } : {}) },
  });
}

const sku = () => `T-${randomUUID().slice(0, 8).toUpperCase()}`;

/** A valid EAN-13 no other product has: prefix 29, ten random digits, the check digit. */
const ean = () =>
  withCheckDigit(`29${String(randomBytes(5).readUIntBE(0, 5) % 10_000_000_000).padStart(10, '0')}`);

function productInput(fields: Partial<AdminProductInput> = {}): AdminProductInput {
  return {
    sku: sku(),
    price: 19.9,
    stock: 40,
    categoryId: 1,
    tags: ['vegan'],
    texts: {
      ro: { name: 'Șampon de test', shortDescription: 'Pentru păr uscat', description: 'Text' },
      en: { name: 'Test shampoo', shortDescription: 'For dry hair', description: '' },
      it: { name: '', shortDescription: '', description: '' },
    },
    ...fields,
  };
}

async function createProduct(fields: Partial<AdminProductInput> = {}): Promise<AdminProduct> {
  const response = await send('POST', '/api/admin/products', productInput(fields));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ product: AdminProduct }>().product;
}

/** What an approved salon finds in the catalogue for a search. */
async function storefront(search: string, tokens: Tokens = buyer.tokens) {
  const response = await get(`/api/products?search=${encodeURIComponent(search)}`, tokens);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ProductPage>().products;
}

async function mirror(tokens: Tokens = buyer.tokens): Promise<MirrorLine[]> {
  const response = await get('/api/products/mirror', tokens);
  expect(response.statusCode).toBe(200);
  return response.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as MirrorLine);
}

async function latestAudit(entityType: 'product' | 'category', entityId: number) {
  const [entry] = await db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, entityId)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry;
}

describe('GET /api/admin/products', () => {
  it('finds products by SKU, by category, by status and low on stock, a page at a time', async () => {
    const low = await createProduct({ stock: 3, categoryId: 2 });
    const off = await createProduct({ stock: 50, categoryId: 2 });
    await send('POST', `/api/admin/products/${off.id}/deactivate`);

    const bySku = await get(`/api/admin/products?search=${low.sku.toLowerCase()}`);
    expect(bySku.json<AdminProductPage>().products.map((p) => p.id)).toEqual([low.id]);

    const lowStock = (
      await get('/api/admin/products?stock=low&limit=100')
    ).json<AdminProductPage>();
    expect(lowStock.products.every((p) => p.stock < 10)).toBe(true);
    expect(lowStock.products.map((p) => p.id)).toContain(low.id);

    const inactive = (
      await get('/api/admin/products?status=inactive&categoryId=2')
    ).json<AdminProductPage>();
    expect(inactive.products.map((p) => p.id)).toEqual([off.id]);
    expect(inactive.products[0]?.active).toBe(false);

    const page = (await get('/api/admin/products?limit=5&page=2')).json<AdminProductPage>();
    expect(page.products).toHaveLength(5);
    expect(page.pagination).toMatchObject({ page: 2, limit: 5 });
    expect(page.pagination.totalPages).toBe(Math.ceil(page.pagination.total / 5));
  });
});

describe('POST /api/admin/products', () => {
  it('creates a product the storefront shows at once, in three languages, and audits it', async () => {
    const created = await createProduct();
    expect(created).toMatchObject({ active: true, price: 19.9, ordered: false });
    const [found] = await storefront(created.sku);
    expect(found).toMatchObject({
      id: created.id,
      name: 'Șampon de test',
      price: 19.9,
      translations: { en: { name: 'Test shampoo', shortDescription: 'For dry hair' } },
    });
    // Found by its English name as well.
    expect((await storefront('test shampoo')).map((p) => p.id)).toContain(created.id);
    const entry = await latestAudit('product', created.id);
    expect(entry).toMatchObject({ action: 'product.create', actorId: staff.id, before: null });
    expect(entry?.after).toMatchObject({
      sku: created.sku,
      price: 19.9,
      'name.en': 'Test shampoo',
    });
  });

  it('refuses a SKU another product has with a 409 naming the field', async () => {
    const first = await createProduct();
    const again = await send('POST', '/api/admin/products', productInput({ sku: first.sku }));
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>().details).toEqual([
      expect.objectContaining({ field: 'sku', code: 'skuTaken' }),
    ]);
    const other = await createProduct();
    const edit = await send('PATCH', `/api/admin/products/${other.id}`, { sku: first.sku });
    expect(edit.statusCode).toBe(409);
    expect(edit.json<ErrorBody>().details?.[0]?.field).toBe('sku');
  });

  it('refuses broken rules field by field, and keeps nothing', async () => {
    const input = productInput({ price: 1.234 });
    input.texts.ro.name = '  ';
    const response = await send('POST', '/api/admin/products', input);
    expect(response.statusCode).toBe(400);
    const fields = response.json<ErrorBody>().details?.map((d) => [d.field, d.code]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['price', 'priceInvalid'],
        ['name.ro', 'required'],
      ]),
    );
    expect(await db().select().from(products).where(eq(products.sku, input.sku))).toEqual([]);
    const badSku = await send('POST', '/api/admin/products', productInput({ sku: 'lower case' }));
    expect(badSku.statusCode).toBe(400);
  });
});

describe('PATCH /api/admin/products/:id', () => {
  it('changes the price that an approved salon sees on its next read, and moves updatedAt', async () => {
    const product = await createProduct({ price: 10 });
    // The answer is computed and kept by the catalogue's cache.
    expect((await storefront(product.sku))[0]?.price).toBe(10);
    expect((await storefront(product.sku))[0]?.price).toBe(10);

    const response = await send(
      'PATCH',
      `/api/admin/products/${product.id}`,
      { price: 12.5 },
      randomUUID(),
    );
    expect(response.statusCode, response.body).toBe(200);
    const edited = response.json<{ product: AdminProduct }>().product;
    expect(edited.price).toBe(12.5);
    expect(Date.parse(edited.updatedAt)).toBeGreaterThan(Date.parse(product.updatedAt));

    expect((await storefront(product.sku))[0]?.price).toBe(12.5);
    const since = await get(
      `/api/products/mirror?updatedSince=${encodeURIComponent(product.updatedAt)}`,
    );
    expect(since.body).toContain(`"sku":"${product.sku}"`);

    const entry = await latestAudit('product', product.id);
    expect(entry).toMatchObject({
      action: 'product.edit',
      before: { price: 10 },
      after: { price: 12.5 },
    });
  });

  it('changes only the texts sent: two staff editing different texts keep both', async () => {
    const product = await createProduct();
    const english = await send('PATCH', `/api/admin/products/${product.id}`, {
      texts: { en: { name: 'Repair shampoo' } },
    });
    expect(english.statusCode, english.body).toBe(200);
    // The other clerk's form was loaded before the first save, and sends its own text only.
    const italian = await send('PATCH', `/api/admin/products/${product.id}`, {
      texts: { it: { description: 'Per capelli danneggiati.' } },
    });
    expect(italian.statusCode, italian.body).toBe(200);
    const { texts } = italian.json<{ product: AdminProduct }>().product;
    expect(texts.en.name).toBe('Repair shampoo');
    expect(texts.it.description).toBe('Per capelli danneggiati.');
    expect(texts.ro).toEqual(product.texts.ro);
    expect(texts.en.description).toBe(product.texts.en.description);

    const unknown = await send('PATCH', `/api/admin/products/${product.id}`, {
      texts: { de: { name: 'Shampoo' } },
    });
    expect(unknown.statusCode).toBe(400);
    // A misspelt text is refused, not taken as no change.
    const misspelt = await send('PATCH', `/api/admin/products/${product.id}`, {
      texts: { en: { shortdescription: 'Gentle.' } },
    });
    expect(misspelt.statusCode).toBe(400);
  });

  it('records nothing when nothing differs', async () => {
    const product = await createProduct();
    const response = await send('PATCH', `/api/admin/products/${product.id}`, {
      stock: product.stock,
    });
    expect(response.statusCode).toBe(200);
    expect((await latestAudit('product', product.id))?.action).toBe('product.create');
  });
});

describe('EAN-13 barcodes', () => {
  it('are kept on create and edit, shown by the storefront and the mirror, searched and audited', async () => {
    const first = ean();
    // Typed as printed under the barcode, in groups.
    const typed = `${first.slice(0, 1)} ${first.slice(1, 7)} ${first.slice(7)}`;
    const created = await createProduct({ ean: typed });
    expect(created.ean).toBe(first);
    const [found] = await storefront(first);
    expect(found).toMatchObject({ id: created.id, ean: first });
    const staffSearch = (await get(`/api/admin/products?search=${first}`)).json<AdminProductPage>();
    expect(staffSearch.products.map((p) => p.id)).toEqual([created.id]);
    expect((await latestAudit('product', created.id))?.after).toMatchObject({ ean: first });

    const second = ean();
    const edited = await send('PATCH', `/api/admin/products/${created.id}`, { ean: second });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ product: AdminProduct }>().product.ean).toBe(second);
    expect(await latestAudit('product', created.id)).toMatchObject({
      action: 'product.edit',
      before: { ean: first },
      after: { ean: second },
    });
    expect(await storefront(first)).toEqual([]);
    const line = (await mirror()).find((l) => l.type === 'products');
    const mirrored = line?.type === 'products' ? line.products : [];
    expect(mirrored.find((p) => p.id === created.id)?.ean).toBe(second);

    // Another edit keeps it; null takes it away, and the old number is free again.
    await send('PATCH', `/api/admin/products/${created.id}`, { stock: 7 });
    expect(
      (await get(`/api/admin/products/${created.id}`)).json<{ product: AdminProduct }>(),
    ).toMatchObject({ product: { ean: second, stock: 7 } });
    const cleared = await send('PATCH', `/api/admin/products/${created.id}`, { ean: null });
    expect(cleared.json<{ product: AdminProduct }>().product.ean).toBeNull();
    expect((await latestAudit('product', created.id))?.after).toEqual({ ean: null });
    expect((await createProduct({ ean: second })).ean).toBe(second);
  });

  it('are optional: a product made without one, or with an empty one, has none', async () => {
    const without = await createProduct();
    const empty = await createProduct({ ean: '  ' });
    expect([without.ean, empty.ean]).toEqual([null, null]);
    const [found] = await storefront(empty.sku);
    expect(found?.ean).toBeNull();
  });

  it('refuses a wrong check digit with the field named, and keeps nothing', async () => {
    const good = ean();
    const wrong = `${good.slice(0, 12)}${(Number(good[12]) + 1) % 10}`;
    const input = productInput({ ean: wrong });
    const response = await send('POST', '/api/admin/products', input);
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().details).toEqual([
      expect.objectContaining({ field: 'ean', code: 'eanInvalid' }),
    ]);
    expect(await db().select().from(products).where(eq(products.sku, input.sku))).toEqual([]);

    const product = await createProduct({ ean: good });
    for (const bad of [wrong, '123456789012', 'EAN5901234123']) {
      const edit = await send('PATCH', `/api/admin/products/${product.id}`, { ean: bad });
      expect(edit.statusCode).toBe(400);
      expect(edit.json<ErrorBody>().details).toEqual([
        expect.objectContaining({ field: 'ean', code: 'eanInvalid' }),
      ]);
    }
    expect(
      (await get(`/api/admin/products/${product.id}`)).json<{ product: AdminProduct }>(),
    ).toMatchObject({ product: { ean: good } });
  });

  it('refuses an EAN another product has with a 409 naming the field', async () => {
    const taken = (await createProduct({ ean: ean() })).ean ?? '';
    const again = await send('POST', '/api/admin/products', productInput({ ean: taken }));
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>().details).toEqual([
      expect.objectContaining({ field: 'ean', code: 'eanTaken' }),
    ]);
    const other = await createProduct({ ean: ean() });
    const edit = await send('PATCH', `/api/admin/products/${other.id}`, { ean: taken });
    expect(edit.statusCode).toBe(409);
    expect(edit.json<ErrorBody>().details?.[0]).toMatchObject({ field: 'ean', code: 'eanTaken' });
    // Its own EAN sent again is no change.
    const same = await send('PATCH', `/api/admin/products/${other.id}`, { ean: other.ean });
    expect(same.statusCode).toBe(200);
  });

  it('are 13 digits and each on one product only, as the database itself enforces', async () => {
    const row = (fields: { sku: string; ean: string }) => ({
      ...fields,
      name: fields.sku,
      categoryId: 1,
      price: '1.00',
      searchText: fields.sku.toLowerCase(),
      nameKey: fields.sku.toLowerCase(),
    });
    const taken = ean();
    await db()
      .insert(products)
      .values(row({ sku: sku(), ean: taken }));
    const refusal = async (values: ReturnType<typeof row>) => {
      const error = await db()
        .insert(products)
        .values(values)
        .then(
          () => null,
          (failure: unknown) => failure,
        );
      // The driver's error, as the query builder passes it on: the server reads the name.
      const { cause } = (error ?? {}) as { cause?: { code?: string; constraint?: string } };
      return { code: cause?.code, constraint: cause?.constraint };
    };
    expect(await refusal(row({ sku: sku(), ean: taken }))).toEqual({
      code: '23505',
      constraint: 'products_ean_idx',
    });
    expect(await refusal(row({ sku: sku(), ean: '12345' }))).toEqual({
      code: '23514',
      constraint: 'products_ean_check',
    });
  });

  it('given at once to two new products: one is made, the other refused at the field', async () => {
    const shared = ean();
    const answers = await Promise.all(
      [1, 2].map(() => send('POST', '/api/admin/products', productInput({ ean: shared }))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(refused?.json<ErrorBody>().details?.[0]).toMatchObject({
      field: 'ean',
      code: 'eanTaken',
    });
  });
});

describe('activate and deactivate', () => {
  it('takes a product out of the catalogue, the mirror and carts, and puts it back', async () => {
    const product = await createProduct();
    const off = await send('POST', `/api/admin/products/${product.id}/deactivate`);
    expect(off.json<{ product: AdminProduct }>().product.active).toBe(false);

    expect(await storefront(product.sku)).toEqual([]);
    expect((await get(`/api/products/${product.id}`, buyer.tokens)).statusCode).toBe(404);
    const lines = await mirror();
    const end = lines.at(-1);
    expect(end?.type === 'end' && end.ids).not.toContain(product.id);
    expect(JSON.stringify(lines)).not.toContain(product.sku);
    const sitemap = await app.inject({ url: '/sitemap.xml' });
    expect(sitemap.body).not.toContain(`/products/${product.id}</loc>`);
    const add = await app.inject({
      method: 'POST',
      url: '/api/cart/add',
      payload: { productId: product.id, quantity: 1 },
      headers: bearer(buyer.tokens),
    });
    expect(add.statusCode).toBe(422);
    expect(add.json<{ code: string }>().code).toBe('outOfStock');
    expect(await latestAudit('product', product.id)).toMatchObject({
      action: 'product.deactivate',
      before: { active: true },
      after: { active: false },
    });

    await send('POST', `/api/admin/products/${product.id}/activate`);
    expect((await storefront(product.sku)).map((p) => p.id)).toEqual([product.id]);
    expect((await app.inject({ url: '/sitemap.xml' })).body).toContain(
      `/products/${product.id}</loc>`,
    );
  });
});

describe('DELETE /api/admin/products/:id', () => {
  it('deletes a product never ordered', async () => {
    const product = await createProduct();
    const response = await send('DELETE', `/api/admin/products/${product.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect((await get(`/api/admin/products/${product.id}`)).statusCode).toBe(404);
    expect((await latestAudit('product', product.id))?.action).toBe('product.delete');
  });

  it('refuses to delete an ordered product and tells to deactivate it', async () => {
    const product = await createProduct();
    const orderId = await order(db(), buyer);
    await db().insert(orderItems).values({
      orderId,
      productId: product.id,
      productName: 'x',
      productSku: product.sku,
      quantity: 1,
      unitPrice: '1.00',
      totalPrice: '1.00',
    });
    const response = await send('DELETE', `/api/admin/products/${product.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().message).toMatch(/Deactivate it instead/);
    expect(
      (await get(`/api/admin/products/${product.id}`)).json<{ product: AdminProduct }>(),
    ).toMatchObject({ product: { ordered: true } });
  });
});

/** A picture of `width` × `height` in `format`, as a camera or an editor makes one. */
const picture = (format: 'jpeg' | 'png' | 'webp', width: number, height: number) =>
  sharp({
    create: { width, height, channels: 4, background: { r: 200, g: 90, b: 40, alpha: 0.8 } },
  })
    .toFormat(format)
    .toBuffer();

function upload(productId: number, filename: string, contentType: string, data: Buffer) {
  const form = multipart({}, [{ field: 'file', filename, contentType, data }]);
  return app.inject({
    method: 'POST',
    url: `/api/admin/products/${productId}/pictures`,
    payload: form.payload,
    headers: { ...form.headers, ...bearer(staff.tokens) },
  });
}

describe('product pictures', () => {
  it('refuses a program named as a picture, and a file over 5 MB', async () => {
    const product = await createProduct();
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), randomBytes(2048)]);
    const renamed = await upload(product.id, 'x.jpg', 'image/jpeg', exe);
    expect(renamed.statusCode).toBe(415);
    expect(renamed.json<ErrorBody>().details?.[0]?.code).toBe('pictureType');

    // JPEG's first bytes, but not a picture.
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(4096)]);
    expect((await upload(product.id, 'y.jpg', 'image/jpeg', fake)).statusCode).toBe(415);

    const large = Buffer.concat([await picture('jpeg', 64, 64), randomBytes(6 * 1024 * 1024)]);
    const tooLarge = await upload(product.id, 'big.jpg', 'image/jpeg', large);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json<ErrorBody>().details?.[0]?.code).toBe('pictureSize');
    expect(
      (await get(`/api/admin/products/${product.id}`)).json<{ product: AdminProduct }>(),
    ).toMatchObject({ product: { images: [] } });
  });

  it('accepts JPG, PNG and WebP whatever they are named, at every width the storefront uses', async () => {
    const product = await createProduct();
    const files: [string, 'jpeg' | 'png' | 'webp', number, number][] = [
      ['photo.jpg', 'jpeg', 1600, 1200],
      ['label.png', 'png', 300, 500],
      ['texture.bin', 'webp', 900, 900],
    ];
    let images: string[] = [];
    for (const [name, format, width, height] of files) {
      const response = await upload(
        product.id,
        name,
        'application/octet-stream',
        await picture(format, width, height),
      );
      expect(response.statusCode, response.body).toBe(201);
      images = response.json<{ product: AdminProduct }>().product.images;
    }
    expect(images).toHaveLength(3);
    for (const image of images) {
      const paths = pictureFiles(image);
      expect(paths).toHaveLength(PICTURE_WIDTHS.length);
      for (const [i, path] of paths.entries()) {
        const served = await app.inject({ url: path });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe('image/webp');
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(served.rawPayload).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([
          'webp',
          PICTURE_WIDTHS[i],
          PICTURE_WIDTHS[i],
        ]);
      }
    }
    // The storefront and the mirror show the new pictures, in order.
    expect((await storefront(product.sku))[0]?.images).toEqual(images);
    expect((await latestAudit('product', product.id))?.action).toBe('product.pictureAdd');

    const reversed = [...images].reverse();
    const moved = await send('PUT', `/api/admin/products/${product.id}/pictures`, {
      images: reversed,
    });
    expect(moved.json<{ product: AdminProduct }>().product.images).toEqual(reversed);
    expect((await storefront(product.sku))[0]?.images).toEqual(reversed);

    const [first] = reversed;
    const file = first?.split('/').pop() ?? '';
    const removed = await send('DELETE', `/api/admin/products/${product.id}/pictures/${file}`);
    expect(removed.json<{ product: AdminProduct }>().product.images).toEqual(reversed.slice(1));
    expect((await app.inject({ url: first ?? '' })).statusCode).toBe(404);
    expect((await latestAudit('product', product.id))?.action).toBe('product.pictureRemove');
  });

  it('adds a picture once for one Idempotency-Key, and refuses the key with another file', async () => {
    const product = await createProduct();
    const key = randomUUID();
    const send = async (data: Buffer) => {
      const form = multipart({}, [
        { field: 'file', filename: 'a.png', contentType: 'image/png', data },
      ]);
      return app.inject({
        method: 'POST',
        url: `/api/admin/products/${product.id}/pictures`,
        payload: form.payload,
        headers: { ...form.headers, ...bearer(staff.tokens), 'idempotency-key': key },
      });
    };
    const png = await picture('png', 30, 30);
    const first = await send(png);
    const again = await send(png);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await send(await picture('png', 31, 31));
    expect(other.statusCode).toBe(422);
    const stored = await get(`/api/admin/products/${product.id}`);
    expect(stored.json<{ product: AdminProduct }>().product.images).toHaveLength(1);
  });

  it('keeps at most five pictures', async () => {
    const product = await createProduct();
    const png = await picture('png', 20, 20);
    for (let i = 0; i < 5; i += 1) {
      expect((await upload(product.id, `${i}.png`, 'image/png', png)).statusCode).toBe(201);
    }
    const sixth = await upload(product.id, '6.png', 'image/png', png);
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json<ErrorBody>().details?.[0]?.code).toBe('pictureLimit');
  });
});

describe('categories', () => {
  it('are created, renamed in three languages and reordered, as the storefront lists them', async () => {
    const created = await send('POST', '/api/admin/categories', {
      names: { ro: 'Uleiuri', en: 'Oils', it: 'Oli' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const category = created.json<{ category: AdminCategory }>().category;
    expect(category).toMatchObject({ slug: 'uleiuri', products: 0 });

    const renamed = await send('PATCH', `/api/admin/categories/${category.id}`, {
      names: { ro: 'Uleiuri de păr', en: 'Hair oils', it: '' },
    });
    expect(renamed.json<{ category: AdminCategory }>().category.names).toEqual({
      ro: 'Uleiuri de păr',
      en: 'Hair oils',
      it: '',
    });
    expect(await latestAudit('category', category.id)).toMatchObject({
      action: 'category.rename',
      before: { 'name.ro': 'Uleiuri', 'name.en': 'Oils', 'name.it': 'Oli' },
      after: { 'name.ro': 'Uleiuri de păr', 'name.en': 'Hair oils', 'name.it': '' },
    });

    const listed = (await get('/api/admin/categories')).json<{ categories: AdminCategory[] }>();
    const ids = listed.categories.map((c) => c.id);
    const order = [category.id, ...ids.filter((id) => id !== category.id)];
    const moved = await send('PUT', '/api/admin/categories/order', { ids: order });
    expect(moved.statusCode, moved.body).toBe(200);

    const shop = (await get('/api/products/categories', buyer.tokens)).json<{
      categories: Category[];
    }>();
    expect(shop.categories.map((c) => c.id)).toEqual(order);
    expect(shop.categories[0]).toMatchObject({
      name: 'Uleiuri de păr',
      names: { ro: 'Uleiuri de păr', en: 'Hair oils' },
    });
    expect((await latestAudit('category', category.id))?.action).toBe('category.order');

    const partial = await send('PUT', '/api/admin/categories/order', { ids: order.slice(1) });
    expect(partial.statusCode).toBe(409);
  });

  it('refuses a category without a Romanian name', async () => {
    const response = await send('POST', '/api/admin/categories', {
      names: { ro: ' ', en: 'Oils', it: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().details?.[0]).toMatchObject({
      field: 'name.ro',
      code: 'required',
    });
  });
});
