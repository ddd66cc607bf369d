/**
 * Demo accounts for an empty database: a salon whose company is verified (it sees
 * prices) and one still waiting for verification. `npm start` prints their sign-in
 * details; the app never shows them.
 */
import { eq } from 'drizzle-orm';
import { hashPassword } from '../services/passwords.js';
import type { Db } from './database.js';
import { randomUUID } from 'node:crypto';
import { REQUIRED_DOCUMENTS } from '../../src/contracts/accounts.js';
import { companies, companyDocuments, users } from './schema.js';

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

export async function seedDemoAccounts(db: Db): Promise<void> {
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
        companyId: company?.id ?? null,
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
}
