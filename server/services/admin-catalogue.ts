/**
 * The back office's catalogue (docs/api.md#back-office): products, their pictures and the
 * categories, as staff find and change them.
 *
 * Every change works in the transaction it is given (the route's `once`), records the staff
 * member and the fields it changed in the audit log in that same transaction, and moves the
 * product's `updatedAt` so that devices fetch it through the mirror. The catalogue's version
 * moves by itself in the same commit (triggers of migration 0006), so that every server
 * process, on every machine sharing the database, stops serving its kept answers at once.
 */
import { and, asc, count, eq, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import {
  PRODUCT_TEXT_FIELDS,
  MAX_PICTURES,
  tagsOf,
  type ProductFieldError,
  type ProductTexts,
  withEditedTexts,
} from '../../src/contracts/admin-catalogue.js';
import { validateCategoryNames, validateProduct } from '../../src/contracts/form-schemas.js';
import type {
  AdminCategory,
  AdminCategoryNames,
  AdminProduct,
  AdminProductEdit,
  AdminProductInput,
  AdminProductPage,
  AdminProductQuery,
} from '../../src/contracts/admin-catalogue-schemas.js';
import { LOW_STOCK_BELOW } from '../../src/contracts/admin.js';
import { eanOf } from '../../src/contracts/barcodes.js';
import { type ProductTranslations } from '../../src/contracts/catalogue.js';
import { deriveSearchFields, foldText, searchTerms } from '../../src/contracts/catalogue-query.js';
import { LANGUAGES, type Language } from '../../src/contracts/languages.js';
import { pictureFiles } from '../../src/contracts/product-pictures.js';
import type { Db } from '../db/database.js';
import { categories, media, orderItems, products, type AuditFields } from '../db/schema.js';
import ro from '../../src/locales/ro.json' with { type: 'json' };
import en from '../../src/locales/en.json' with { type: 'json' };
import it from '../../src/locales/it.json' with { type: 'json' };
import { changedFields, recordAudit, type StaffActor } from './audit.js';
import { HttpError, notFound } from './errors.js';
import { pageOf, paginationOf } from './pages.js';
import type { PictureFile } from './product-pictures.js';

type ProductRow = typeof products.$inferSelect;
type CategoryRow = typeof categories.$inferSelect;

const ERROR_MESSAGES: Record<ProductFieldError['code'], string> = en.admin.catalogue.errors;

/** A 400 for the fields that broke the rules of src/contracts/admin-catalogue.ts. */
function invalidProduct(errors: ProductFieldError[]): HttpError {
  return new HttpError(
    400,
    en.validation.reviewFields,
    errors.map(({ field, code }) => ({ field, code, message: ERROR_MESSAGES[code] })),
  );
}

const skuTaken = (sku: string) =>
  new HttpError(409, `Another product already has the SKU ${sku}.`, [
    { field: 'sku', code: 'skuTaken', message: ERROR_MESSAGES.skuTaken },
  ]);

const eanTaken = (ean: string) =>
  new HttpError(409, `Another product already has the EAN ${ean}.`, [
    { field: 'ean', code: 'eanTaken', message: ERROR_MESSAGES.eanTaken },
  ]);

/** The unique constraint or index a failed write broke (the driver's error or its cause). */
function brokenUnique(error: unknown): string | null {
  type Failure = { code?: string; constraint?: string };
  const failure = (error as Failure & { cause?: Failure }) ?? {};
  for (const candidate of [failure, failure.cause]) {
    if (candidate?.code === '23505') return candidate.constraint ?? '';
  }
  return null;
}

/** Another request took the SKU or the EAN between the check and the write: which one. */
function takenMeanwhile(
  error: unknown,
  values: { sku?: string | undefined; ean?: string | null | undefined },
): unknown {
  const broken = brokenUnique(error);
  if (broken === null) return error;
  if (broken === 'products_ean_idx' && values.ean) return eanTaken(values.ean);
  if (values.sku) return skuTaken(values.sku);
  return error;
}

/** The product's texts in every language: the columns are Romanian, the rest translations. */
function textsOf(row: ProductRow): Record<Language, ProductTexts> {
  const blank = { name: '', shortDescription: '', description: '' };
  return {
    ro: { name: row.name, shortDescription: row.shortDescription, description: row.description },
    en: { ...blank, ...row.translations.en },
    it: { ...blank, ...row.translations.it },
  };
}

/** Whether a product was ordered (then it can only be deactivated, never deleted). */
const orderedSql = sql<boolean>`exists (select 1 from ${orderItems} where ${orderItems.productId} = ${products.id})`;

function toAdminProduct(row: ProductRow, ordered: boolean): AdminProduct {
  return {
    id: row.id,
    sku: row.sku,
    ean: row.ean,
    price: Number(row.price),
    stock: row.stock,
    active: row.active,
    categoryId: row.categoryId,
    tags: row.tags,
    images: row.images,
    texts: textsOf(row),
    ordered,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * `GET /api/admin/products`: a page of products by name (then id), with the catalogue's
 * search (every word in the name, SKU, EAN or descriptions, any language), a category,
 * active or inactive, and low stock as the dashboard counts it.
 */
export async function listProductPage(db: Db, query: AdminProductQuery): Promise<AdminProductPage> {
  const filters: SQL[] = searchTerms(query.search ?? '').map(
    (term) => sql`strpos(${products.searchText}, ${term}) > 0`,
  );
  if (query.categoryId !== undefined) filters.push(eq(products.categoryId, query.categoryId));
  if (query.status) filters.push(eq(products.active, query.status === 'active'));
  if (query.stock === 'low') filters.push(lt(products.stock, LOW_STOCK_BELOW));
  const where = and(...filters);
  const page = pageOf(query);
  const [total] = await db.select({ n: count() }).from(products).where(where);
  const rows = await db
    .select({ product: products, ordered: orderedSql })
    .from(products)
    .where(where)
    .orderBy(sql`${products.nameKey} COLLATE "C"`, asc(products.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    products: rows.map((row) => toAdminProduct(row.product, row.ordered)),
    pagination: paginationOf(page, total?.n ?? 0),
  };
}

async function readProduct(db: Db, id: number, lock = false): Promise<ProductRow> {
  const query = db.select().from(products).where(eq(products.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Product not found');
  return row;
}

async function wasOrdered(db: Db, id: number): Promise<boolean> {
  const [row] = await db
    .select({ ordered: sql<boolean>`true` })
    .from(orderItems)
    .where(eq(orderItems.productId, id))
    .limit(1);
  return row !== undefined;
}

export async function productDetail(db: Db, id: number): Promise<AdminProduct> {
  const row = await readProduct(db, id);
  return toAdminProduct(row, await wasOrdered(db, id));
}

/** The product's fields as its columns hold them, from texts and facts checked already. */
function columnsOf(input: {
  sku: string;
  ean: string;
  texts: Record<Language, ProductTexts>;
  price: number;
  stock: number;
  categoryId: number;
  tags: string[];
}) {
  const trimmed = (texts: ProductTexts): ProductTexts => ({
    name: texts.name.trim(),
    shortDescription: texts.shortDescription.trim(),
    description: texts.description.trim(),
  });
  const translations: ProductTranslations = {};
  for (const language of ['en', 'it'] as const) {
    const texts = trimmed(input.texts[language]);
    // A language with no text at all is not kept: it falls back as a whole.
    if (PRODUCT_TEXT_FIELDS.some((field) => texts[field])) translations[language] = texts;
  }
  const base = trimmed(input.texts.ro);
  const sku = input.sku.trim();
  const ean = eanOf(input.ean) || null;
  return {
    sku,
    ean,
    name: base.name,
    shortDescription: base.shortDescription,
    description: base.description,
    translations,
    price: input.price.toFixed(2),
    stock: input.stock,
    categoryId: input.categoryId,
    tags: tagsOf(input.tags.join(',')),
    ...deriveSearchFields({ ...base, sku, translations, ean }),
  };
}

/** The rules' values of an input whose EAN is checked and stored as text ('' for none). */
type CheckedInput = AdminProductInput & { ean: string };

/** Checks the input by the shared rules: a broken one is a 400 naming each field. */
function checkProduct(input: CheckedInput): void {
  const errors = validateProduct({
    sku: input.sku,
    ean: input.ean,
    price: String(input.price),
    stock: String(input.stock),
    categoryId: String(input.categoryId),
    tags: input.tags,
    texts: input.texts,
  });
  if (errors.length > 0) throw invalidProduct(errors);
}

async function requireCategory(db: Db, id: number): Promise<void> {
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.id, id));
  if (!row) throw invalidProduct([{ field: 'categoryId', code: 'categoryRequired' }]);
}

async function requireFreeSku(db: Db, sku: string, except?: number): Promise<void> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.sku, sku), except === undefined ? undefined : ne(products.id, except)));
  if (row) throw skuTaken(sku);
}

