/**
 * Generated companies and orders for benchmarks of the back office's lists (`npm run
 * seed:large`, `BENCH_ONLY=admin npm run bench`): each table filled by a few set-based
 * statements (generate_series) rather than row by row, so that 100,000 orders take
 * seconds. Running it again adds only what is missing.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './database.js';
import { hashPassword } from '../services/passwords.js';

export interface LargeOrdersOptions {
  companies: number;
  orders: number;
}

/** Orders written per statement: big enough to be quick, small enough for PGlite's memory. */
const ORDER_BATCH = 20_000;

const countOf = async (db: Db, query: SQL) =>
  Number(((await db.execute(query)) as { rows: { n: number | string }[] }).rows[0]?.n ?? 0);

/**
 * Adds generated companies (one user each, whose password nobody knows) and orders spread
 * over them and over the last two years, with one or two lines each and their creation in
 * the orders' history; then refreshes the planner's statistics.
 */
export async function seedLargeOrders(
  db: Db,
  { companies, orders }: LargeOrdersOptions,
): Promise<void> {
  const haveCompanies = await countOf(
    db,
    sql`SELECT count(*) AS n FROM companies WHERE email LIKE 'bench.company.%'`,
  );
  if (haveCompanies < companies) {
    // A status spread like a real list's: mostly approved, some waiting, a few refused.
    await db.execute(sql`
      INSERT INTO companies (name, status, is_verified, tax_number, email, city, created_at)
      SELECT 'Salon ' || (ARRAY['Aurora', 'Bella', 'Carmen', 'Diva', 'Elena', 'Flora', 'Gloria',
          'Iris', 'Luna', 'Maria'])[1 + n % 10] || ' ' || n,
        (ARRAY['APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'PENDING', 'REJECTED',
          'SUSPENDED'])[1 + n % 7],
        n % 7 < 4,
        'RO' || (10000000 + n),
        'bench.company.' || n || '@example.com',
        (ARRAY['București', 'Cluj-Napoca', 'Iași', 'Timișoara', 'Brașov', 'Constanța'])[1 + n % 6],
        now() - (n % 730) * interval '1 day' - (n % 1440) * interval '1 minute'
      FROM generate_series(${haveCompanies + 1}::int, ${companies}::int) AS n`);
    const passwordHash = await hashPassword(randomUUID());
    await db.execute(sql`
      INSERT INTO users (email, password_hash, first_name, last_name, company_id)
      SELECT c.email, ${passwordHash}, 'Bench', 'Owner', c.id
      FROM companies c
      WHERE c.email LIKE 'bench.company.%'
      ON CONFLICT (email) DO NOTHING`);
  }

  const haveOrders = await countOf(
    db,
    sql`SELECT count(*) AS n FROM orders WHERE order_number LIKE 'BN-%'`,
  );
  for (let start = haveOrders + 1; start <= orders; start += ORDER_BATCH) {
    const end = Math.min(orders, start + ORDER_BATCH - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        WITH owners AS (
          SELECT row_number() OVER (ORDER BY u.id) AS k, u.id AS user_id, u.company_id
          FROM users u WHERE u.email LIKE 'bench.company.%'
        ), total AS (SELECT count(*) AS n FROM owners)
        INSERT INTO orders (order_number, company_id, user_id, status, payment_status,
          subtotal, total, ship_first_name, ship_last_name, ship_street, ship_city,
          ship_zip_code, ship_country, ship_phone, tracking_number, created_at, updated_at)
        SELECT 'BN-' || lpad(n::text, 7, '0'), o.company_id, o.user_id,
          (ARRAY['DELIVERED', 'DELIVERED', 'DELIVERED', 'SHIPPED', 'PROCESSING', 'CONFIRMED',
            'PENDING', 'CANCELLED'])[1 + n % 8],
          (ARRAY['PAID', 'PAID', 'PENDING', 'PAID', 'FAILED', 'REFUNDED'])[1 + n % 6],
          ((n * 37) % 90000) / 100.0 + 10, ((n * 37) % 90000) / 100.0 + 10,
          'Ana', 'Pop', 'Strada Mare ' || (n % 200), 'București', '010101', 'Romania',
          '+40 21 555 0000', CASE WHEN n % 8 < 4 THEN 'AWB' || n ELSE '' END,
          now() - (n % 730) * interval '1 day' - (n * 7 % 1440) * interval '1 minute',
          now() - (n % 730) * interval '1 day'
        FROM generate_series(${start}::int, ${end}::int) AS n
        JOIN owners o ON o.k = 1 + (n * 7919) % (SELECT n FROM total)`);
      await tx.execute(sql`
        INSERT INTO order_items (order_id, product_id, product_name, product_sku, quantity,
          unit_price, total_price)
        SELECT o.id, NULL, 'Bench product ' || line, 'BN-P' || line, 1 + o.id % 5,
          o.total / (1 + o.id % 2) / (1 + o.id % 5), o.total / (1 + o.id % 2)
        FROM orders o, generate_series(1, 2) AS line
        WHERE o.order_number BETWEEN ${`BN-${String(start).padStart(7, '0')}`}
          AND ${`BN-${String(end).padStart(7, '0')}`}
          AND line <= 1 + o.id % 2`);
      await tx.execute(sql`
        INSERT INTO order_events (order_id, at, kind, from_value, to_value, actor, actor_id)
        SELECT o.id, o.created_at, 'status', NULL, 'PENDING', 'salon', o.user_id
        FROM orders o
        WHERE o.order_number BETWEEN ${`BN-${String(start).padStart(7, '0')}`}
          AND ${`BN-${String(end).padStart(7, '0')}`}`);
    });
  }
  // The embedded engine has no autovacuum: the planner's statistics and the visibility map
  // (which lets a count read an index alone) come from this.
  await db.execute(sql`VACUUM ANALYZE companies`);
  await db.execute(sql`VACUUM ANALYZE users`);
  await db.execute(sql`VACUUM ANALYZE orders`);
  await db.execute(sql`VACUUM ANALYZE order_items`);
  await db.execute(sql`VACUUM ANALYZE order_events`);
}
