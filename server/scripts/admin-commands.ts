/**
 * The commands of `npm run admin` (server/scripts/admin.ts), run against an open database
 * so that tests can call them. Every change goes through the same services as the back
 * office, in one transaction with its audit entry; the entry's actor is the command line,
 * named by the operating-system user who ran it (there is no staff account behind it).
 */
import { hostname, userInfo } from 'node:os';
import { COMPANY_STATUSES, type CompanyStatus } from '../../src/contracts/accounts.js';
import { ADMIN_MAX_PAGE_SIZE } from '../../src/contracts/admin.js';
import type { Db } from '../db/database.js';
import { companyDetail, decideCompany, ensureAdmin, listCompanyPage } from '../services/admin.js';
import type { CommandLineActor } from '../services/audit.js';
import { HttpError } from '../services/errors.js';
import { inTransaction } from '../services/transactions.js';

export const USAGE = `Usage: npm run admin -- <command>
  create-admin <email> <password>
  list [${COMPANY_STATUSES.join('|')}]
  show <companyId>
  approve <companyId>
  reject <companyId> [reason]
  suspend <companyId> [reason]
  reactivate <companyId>`;

/** The audit log's actor for this command line: who ran it, on which machine. */
export function commandLineActor(): CommandLineActor {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No user name on this system (a container's bare uid): "unknown" says as much.
  }
  return { commandLine: `${user}@${hostname()}` };
}

/**
 * Runs one command; `print` receives what it says. A refusal (a wrong argument, a decision
 * the company's status does not allow) is thrown as an HttpError with its message.
 */
export async function runAdminCommand(
  db: Db,
  argv: readonly string[],
  print: (line: string) => void,
  actor: CommandLineActor = commandLineActor(),
): Promise<void> {
  const [command, ...args] = argv;
  const companyId = (): number => {
    const id = Number(args[0]);
    if (!Number.isInteger(id) || id < 1)
      throw new HttpError(400, `A company id is needed.\n${USAGE}`);
    return id;
  };
  switch (command) {
    case 'create-admin': {
      const [email, password] = args;
      if (!email || !password || password.length < 8) {
        throw new HttpError(400, 'Give an e-mail and a password of at least 8 characters.');
      }
      const outcome = await inTransaction(db, (tx) => ensureAdmin(tx, email, password, actor));
      print(`Staff account ${email} ${outcome}.`);
      return;
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
        if (pagination.total === 0) print('No companies.');
        for (const c of companies) {
          print(
            `${String(c.id).padStart(5)}  ${c.status.padEnd(9)} ${c.name}  (${c.taxNumber}, ${c.email}, ${c.documentsUploaded} documents)`,
          );
        }
        if (page >= pagination.totalPages) break;
      }
      return;
    }
    case 'show':
      print(JSON.stringify(await companyDetail(db, companyId()), null, 2));
      return;
    case 'approve':
    case 'reject':
    case 'suspend':
    case 'reactivate': {
      const id = companyId();
      const company = await inTransaction(db, (tx) =>
        decideCompany(tx, id, command, args.slice(1).join(' '), actor),
      );
      print(`${company.name}: ${company.status}`);
      return;
    }
    default:
      print(USAGE);
      if (command) throw new HttpError(400, `Unknown command "${command}".`);
  }
}