async function requireFreeEan(db: Db, ean: string, except?: number): Promise<void> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.ean, ean), except === undefined ? undefined : ne(products.id, except)));
  if (row) throw eanTaken(ean);
}

/** The audited view of a product: its plain fields, each text by `<field>.<language>`. */
function auditView(row: ProductRow): AuditFields {
  const view: AuditFields = {
    sku: row.sku,
    ean: row.ean,
    price: Number(row.price),
    stock: row.stock,
    categoryId: row.categoryId,
    tags: row.tags.join(', '),
    active: row.active,
    images: row.images.length,
  };
  const texts = textsOf(row);
  for (const language of LANGUAGES) {
    for (const field of PRODUCT_TEXT_FIELDS) view[`${field}.${language}`] = texts[language][field];
  }
  return view;
}

const AUDITED = (row: ProductRow) => Object.keys(auditView(row));

/** Writes the change of a product and its entry in the audit log; the row after it. */
async function recordProduct(
  db: Db,
  actor: StaffActor,
  action: Parameters<typeof recordAudit>[1]['action'],
  before: ProductRow | null,
  after: ProductRow,
): Promise<void> {
  const afterView = auditView(after);
  const change = before
    ? changedFields(auditView(before), afterView, AUDITED(after))
    : { before: null, after: afterView };
  await recordAudit(db, {
    actor,
    action,
    entityType: 'product',
    entityId: after.id,
    companyId: null,
    ...change,
  });
}

