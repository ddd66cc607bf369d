/**
 * Fills an empty database with the demo catalogue, and on request with a large
 * generated catalogue for benchmarks. Seeding an already seeded database does nothing.
 */
import { count, sql } from 'drizzle-orm';
import { withCheckDigit } from '../../src/contracts/barcodes.js';
import { deriveSearchFields } from '../../src/contracts/catalogue-query.js';
import type { DatabaseConfig, Db } from './database.js';
import { seedDemoAccounts } from './demo-accounts.js';
import { productArt, type ArtView } from './product-art.js';
import { categories, media, products } from './schema.js';
import { SEED_CATEGORIES, SEED_PRODUCTS, type SeedCategory } from './seed-catalogue.js';

const DAY_MS = 86_400_000;
const VIEWS: ArtView[] = ['front', 'back', 'texture'];
/** Any constant shared by every process of the portal; it names the seeding lock. */
const SEED_LOCK_ID = 7_041_999;
/** Rows per INSERT: large enough to be quick, small enough for the parameter limit. */
const INSERT_BATCH = 500;

/**
 * What `npm start` seeds into an empty database: the demo catalogue always; the demo
 * accounts, whose passwords are in the source, only on the embedded demo database. On a
 * PostgreSQL deployment they would be approved salons anyone could sign in as; its
 * people come from ADMIN_EMAIL/ADMIN_PASSWORD, registration and the back office.
 */
export function startSeeding(engine: DatabaseConfig['engine']) {
  const embedded = engine === 'pglite';
  return { demoAccounts: embedded, demoStaff: embedded };
}

export async function seedDatabase(
  db: Db,
  options: {
    now?: Date;
    demoAccounts?: boolean;
    /** With the demo accounts, a demo staff account too (the embedded demo database only). */
    demoStaff?: boolean;
  } = {},
): Promise<boolean> {
  const { now = new Date(), demoAccounts = true, demoStaff = false } = options;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    // Two processes starting on one empty database: the second waits here, then finds it seeded.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    const [row] = await tx.select({ n: count() }).from(categories);
    if ((row?.n ?? 0) > 0) return false;
    if (demoAccounts) await seedDemoAccounts(tx, { staff: demoStaff });
    const inserted = await tx
      .insert(categories)
      .values(SEED_CATEGORIES.map(({ slug, name }, position) => ({ slug, name, position })))
      .returning({ id: categories.id, slug: categories.slug });
    const idOf = new Map(inserted.map((c) => [c.slug, c.id]));
    const styleOf = new Map(SEED_CATEGORIES.map((c) => [c.slug, c]));
    const files: (typeof media.$inferInsert)[] = [];
    const rows = SEED_PRODUCTS.map((product) => {
      const style = styleOf.get(product.category) as SeedCategory;
      const images = VIEWS.slice(0, product.images).map((view, i) => {
        const path = `/uploads/products/${product.sku.toLowerCase()}-${i + 1}.svg`;
        const svg = productArt({ name: product.name, shape: style.shape, hue: style.hue, view });
        files.push({ path, contentType: 'image/svg+xml', data: Buffer.from(svg) });
        return path;
      });
      const added = new Date(now.getTime() - product.addedDaysAgo * DAY_MS);
      return {
        sku: product.sku,
        ean: product.ean,
        name: product.name,
        shortDescription: product.shortDescription,
        description: product.description,
        categoryId: idOf.get(product.category) as number,
        price: product.price.toFixed(2),
        stock: product.stock,
        tags: product.tags,
        images,
        ...deriveSearchFields(product),
        createdAt: added,
        updatedAt: added,
      };
    });
    await tx.insert(products).values(rows);
    await tx.insert(media).values(files);
    return true;
  });
}

const LARGE_WORDS = {
  lines: [
    'Hydra',
    'Volume',
    'Color',
    'Silver',
    'Repair',
    'Argan',
    'Curl',
    'Detox',
    'Tea Tree',
    'Keratin',
    'Cacao',
    'Blonde',
    'Balance',
    'Glow',
    'Pure',
  ],
  kinds: [
    'Shampoo',
    'Conditioner',
    'Mask',
    'Serum',
    'Lotion',
    'Spray',
    'Cream',
    'Oil',
    'Tonic',
    'Gel',
  ],
  sizes: ['50 ml', '100 ml', '150 ml', '250 ml', '500 ml', '1000 ml'],
};

/**
 * A generated product's barcode: GS1's prefix 200 (restricted circulation: numbers for use
 * inside one company, never a product's in trade), so that it is neither a real product's
 * nor a demo one's, then the product's number and the check digit.
 */
const generatedEan = (n: number): string => withCheckDigit(`200${String(n).padStart(9, '0')}`);

/**
 * Adds `total` generated products (for benchmarks) across the demo categories. Their
 * pictures reuse a handful of generated files so that the database stays small.
 */
export async function seedLargeCatalogue(
  db: Db,
  total: number,
  /** How an empty database is seeded first (the demo accounts by default). */
  seeding: Parameters<typeof seedDatabase>[1] = {},
): Promise<void> {
  await seedDatabase(db, seeding);
  const now = seeding?.now ?? new Date();
  const cats = await db.select().from(categories);
  const paths: string[] = [];
  const files = cats.flatMap((category, i) => {
    const style = SEED_CATEGORIES.find((c) => c.slug === category.slug) ?? SEED_CATEGORIES[0];
    const path = `/uploads/products/bench-${i + 1}.svg`;
    paths.push(path);
    const svg = productArt({
      name: category.name,
      shape: style?.shape ?? 'bottle',
      hue: style?.hue ?? 0,
      view: 'front',
    });
    return [{ path, contentType: 'image/svg+xml', data: Buffer.from(svg) }];
  });
  await db.insert(media).values(files).onConflictDoNothing();
  const { lines, kinds, sizes } = LARGE_WORDS;
  for (let start = 0; start < total; start += INSERT_BATCH) {
    const batch = [];
    for (let n = start; n < Math.min(total, start + INSERT_BATCH); n += 1) {
      const line = lines[n % lines.length] as string;
      const kind = kinds[Math.floor(n / lines.length) % kinds.length] as string;
      const size = sizes[n % sizes.length] as string;
      const categoryIndex = n % cats.length;
      const name = `${line} ${kind} ${size} No. ${n + 1}`;
      const fields = {
        name,
        sku: `BN-${String(n + 1).padStart(6, '0')}`,
        ean: generatedEan(n + 1),
        shortDescription: `${line} care ${kind.toLowerCase()} for professional use.`,
        description: `Generated benchmark product ${n + 1} of the ${line} line.`,
      };
      const added = new Date(now.getTime() - (n % 1000) * DAY_MS);
      batch.push({
        ...fields,
        categoryId: (cats[categoryIndex] as (typeof cats)[number]).id,
        price: (3 + ((n * 37) % 19700) / 100).toFixed(2),
        stock: n % 11 === 0 ? 0 : (n * 7) % 300,
        tags: [line.toLowerCase(), kind.toLowerCase()],
        images: [paths[categoryIndex] as string],
        ...deriveSearchFields(fields),
        createdAt: added,
        updatedAt: added,
      });
    }
    await db.insert(products).values(batch).onConflictDoNothing();
  }
}
