/**
 * `npm run seed:large -- [count]`: adds a large generated catalogue (10,000 products by
 * default) to the configured database, for benchmarks.
 */
import { readConfig } from '../config.js';
import { openDatabaseOrExit } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { seedLargeCatalogue } from '../db/seed.js';

const total = Number(process.argv[2] ?? 10_000);
if (!Number.isInteger(total) || total < 1) {
  console.error('Usage: npm run seed:large -- <number of products>');
  process.exit(1);
}
const database = await openDatabaseOrExit(readConfig().database);
await migrate(database.db);
await seedLargeCatalogue(database.db, total);
await database.close();
console.log(`Added up to ${total} generated products.`);