/** `POST /api/admin/products`: a new product, on sale unless `active` is false. */
export async function createProduct(
  db: Db,
  input: AdminProductInput,
  actor: StaffActor,
): Promise<AdminProduct> {
  const checked = { ...input, ean: input.ean ?? '' };
  checkProduct(checked);
  await requireCategory(db, input.categoryId);
  const values = columnsOf(checked);
  await requireFreeSku(db, values.sku);
  if (values.ean) await requireFreeEan(db, values.ean);
  let row: ProductRow | undefined;
  try {
    [row] = await db
      .insert(products)
      .values({ ...values, active: input.active ?? true })
      .returning();
  } catch (error) {
    throw takenMeanwhile(error, values);
  }
  if (!row) throw new Error('The product could not be created');
  await recordProduct(db, actor, 'product.create', null, row);
  return toAdminProduct(row, false);
}

/** Updates a locked product and records it; nothing changed is no change and no entry. */
async function changeProduct(
  db: Db,
  row: ProductRow,
  set: Partial<typeof products.$inferInsert>,
  action: Parameters<typeof recordAudit>[1]['action'],
  actor: StaffActor,
): Promise<ProductRow> {
  let updated: ProductRow | undefined;
  try {
    [updated] = await db
      .update(products)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(products.id, row.id))
      .returning();
  } catch (error) {
    throw takenMeanwhile(error, set);
  }
  if (!updated) throw notFound('Product not found');
  await recordProduct(db, actor, action, row, updated);
  return updated;
}

/**
 * `PATCH /api/admin/products/{id}`: the fields sent, checked by the shared rules together
 * with the ones kept. Nothing different: the product as it is, with no entry in the log.
 */
