/**
 * Rows for the back-office suites, written straight to the database: salons with their
 * sessions, orders and documents, without the registration limits or the checkout rules
 * those suites are not about.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db/database';
import { companies, companyDocuments, orders, users } from '../../server/db/schema';
import { ensureAdmin } from '../../server/services/admin';
import { hashPassword } from '../../server/services/passwords';
import { openSession } from '../../server/services/sessions';
import { ADDRESS, signIn, type Tokens } from './helpers';

/** Hashed once: every salon user made here has this password. */
const passwordHash = hashPassword('Salon-Pass-1');

type CompanyFields = Partial<typeof companies.$inferInsert>;

export interface Salon {
  companyId: number;
  userId: number;
  tokens: Tokens;
}

/** A company (PENDING unless told otherwise) with one user, signed in. */
export async function salon(db: Db, fields: CompanyFields = {}): Promise<Salon> {
  const [company] = await db
    .insert(companies)
    .values({ name: `Salon ${randomUUID()}`, ...fields })
    .returning({ id: companies.id });
  const companyId = company?.id ?? 0;
  const [user] = await db
    .insert(users)
    .values({
      email: `salon.${randomUUID()}@example.com`,
      passwordHash: await passwordHash,
      firstName: 'Ana',
      lastName: 'Ionescu',
      companyId,
    })
    .returning({ id: users.id });
  const userId = user?.id ?? 0;
  return { companyId, userId, tokens: await openSession(db, userId) };
}

export interface Staff {
  id: number;
  email: string;
  tokens: Tokens;
}

/** A staff account made as the command line makes one, signed in through the API. */
export async function staffMember(app: FastifyInstance, db: Db, email: string): Promise<Staff> {
  const password = 'Staff-Pass-123';
  await ensureAdmin(db, email, password);
  const tokens = await signIn(app, email, password);
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { id: row?.id ?? 0, email, tokens };
}

/** The row of an order of a salon, PENDING unless told otherwise, placed now unless told when. */
export function orderRow(
  { companyId, userId }: Pick<Salon, 'companyId' | 'userId'>,
  fields: Partial<typeof orders.$inferInsert> = {},
): typeof orders.$inferInsert {
  return {
    orderNumber: `T-${randomUUID()}`,
    companyId,
    userId,
    subtotal: '100.00',
    total: '100.00',
    shipFirstName: ADDRESS.firstName,
    shipLastName: ADDRESS.lastName,
    shipStreet: ADDRESS.street,
    shipCity: ADDRESS.city,
    shipZipCode: ADDRESS.zipCode,
    shipCountry: ADDRESS.country,
    shipPhone: ADDRESS.phone,
    ...fields,
  };
}

/** An order of a salon (see orderRow), stored. */
export async function order(
  db: Db,
  salon: Salon,
  fields: Partial<typeof orders.$inferInsert> = {},
): Promise<number> {
  const [row] = await db
    .insert(orders)
    .values(orderRow(salon, fields))
    .returning({ id: orders.id });
  return row?.id ?? 0;
}

/** A document of a company, as an upload stores one (its type read from its bytes). */
export async function companyDocument(
  db: Db,
  companyId: number,
  file: { data: Buffer; contentType: string; originalName: string },
): Promise<number> {
  const [row] = await db
    .insert(companyDocuments)
    .values({
      companyId,
      type: 'TRADE_REGISTER',
      originalName: file.originalName,
      storedName: `${randomUUID()}.bin`,
      contentType: file.contentType,
      size: file.data.length,
      data: file.data,
    })
    .returning({ id: companyDocuments.id });
  return row?.id ?? 0;
}
