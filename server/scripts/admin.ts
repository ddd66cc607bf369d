/**
 * `npm run admin -- <command>`: the back office from a terminal.
 *
 *   create-admin <email> <password>    create the staff account, or set its password
 *   list [PENDING|APPROVED|REJECTED|SUSPENDED]
 *   show <companyId>
 *   approve <companyId>
 *   reject <companyId> [reason]
 *   suspend <companyId> [reason]
 *   reactivate <companyId>
 */
import { COMPANY_STATUSES, type CompanyStatus } from '../../src/contracts/accounts.js';
import { readConfig } from '../config.js';
import { openDatabaseOrExit } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { ADMIN_MAX_PAGE_SIZE } from '../../src/contracts/admin.js';
import { companyDetail, decideCompany, ensureAdmin, listCompanyPage } from '../services/admin.js';
import { seenEverywhere } from '../services/change-versions.js';
import { HttpError } from '../services/errors.js';

const USAGE = `Usage: npm run admin -- <command>
  create-admin <email> <password>
  list [${COMPANY_STATUSES.join('|')}]
  show <companyId>
  approve <companyId>
  reject <companyId> [reason]
  suspend <companyId> [reason]
  reactivate <companyId>`;

const [command, ...args] = process.argv.slice(2);
const database = await openDatabaseOrExit(readConfig().database);
await migrate(database.db);
const db = database.db;

const companyId = (): number => {
  const id = Number(args[0]);
  if (!Number.isInteger(id) || id < 1)
    throw new HttpError(400, `A company id is needed.\n${USAGE}`);
  return id;
};

try {
  switch (command) {
    case 'create-admin': {
      const [email, password] = args;
      if (!email || !password || password.length < 8) {
        throw new HttpError(400, 'Give an e-mail and a password of at least 8 characters.');
      }
      console.log(`Staff account ${email} ${await ensureAdmin(db, email, password)}.`);
      break;
    }
    case 'list': {
      const status = args[0]?.toUpperCase() as CompanyStatus | undefined;
      if (status && !COMPANY_STATUSES.includes(status)) throw new HttpError(400, USAGE);
      // Every company, newest first, read a page at a time.
      for (let page = 1; ; page += 1) {
        const { companies, pagination } = await listCompanyPage(db, {
          ...(status ? { status } : {}),
          page,
          limit: ADMIN_MAX_PAGE_SIZE,
        });
        if (pagination.total === 0) console.log('No companies.');
        for (const c of companies) {
          console.log(
            `${String(c.id).padStart(5)}  ${c.status.padEnd(9)} ${c.name}  (${c.taxNumber}, ${c.email}, ${c.documentsUploaded} documents)`,
          );
        }
        if (page >= pagination.totalPages) break;
      }
      break;
    }
    case 'show':
      console.log(JSON.stringify(await companyDetail(db, companyId()), null, 2));
      break;
    case 'approve':
    case 'reject':
    case 'suspend':
    case 'reactivate': {
      const company = await decideCompany(db, companyId(), command, args.slice(1).join(' '));
      console.log(`${company.name}: ${company.status}`);
      break;
    }
    default:
      console.log(USAGE);
      process.exitCode = command ? 1 : 0;
  }
} catch (error) {
  console.error(error instanceof HttpError ? error.message : error);
  process.exitCode = 1;
} finally {
  // Running servers stop serving what the change outdated before this command says it is done.
  await seenEverywhere(database);
  await database.close();
}