export async function editProduct(
  db: Db,
  id: number,
  edit: AdminProductEdit,
  actor: StaffActor,
): Promise<AdminProduct> {
  const row = await readProduct(db, id, true);
  const merged: CheckedInput = {
    sku: edit.sku ?? row.sku,
    // Null or an empty text takes the barcode away; absent keeps it.
    ean: edit.ean === undefined ? (row.ean ?? '') : (edit.ean ?? ''),
    price: edit.price ?? Number(row.price),
    stock: edit.stock ?? row.stock,
    categoryId: edit.categoryId ?? row.categoryId,
    tags: edit.tags ?? row.tags,
    texts: edit.texts ? withEditedTexts(textsOf(row), edit.texts) : textsOf(row),
  };
  checkProduct(merged);
  if (edit.categoryId !== undefined && edit.categoryId !== row.categoryId) {
    await requireCategory(db, edit.categoryId);
  }
  const values = columnsOf(merged);
  if (values.sku !== row.sku) await requireFreeSku(db, values.sku, id);
  if (values.ean && values.ean !== row.ean) await requireFreeEan(db, values.ean, id);
  const before = auditView(row);
  const after = auditView({ ...row, ...values });
  const ordered = await wasOrdered(db, id);
  if (Object.keys(before).every((field) => before[field] === after[field])) {
    return toAdminProduct(row, ordered);
  }
  const updated = await changeProduct(db, row, values, 'product.edit', actor);
  return toAdminProduct(updated, ordered);
}

/** `POST /api/admin/products/{id}/activate` and `/deactivate`: on or off sale. */
export async function setProductActive(
  db: Db,
  id: number,
  active: boolean,
  actor: StaffActor,
): Promise<AdminProduct> {
  const row = await readProduct(db, id, true);
  const ordered = await wasOrdered(db, id);
  if (row.active === active) return toAdminProduct(row, ordered);
  const updated = await changeProduct(
    db,
    row,
    { active },
    active ? 'product.activate' : 'product.deactivate',
    actor,
  );
  return toAdminProduct(updated, ordered);
}

/**
 * `DELETE /api/admin/products/{id}`: only a product never ordered (its orders keep their
 * lines, and the history of what was sold must stay readable); else a 409 that says to
 * deactivate it. Its uploaded picture files go with it.
 */
export async function deleteProduct(db: Db, id: number, actor: StaffActor): Promise<void> {
  const row = await readProduct(db, id, true);
  if (await wasOrdered(db, id)) {
    throw new HttpError(
      409,
      'This product has been ordered, so it cannot be deleted. Deactivate it instead.',
      undefined,
      { code: 'PRODUCT_ORDERED' },
    );
  }
  await db.delete(products).where(eq(products.id, id));
  await removeFiles(db, row.images);
  await recordAudit(db, {
    actor,
    action: 'product.delete',
    entityType: 'product',
    entityId: id,
    companyId: null,
    before: auditView(row),
    after: null,
  });
}

/**
 * Removes the stored files of uploaded pictures. Kept: demo pictures, and a picture an
 * order's line still shows (a line keeps the pictures the product had when ordered).
 */
async function removeFiles(db: Db, images: readonly string[]): Promise<void> {
  const uploaded = images.filter((path) => pictureFiles(path).length > 1);
  if (uploaded.length === 0) return;
  const shown = await db
    .select({ path: sql<string>`unnest(${orderItems.productImages})` })
    .from(orderItems)
    .where(
      sql`${orderItems.productImages} && ${sql`ARRAY[${sql.join(
        uploaded.map((path) => sql`${path}`),
        sql`, `,
      )}]::text[]`}`,
    );
  const kept = new Set(shown.map((row) => row.path));
  const files = uploaded.filter((path) => !kept.has(path)).flatMap(pictureFiles);
  if (files.length > 0) await db.delete(media).where(inArray(media.path, files));
}

/**
 * `POST /api/admin/products/{id}/pictures`: one picture, its files made already
 * (product-pictures.ts), added last; a product keeps at most MAX_PICTURES.
 */
