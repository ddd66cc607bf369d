/**
 * Demo accounts for an empty database: a salon whose company is verified (it sees
 * prices), one still waiting for verification, a staff account for the back office and a
 * sales rep to whom both salons are assigned.
 * `npm start` prints their sign-in details; the app never shows them.
 */
import { eq, inArray } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '../services/passwords.js';
import type { Db } from './database.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { REQUIRED_DOCUMENTS } from '../../src/contracts/accounts.js';
import { companies, companyDocuments, settings, users } from './schema.js';

/** A one-page PDF standing in for a scanned certificate. */
const demoPdf = (title: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842]>> endobj\ntrailer <</Root 1 0 R /Title (${title})>>\n%%EOF\n`,
  );

export const DEMO_ACCOUNTS = [
  {
    email: 'salon.verified@example.com',
    password: 'Verified-Salon-2026',
    firstName: 'Ioana',
    lastName: 'Popescu',
    language: 'ro' as const,
    company: {
      name: 'Salon Bella Vista SRL',
      status: 'APPROVED' as const,
      isVerified: true,
      taxNumber: 'RO18547290',
      registrationNumber: 'J40/1234/2015',
      email: 'salon.verified@example.com',
      phone: '+40 21 555 0123',
      address: 'Strada Florilor 12',
      city: 'București',
      postalCode: '010101',
      country: 'Romania',
      industry: 'Hair salon',
      businessType: 'SRL',
      employeeCount: '6-10',
      annualRevenue: '100k-250k EUR',
    },
  },
  {
    email: 'salon.pending@example.com',
    password: 'Pending-Salon-2026',
    firstName: 'Marco',
    lastName: 'Bianchi',
    // Its e-mail is in Italian from the start, as if it had registered in Italian.
    language: 'it' as const,
    company: {
      name: 'Studio Capelli Nuovi SRL',
      status: 'PENDING' as const,
      isVerified: false,
      taxNumber: 'IT04718290153',
      registrationNumber: 'MI-2098765',
      email: 'salon.pending@example.com',
      phone: '+39 02 5550 1234',
      address: 'Via Dante 8',
      city: 'Milano',
      postalCode: '20121',
      country: 'Italy',
    },
  },
];

/** The demo staff account's e-mail; its password is made for each database (below). */
export const DEMO_STAFF_EMAIL = 'staff@example.com';
/** The demo sales rep's, to whom the demo salons are assigned; its password likewise. */
export const DEMO_REP_EMAIL = 'rep@example.com';

/** The maker's demo accounts: the back office's, and a sales rep's. */
const DEMO_MAKER_ACCOUNTS = [
  {
    email: DEMO_STAFF_EMAIL,
    firstName: 'Demo',
    lastName: 'Staff',
    role: 'ADMIN',
    /**
     * Where the password is kept, so that every start can print it as it prints the
     * salons'. It is a demo account's, on a database of demo data: whoever can read the
     * settings can read everything else there too.
     */
    passwordKey: 'demo_staff_password',
  },
  {
    email: DEMO_REP_EMAIL,
    firstName: 'Radu',
    lastName: 'Munteanu',
    role: 'SALES_REP',
    passwordKey: 'demo_rep_password',
  },
] as const;

type MakerAccount = (typeof DEMO_MAKER_ACCOUNTS)[number];

/**
 * A demo account of the maker, with a password made for this database alone: one printed
 * in the README would open the back office of every installation that ever started with
 * demo data. Made only while the e-mail is free: a staff or rep account is never made out
 * of a customer's (services/admin.ts, ensureAdmin). Resolves to its id when made.
 */
async function seedMakerAccount(db: Db, account: MakerAccount): Promise<number | null> {
  const password = randomBytes(12).toString('base64url');
  const [created] = await db
    .insert(users)
    .values({
      email: account.email,
      passwordHash: await hashPassword(password),
      firstName: account.firstName,
      lastName: account.lastName,
      role: account.role,
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (!created) return null;
  await db
    .insert(settings)
    .values({ key: account.passwordKey, value: password })
    .onConflictDoUpdate({ target: settings.key, set: { value: password } });
  return created.id;
}

/**
 * A demo sign-in of the maker's, while the account still has the password it was made
 * with: none on a database seeded without demo data, nor once the password was set again
 * (ADMIN_PASSWORD, `npm run admin -- create-admin`, a reset on the People page).
 */
async function makerSignIn(
  db: Db,
  account: MakerAccount,
): Promise<{ email: string; password: string } | null> {
  const [kept] = await db
    .select({ password: settings.value })
    .from(settings)
    .where(eq(settings.key, account.passwordKey));
  if (!kept) return null;
  const [found] = await db
    .select({ passwordHash: users.passwordHash, role: users.role, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.email, account.email));
  const valid =
    found?.role === account.role &&
    found.deletedAt === null &&
    (await verifyPassword(found.passwordHash, kept.password));
  return valid ? { email: account.email, password: kept.password } : null;
}

/** The demo staff sign-in (see makerSignIn). */
export const demoStaffSignIn = (db: Db) => makerSignIn(db, DEMO_MAKER_ACCOUNTS[0]);
/** The demo sales rep's sign-in (see makerSignIn). */
export const demoRepSignIn = (db: Db) => makerSignIn(db, DEMO_MAKER_ACCOUNTS[1]);

/**
 * The demo salons, and with `staff` the maker's demo accounts: staff, and a sales rep to
 * whom the demo salons are assigned (only for the embedded demo database: a sign-in
 * printed at start must never exist on a real deployment).
 */
export async function seedDemoAccounts(db: Db, { staff = false } = {}): Promise<void> {
  for (const demo of DEMO_ACCOUNTS) {
    const [existing] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, demo.email));
    if (existing) continue;
    const passwordHash = await hashPassword(demo.password);
    await db.transaction(async (tx) => {
      const [company] = await tx
        .insert(companies)
        .values({ ...demo.company, verifiedAt: demo.company.isVerified ? new Date() : null })
        .returning({ id: companies.id });
      await tx.insert(users).values({
        email: demo.email,
        passwordHash,
        firstName: demo.firstName,
        lastName: demo.lastName,
        language: demo.language,
        companyId: company?.id ?? null,
        // The verified salon confirmed its address long ago; the pending one has not yet.
        emailVerifiedAt: demo.company.isVerified ? new Date() : null,
      });
      if (company && demo.company.isVerified) {
        // A verified company has had its documents reviewed.
        const now = new Date();
        await tx.insert(companyDocuments).values(
          REQUIRED_DOCUMENTS.map((doc) => {
            const data = demoPdf(doc.type);
            return {
              companyId: company.id,
              type: doc.type,
              status: 'APPROVED' as const,
              originalName: `${doc.key}.pdf`,
              storedName: `${randomUUID()}.pdf`,
              contentType: 'application/pdf',
              size: data.length,
              data,
              reviewNotes: '',
              reviewedAt: now,
            };
          }),
        );
      }
    });
  }
  if (!staff) return;
  await seedMakerAccount(db, DEMO_MAKER_ACCOUNTS[0]);
  const repId = await seedMakerAccount(db, DEMO_MAKER_ACCOUNTS[1]);
  if (repId === null) return;
  const salons = await db
    .select({ companyId: users.companyId })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((demo) => demo.email),
      ),
    );
  const companyIds = salons.flatMap((salon) => salon.companyId ?? []);
  if (companyIds.length > 0) {
    await db.update(companies).set({ salesRepId: repId }).where(inArray(companies.id, companyIds));
  }
}
