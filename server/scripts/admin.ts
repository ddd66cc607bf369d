/**
 * `npm run admin -- <command>`: the back office from a terminal (commands and their audit
 * entries: ./admin-commands.ts).
 *
 *   create-admin <email> <password>    create the staff account, or set its password
 *   list [PENDING|APPROVED|REJECTED|SUSPENDED]
 *   show <companyId>
 *   approve <companyId>
 *   reject <companyId> [reason]
 *   suspend <companyId> [reason]
 *   reactivate <companyId>
 */
import { readConfig } from '../config.js';
import { openDatabaseOrExit } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { seenEverywhere } from '../services/change-versions.js';
import { HttpError } from '../services/errors.js';
import { runAdminCommand } from './admin-commands.js';

const database = await openDatabaseOrExit(readConfig().database);
await migrate(database.db);

try {
  await runAdminCommand(database.db, process.argv.slice(2), (line) => console.log(line));
} catch (error) {
  console.error(error instanceof HttpError ? error.message : error);
  process.exitCode = 1;
} finally {
  // Running servers stop serving what the change outdated before this command says it is done.
  await seenEverywhere(database);
  await database.close();
}