export async function addPicture(
  db: Db,
  id: number,
  picture: { image: string; files: PictureFile[] },
  actor: StaffActor,
): Promise<AdminProduct> {
  const row = await readProduct(db, id, true);
  if (row.images.length >= MAX_PICTURES) {
    const message = `A product has at most ${MAX_PICTURES} pictures. Remove one first.`;
    throw new HttpError(409, message, [{ field: 'file', code: 'pictureLimit', message }], {
      code: 'PICTURE_LIMIT',
    });
  }
  await db.insert(media).values(picture.files);
  const updated = await changeProduct(
    db,
    row,
    { images: [...row.images, picture.image] },
    'product.pictureAdd',
    actor,
  );
  return toAdminProduct(updated, await wasOrdered(db, id));
}

/** `DELETE /api/admin/products/{id}/pictures/{file}`: one picture and its files. */
export async function removePicture(
  db: Db,
  id: number,
  file: string,
  actor: StaffActor,
): Promise<AdminProduct> {
  const row = await readProduct(db, id, true);
  const path = `/uploads/products/${file}`;
  if (!row.images.includes(path)) throw notFound('This product has no such picture');
  await removeFiles(db, [path]);
  const updated = await changeProduct(
    db,
    row,
    { images: row.images.filter((image) => image !== path) },
    'product.pictureRemove',
    actor,
  );
  return toAdminProduct(updated, await wasOrdered(db, id));
}

/** `PUT /api/admin/products/{id}/pictures`: the same pictures in a new order. */
export async function orderPictures(
  db: Db,
  id: number,
  images: string[],
  actor: StaffActor,
): Promise<AdminProduct> {
  const row = await readProduct(db, id, true);
  const same =
    images.length === row.images.length &&
    [...images].sort().join('\n') === [...row.images].sort().join('\n');
  if (!same) {
    throw new HttpError(
      409,
      "The pictures sent are not the product's pictures. Reload the page and try again.",
      [{ field: 'images', message: 'Send every picture of the product once.' }],
    );
  }
  const ordered = await wasOrdered(db, id);
  if (images.every((image, i) => image === row.images[i])) return toAdminProduct(row, ordered);
  const updated = await changeProduct(db, row, { images }, 'product.pictureOrder', actor);
  // The order itself is what changed: recorded as the list of files, before and after.
  return toAdminProduct(updated, ordered);
}

/** Names of the demo categories in the locale files, by slug. */
const LOCALE_NAMES: Record<Language, Record<string, string>> = {
  ro: ro.categories,
  en: en.categories,
  it: it.categories,
};

/** A category's names as staff edit them: what they gave, else the demo's translations. */
function namesOf(row: CategoryRow): AdminCategoryNames {
  const given = row.names;
  const names = {} as AdminCategoryNames;
  for (const language of LANGUAGES) {
    names[language] =
      given[language] ?? LOCALE_NAMES[language][row.slug] ?? (language === 'ro' ? row.name : '');
  }
  return names;
}

/** `GET /api/admin/categories`: in the storefront's order, with their product counts. */
export async function listAdminCategories(db: Db): Promise<AdminCategory[]> {
  const counts = db
    .select({ categoryId: products.categoryId, n: count().as('n') })
    .from(products)
    .groupBy(products.categoryId)
    .as('counts');
  const rows = await db
    .select({ category: categories, n: counts.n })
    .from(categories)
    .leftJoin(counts, eq(counts.categoryId, categories.id))
    .orderBy(asc(categories.position), asc(categories.id));
  return rows.map(({ category, n }) => ({
    id: category.id,
    slug: category.slug,
    names: namesOf(category),
    position: category.position,
    products: Number(n ?? 0),
  }));
}

function checkNames(names: AdminCategoryNames): AdminCategoryNames {
  const errors = validateCategoryNames(names);
  if (errors.length > 0) throw invalidProduct(errors);
  return { ro: names.ro.trim(), en: names.en.trim(), it: names.it.trim() };
}

/** The names a category keeps: the Romanian in `name`, all three in `names`. */
const storedNames = (names: AdminCategoryNames) => ({
  name: names.ro,
  names: Object.fromEntries(LANGUAGES.filter((l) => names[l]).map((l) => [l, names[l]])),
});

