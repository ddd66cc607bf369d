/**
 * `npm run seed:large -- [products] [companies] [orders]`: adds a large generated catalogue
 * (10,000 products by default) and, for the back office's lists, 10,000 companies with
 * 100,000 orders (by default) to the configured database, for benchmarks.
 */
import { readConfig } from '../config.js';
import { openDatabaseOrExit } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { seedLargeCatalogue, startSeeding } from '../db/seed.js';
import { seedLargeOrders } from '../db/seed-orders.js';

const [total, companies, orders] = [
  [process.argv[2], 10_000],
  [process.argv[3], 10_000],
  [process.argv[4], 100_000],
].map(([given, fallback]) => Number(given ?? fallback));
if (![total, companies, orders].every((n) => Number.isInteger(n) && (n ?? 0) >= 1)) {
  console.error('Usage: npm run seed:large -- [products] [companies] [orders]');
  process.exit(1);
}
const config = readConfig().database;
const database = await openDatabaseOrExit(config);
await migrate(database.db);
// An empty database gets what `npm start` would give it: no demo accounts on PostgreSQL.
await seedLargeCatalogue(database.db, total as number, startSeeding(config.engine));
await seedLargeOrders(database.db, { companies: companies as number, orders: orders as number });
await database.close();
console.log(
  `Added up to ${total} generated products, ${companies} companies and ${orders} orders.`,
);
