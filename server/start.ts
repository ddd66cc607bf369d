/**
 * `npm start`: builds the app if it has not been built, opens the database (embedded
 * PGlite unless DATABASE_URL is set), applies migrations, seeds an empty database and
 * serves the app and the API. `--api-only` skips the app (for `npm run dev`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { readConfig } from './config.js';
import { openDatabaseOrExit } from './db/database.js';
import { migrate } from './db/migrate.js';
import { DEMO_ACCOUNTS, demoRepSignIn, demoStaffSignIn } from './db/demo-accounts.js';
import { seedDatabase, startSeeding } from './db/seed.js';
import { ensureAdmin } from './services/admin.js';
import { HttpError } from './services/errors.js';
import { pruneIdempotencyKeys } from './services/idempotency.js';
import { pruneLoginFailures } from './services/login-throttle.js';
import { pruneRegistrationAttempts } from './services/registration-limit.js';
import { pruneLinkRequests } from './services/account-link-limit.js';
import { pruneAccountTokens } from './services/account-tokens.js';
import { useSigningSecret } from './services/tokens.js';
import { mailSender } from './services/mail/transport.js';
import { mailWorker } from './services/mail/worker.js';

const apiOnly = process.argv.includes('--api-only');
const config = readConfig();

if (
  !apiOnly &&
  (!existsSync(join(config.staticDir, 'index.html')) ||
    !existsSync(join(config.renderDir, 'entry-server.js')))
) {
  console.log('Building the app (first start)…');
  const { build } = await import('vite');
  await build({ logLevel: 'warn', build: { outDir: config.staticDir } });
  await build({
    logLevel: 'warn',
    build: { ssr: 'src/entry-server.tsx', outDir: config.renderDir },
  });
}

const database = await openDatabaseOrExit(config.database);
await migrate(database.db);
const embedded = config.database.engine === 'pglite';
if (await seedDatabase(database.db, startSeeding(config.database.engine))) {
  console.log(
    embedded
      ? 'Seeded the demo catalogue and demo accounts.'
      : 'Seeded the demo catalogue (demo accounts are made on the embedded database only).',
  );
}
if (config.jwtSecret) useSigningSecret(database.db, config.jwtSecret);
if (config.admin) {
  try {
    const outcome = await ensureAdmin(database.db, config.admin.email, config.admin.password);
    console.log(`Staff account ${config.admin.email} ${outcome}.`);
  } catch (error) {
    // A staff account that cannot be made is a setting to correct, not something to serve around.
    if (!(error instanceof HttpError)) throw error;
    console.error(`ADMIN_EMAIL ${config.admin.email}: ${error.message}`);
    await database.close();
    process.exit(1);
  }
}

/**
 * Old idempotency records, expired sign-in and registration attempts, requests for e-mailed
 * links and links long past their end are forgotten at start and once a day after.
 */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
const prune = () =>
  Promise.all([
    pruneIdempotencyKeys(database.db),
    pruneLoginFailures(database.db),
    pruneRegistrationAttempts(database.db),
    pruneLinkRequests(database.db),
    pruneAccountTokens(database.db),
  ]);
await prune();
setInterval(() => void prune().catch(() => undefined), PRUNE_EVERY_MS).unref();
const app = await buildApp({
  database,
  staticDir: apiOnly ? null : config.staticDir,
  renderDir: apiOnly ? null : config.renderDir,
  logger: { level: config.logLevel },
  trustProxy: config.trustProxy,
  publicUrl: config.publicUrl,
  maker: config.maker,
});
// The queued e-mail goes out from every process (services/mail/worker.ts); closing the
// server stops it before the database closes.
const mail = mailWorker({ db: database.db, sender: mailSender(config.mail), log: app.log });
app.addHook('onClose', () => mail.stop());
mail.start();

/** Stops taking requests, then closes the database; a failure to do so is printed. */
const shutdown = () => {
  app
    .close()
    .then(() => database.close())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Could not shut down cleanly:', error);
        process.exit(1);
      },
    );
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
const where =
  config.database.engine === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.database.dataDir}`;
console.log(`Portal ready at http://localhost:${config.port}/ (database: ${where})`);
// The mail server by its host alone: the address may carry a password.
console.log(
  config.mail.smtpUrl
    ? `E-mail is sent through ${new URL(config.mail.smtpUrl).host}.`
    : `E-mail is written as .eml files to ${config.mail.folder} (no SMTP_URL).`,
);
// The demo sign-ins, on the embedded database: the staff account's and the rep's while
// their passwords are still the ones made for them.
if (embedded) {
  const demoStaff = await demoStaffSignIn(database.db);
  console.log('Demo sign-ins (demo data only):');
  for (const demo of DEMO_ACCOUNTS) {
    console.log(`  ${demo.company.status.padEnd(8)} ${demo.email} / ${demo.password}`);
  }
  if (demoStaff) {
    console.log(
      `  ${'STAFF'.padEnd(8)} ${demoStaff.email} / ${demoStaff.password}  (back office: /admin)`,
    );
  }
  const demoRep = await demoRepSignIn(database.db);
  if (demoRep) {
    console.log(`  ${'REP'.padEnd(8)} ${demoRep.email} / ${demoRep.password}  (customers: /rep)`);
  }
}