async function recordCategory(
  db: Db,
  actor: StaffActor,
  action: 'category.create' | 'category.rename' | 'category.order',
  id: number,
  before: AuditFields | null,
  after: AuditFields,
): Promise<void> {
  await recordAudit(db, {
    actor,
    action,
    entityType: 'category',
    entityId: id,
    companyId: null,
    before,
    after,
  });
}

const namesView = (names: AdminCategoryNames): AuditFields =>
  Object.fromEntries(LANGUAGES.map((l) => [`name.${l}`, names[l]]));

/** `POST /api/admin/categories`: a new category, last in the list. */
export async function createCategory(
  db: Db,
  input: AdminCategoryNames,
  actor: StaffActor,
): Promise<AdminCategory> {
  const names = checkNames(input);
  // Locked: two categories made at once must not take the same place or address.
  await db.execute(sql`LOCK TABLE ${categories} IN SHARE ROW EXCLUSIVE MODE`);
  const base =
    foldText(names.ro)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'category';
  const taken = new Set(
    (
      await db
        .select({ slug: categories.slug })
        .from(categories)
        .where(sql`${categories.slug} LIKE ${`${base}%`}`)
    ).map((row) => row.slug),
  );
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  const [last] = await db
    .select({ position: sql<number>`coalesce(max(${categories.position}), -1)::int` })
    .from(categories);
  const [row] = await db
    .insert(categories)
    .values({ slug, ...storedNames(names), position: (last?.position ?? -1) + 1 })
    .returning();
  if (!row) throw new Error('The category could not be created');
  await recordCategory(db, actor, 'category.create', row.id, null, namesView(names));
  return { id: row.id, slug, names, position: row.position, products: 0 };
}

/** `PATCH /api/admin/categories/{id}`: its names in the three languages. */
export async function renameCategory(
  db: Db,
  id: number,
  input: AdminCategoryNames,
  actor: StaffActor,
): Promise<AdminCategory> {
  const names = checkNames(input);
  const [row] = await db.select().from(categories).where(eq(categories.id, id)).for('update');
  if (!row) throw notFound('Category not found');
  const was = namesOf(row);
  const change = changedFields(namesView(was), namesView(names), Object.keys(namesView(names)));
  const [updated = row] =
    Object.keys(change.after).length === 0
      ? [row]
      : await db
          .update(categories)
          .set(storedNames(names))
          .where(eq(categories.id, id))
          .returning();
  if (Object.keys(change.after).length > 0) {
    await recordCategory(db, actor, 'category.rename', id, change.before, change.after);
    // Products carry their category in every answer: devices must fetch them again.
    await db.update(products).set({ updatedAt: new Date() }).where(eq(products.categoryId, id));
  }
  const [counted] = await db
    .select({ n: count() })
    .from(products)
    .where(eq(products.categoryId, id));
  return {
    id,
    slug: updated.slug,
    names: namesOf(updated),
    position: updated.position,
    products: counted?.n ?? 0,
  };
}

/** `PUT /api/admin/categories/order`: every category's id, in the storefront's new order. */
export async function orderCategories(
  db: Db,
  ids: number[],
  actor: StaffActor,
): Promise<AdminCategory[]> {
  const rows = await db.select().from(categories).orderBy(asc(categories.id)).for('update');
  const known = rows.map((row) => row.id).sort((a, b) => a - b);
  const sent = [...ids].sort((a, b) => a - b);
  if (known.length !== sent.length || known.some((id, i) => id !== sent[i])) {
    throw new HttpError(
      409,
      'The categories sent are not the categories there are. Reload the page and try again.',
      [{ field: 'ids', message: 'Send every category once.' }],
    );
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const [position, id] of ids.entries()) {
    const row = byId.get(id);
    if (!row || row.position === position) continue;
    await db.update(categories).set({ position }).where(eq(categories.id, id));
    await recordCategory(db, actor, 'category.order', id, { position: row.position }, { position });
  }
  return listAdminCategories(db);
}
