/**
 * The catalogue's business rules: the product query (search, category, order, pages)
 * and the product serializer that leaves the price out for callers who may not see it.
 * Ordering and matching follow src/contracts/catalogue.ts so that the device's mirror
 * gives the same answers.
 */
import { and, asc, count, desc, eq, gt, gte, max, sql, type SQL } from 'drizzle-orm';
import {
  type Category,
  type MirrorLine,
  type Product,
  type ProductPage,
  type ProductQuery,
} from '../../src/contracts/catalogue.js';
import { paginate, searchTerms } from '../../src/contracts/catalogue-query.js';
import type { Db } from '../db/database.js';
import { categories, products } from '../db/schema.js';
import type { Viewer } from './viewer.js';

type ProductRow = typeof products.$inferSelect;
type CategoryRow = typeof categories.$inferSelect;

/** Translations staff gave: only the languages with a text, none when there is none. */
const given = <T extends object>(values: T): T | undefined =>
  Object.keys(values).length > 0 ? values : undefined;

export function toCategoryDto(row: CategoryRow): Category {
  const names = given(row.names);
  return { id: row.id, slug: row.slug, name: row.name, ...(names && { names }) };
}

export function toProductDto(row: ProductRow, category: CategoryRow, viewer: Viewer): Product {
  const dto: Product = {
    id: row.id,
    sku: row.sku,
    ean: row.ean,
    name: row.name,
    shortDescription: row.shortDescription,
    description: row.description,
    currency: 'EUR',
    stock: row.stock,
    stockQuantity: row.stock,
    inStock: row.stock > 0,
    images: row.images,
    tags: row.tags,
    categoryId: row.categoryId,
    category: toCategoryDto(category),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    searchText: row.searchText,
    nameKey: row.nameKey,
  };
  const translations = given(row.translations);
  if (translations) dto.translations = translations;
  if (viewer.canSeePrices) dto.price = Number(row.price);
  return dto;
}

/**
 * Products on sale: what every storefront answer and the mirror hold. One taken off sale
 * by staff is as absent as one deleted (a device drops it, as it is not among the ids).
 */
export const onSale = eq(products.active, true);

/** Byte order, as the device compares code points: never the database's collation. */
const nameKeyInByteOrder = sql`${products.nameKey} COLLATE "C"`;

function orderFor(query: ProductQuery, viewer: Viewer): SQL[] {
  switch (query.sortBy) {
    case 'newest':
      return [desc(products.createdAt), desc(products.id)];
    case 'price':
      if (viewer.canSeePrices) return [asc(products.price), nameKeyInByteOrder, asc(products.id)];
      return [nameKeyInByteOrder, asc(products.id)];
    case 'name':
      return [nameKeyInByteOrder, asc(products.id)];
  }
}

export interface ListProductsQuery extends ProductQuery {
  updatedSince?: Date | undefined;
}

export async function listProducts(
  db: Db,
  query: ListProductsQuery,
  viewer: Viewer,
): Promise<ProductPage> {
  const conditions: SQL[] = [
    onSale,
    ...searchTerms(query.search).map(
      // strpos matches the term literally: no LIKE wildcards to escape.
      (term) => sql`strpos(${products.searchText}, ${term}) > 0`,
    ),
  ];
  if (query.categoryId !== undefined) conditions.push(eq(products.categoryId, query.categoryId));
  if (query.updatedSince !== undefined)
    conditions.push(gte(products.updatedAt, query.updatedSince));
  const where = and(...conditions);

  const [total] = await db.select({ n: count() }).from(products).where(where);
  const rows = await db
    .select({ product: products, category: categories })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(where)
    .orderBy(...orderFor(query, viewer))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);

  return {
    products: rows.map((row) => toProductDto(row.product, row.category, viewer)),
    pagination: paginate(total?.n ?? 0, query.page, query.limit),
  };
}

export async function getProduct(db: Db, id: number, viewer: Viewer): Promise<Product | null> {
  const [row] = await db
    .select({ product: products, category: categories })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(and(eq(products.id, id), onSale));
  return row ? toProductDto(row.product, row.category, viewer) : null;
}

export async function listCategories(db: Db): Promise<Category[]> {
  const rows = await db
    .select()
    .from(categories)
    .orderBy(asc(categories.position), asc(categories.id));
  return rows.map(toCategoryDto);
}

/** Every product id: lets a device drop products the catalogue no longer has. */
export async function listProductIds(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(onSale)
    .orderBy(asc(products.id));
  return rows.map((row) => row.id);
}

/**
 * Rows read from the database per batch of the mirror: large enough that 10,000 products
 * take ten short queries, small enough that memory stays flat whatever the catalogue's size.
 */
const MIRROR_BATCH_SIZE = 1000;

/**
 * The whole catalogue for a device's mirror, as the lines of one streamed answer (see
 * MirrorLine): categories, then every product the caller may see (changed since
 * `updatedSince` when given) in batches read by id, then the cursor and every id.
 *
 * The batches are separate queries, not one snapshot, so that a slow device never holds a
 * database connection: a product changed meanwhile arrives in either state, and the cursor,
 * read before the first batch, makes the next refresh ask for it again.
 */
export async function* mirrorCatalogue(
  db: Db,
  query: { updatedSince?: Date | undefined },
  viewer: Viewer,
): AsyncGenerator<MirrorLine> {
  const [newest] = await db.select({ at: max(products.updatedAt) }).from(products);
  const categoryRows = () =>
    db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
  // The categories are sent first and then reused for every product, instead of a join.
  let byId = new Map((await categoryRows()).map((row) => [row.id, row]));
  yield { type: 'categories', categories: [...byId.values()].map(toCategoryDto) };

  const changed =
    query.updatedSince === undefined ? undefined : gte(products.updatedAt, query.updatedSince);
  let lastId = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(products)
      .where(and(gt(products.id, lastId), onSale, changed))
      .orderBy(asc(products.id))
      .limit(MIRROR_BATCH_SIZE);
    // A category added since the first line: read them again.
    if (rows.some((row) => !byId.has(row.categoryId))) {
      byId = new Map((await categoryRows()).map((row) => [row.id, row]));
    }
    // The foreign key guarantees every product a category.
    const batch = rows.flatMap((row) => {
      const category = byId.get(row.categoryId);
      return category ? [toProductDto(row, category, viewer)] : [];
    });
    if (batch.length > 0) yield { type: 'products', products: batch };
    if (rows.length < MIRROR_BATCH_SIZE) break;
    lastId = rows[rows.length - 1]?.id ?? lastId;
  }

  yield { type: 'end', cursor: newest?.at?.toISOString() ?? null, ids: await listProductIds(db) };
}
