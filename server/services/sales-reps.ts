/**
 * Sales reps (docs/product.md#field-sales): the maker's accounts that take orders for the
 * companies assigned to them. Staff assign a company at most one rep (`assignSalesRep`);
 * a rep reads only its own customers (`listRepCustomers`, `repCustomer`): any other
 * company is not found, as if it did not exist. A rep may register a new salon at the
 * booth (`registerRepCustomer`), which becomes its customer while staff verify it.
 */
import { and, asc, count, desc, eq, gte, inArray, isNull, max, sql } from 'drizzle-orm';
import { canSeePrices } from '../../src/contracts/accounts.js';
import type { RegisteredBy, SalesRepSummary } from '../../src/contracts/admin-schemas.js';
import type {
  RepCustomer,
  RepOrder,
  RepOrderBody,
} from '../../src/contracts/field-sales-schemas.js';
import {
  MAX_REP_ORDERS,
  MAX_SIGNATURE_BYTES,
  OPEN_ORDER_STATUSES,
} from '../../src/contracts/field-sales.js';
import {
  fieldErrors,
  RepCustomerFormSchema,
  type RepCustomerForm,
} from '../../src/contracts/form-schemas.js';
import type { Order } from '../../src/contracts/orders.js';
import { normalizeEmail, trimFields } from '../../src/contracts/validation.js';
import type { Db } from '../db/database.js';
import {
  companies,
  orders,
  orderSignatures,
  taxNumberKey,
  users,
  withTaxNumber,
} from '../db/schema.js';
import type { Account } from './accounts.js';
import { recordAudit, type AuditActor } from './audit.js';
import { keepBoothDetails } from './booth-details.js';
import { lockProducts } from './cart.js';
import { detectDocumentType } from './documents.js';
import { HttpError, invalidFields, notFound } from './errors.js';
import { createOrder, namedLines, shippingOf, withItems } from './orders.js';

export const UNKNOWN_SALES_REP = 'Choose an active sales rep.';

const REP_COLUMNS = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  deactivatedAt: users.deactivatedAt,
};

type RepRow = { id: number; email: string; firstName: string; lastName: string } & {
  deactivatedAt: Date | null;
};

const toSummary = ({ deactivatedAt, ...rep }: RepRow): SalesRepSummary => ({
  ...rep,
  active: deactivatedAt === null,
});

const isSalesRep = and(eq(users.role, 'SALES_REP'), isNull(users.deletedAt));

/** The rep assigned to a company, or null. */
export async function salesRepOf(db: Db, companyId: number): Promise<SalesRepSummary | null> {
  const [rep] = await db
    .select(REP_COLUMNS)
    .from(companies)
    .innerJoin(users, eq(users.id, companies.salesRepId))
    .where(eq(companies.id, companyId));
  return rep ? toSummary(rep) : null;
}

/**
 * `PUT /api/admin/companies/{id}/sales-rep`: the company's rep, or none (null).
 *
 * 1. Lock the company (404 when there is none).
 * 2. The rep must be an active sales rep account (400 on the field `salesRepId`).
 * 3. Store it and record the change in the log, in the same transaction; choosing the rep
 *    the company already has changes and records nothing.
 */
export async function assignSalesRep(
  db: Db,
  companyId: number,
  salesRepId: number | null,
  actor: AuditActor,
): Promise<SalesRepSummary | null> {
  const [company] = await db
    .select({ salesRepId: companies.salesRepId })
    .from(companies)
    .where(eq(companies.id, companyId))
    .for('update');
  if (!company) throw notFound('Company not found');
  let chosen: SalesRepSummary | null = null;
  if (salesRepId !== null) {
    const [rep] = await db
      .select(REP_COLUMNS)
      .from(users)
      .where(and(eq(users.id, salesRepId), isSalesRep, isNull(users.deactivatedAt)));
    if (!rep) {
      throw new HttpError(400, UNKNOWN_SALES_REP, [
        { field: 'salesRepId', code: 'salesRepUnknown', message: UNKNOWN_SALES_REP },
      ]);
    }
    chosen = toSummary(rep);
  }
  if (company.salesRepId === salesRepId) return chosen;
  const previous = await salesRepOf(db, companyId);
  await db
    .update(companies)
    .set({ salesRepId, updatedAt: new Date() })
    .where(eq(companies.id, companyId));
  const label = (rep: SalesRepSummary | null) =>
    rep ? `${rep.firstName} ${rep.lastName} <${rep.email}>`.trim() : null;
  await recordAudit(db, {
    actor,
    action: 'company.assign-rep',
    entityType: 'company',
    entityId: companyId,
    companyId,
    before: { salesRepId: company.salesRepId, salesRep: label(previous) },
    after: { salesRepId, salesRep: label(chosen) },
  });
  return chosen;
}

/** The reps who registered these companies at a booth, by company id (none: not in the map). */
export async function registeredByOf(
  db: Db,
  rows: readonly { id: number; registeredByRepId: number | null }[],
): Promise<Map<number, NonNullable<RegisteredBy>>> {
  const repIds = [...new Set(rows.flatMap((row) => row.registeredByRepId ?? []))];
  if (repIds.length === 0) return new Map();
  const reps = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, repIds));
  return new Map(
    rows.flatMap((row) => {
      const rep = reps.find((candidate) => candidate.id === row.registeredByRepId);
      return rep ? [[row.id, rep] as const] : [];
    }),
  );
}

/** The rep's own customer, else 404 (another rep's, none's, or no such company). */
const customerWhere = (repId: number, companyId: number) =>
  and(eq(companies.id, companyId), eq(companies.salesRepId, repId));
const noCustomer = () => notFound('Customer not found');

/** The assigned companies of a rep, by name; one company when `companyId` is given. */
async function customersOf(db: Db, repId: number, companyId?: number): Promise<RepCustomer[]> {
  const rows = await db
    .select()
    .from(companies)
    .where(
      and(
        eq(companies.salesRepId, repId),
        companyId === undefined ? undefined : eq(companies.id, companyId),
      ),
    )
    .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [contacts, lastOrders, openOrders] = await Promise.all([
    db
      .select({
        companyId: users.companyId,
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(users)
      .where(and(inArray(users.companyId, ids), isNull(users.deletedAt)))
      .orderBy(asc(users.id)),
    db
      .select({ companyId: orders.companyId, last: max(orders.createdAt) })
      .from(orders)
      .where(inArray(orders.companyId, ids))
      .groupBy(orders.companyId),
    db
      .select({ companyId: orders.companyId, n: count() })
      .from(orders)
      .where(and(inArray(orders.companyId, ids), inArray(orders.status, [...OPEN_ORDER_STATUSES])))
      .groupBy(orders.companyId),
  ]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    status: row.status,
    taxNumber: row.taxNumber,
    registrationNumber: row.registrationNumber,
    email: row.email,
    phone: row.phone,
    address: row.address,
    city: row.city,
    state: row.state,
    postalCode: row.postalCode,
    country: row.country,
    website: row.website,
    contacts: contacts
      .filter((contact) => contact.companyId === row.id)
      .map(({ companyId: _company, ...contact }) => contact),
    lastOrderAt:
      lastOrders.find((order) => order.companyId === row.id)?.last?.toISOString() ?? null,
    openOrders: openOrders.find((order) => order.companyId === row.id)?.n ?? 0,
  }));
}

/** `GET /api/rep/customers`: the companies assigned to the signed-in rep. */
export const listRepCustomers = (db: Db, repId: number) => customersOf(db, repId);

/** `GET /api/rep/customers/{id}`: one of them; any other company is not found (404). */
export async function repCustomer(db: Db, repId: number, companyId: number): Promise<RepCustomer> {
  const [customer] = await customersOf(db, repId, companyId);
  if (!customer) throw noCustomer();
  return customer;
}

/** The form's text fields, stored without surrounding spaces. */
const REP_CUSTOMER_FIELDS = Object.keys(
  RepCustomerFormSchema.properties,
) as (keyof RepCustomerForm)[];

export const COMPANY_EXISTS =
  'A company with this tax number is already registered. The maker’s staff can assign it to you.';

/**
 * `POST /api/rep/customers`: a salon the rep registers at the booth. No account is made:
 * the salon's people get their own later.
 *
 * 1. Trim the fields and check them by the form's rules (400, one detail per field, as
 *    every form of the API answers).
 * 2. Wait for any other registration of the same tax number (a lock on the number as
 *    `taxNumberKey` compares it, held to the end of the transaction): two at once never
 *    make two companies.
 * 3. A company with that number already: when one is this rep's customer, it is the answer
 *    (`created` false; the rep sees its customers whole anyway), its record kept as it is
 *    and what was typed that the record does not say kept for staff (`keepBoothDetails`);
 *    anyone else's is 409 COMPANY_EXISTS.
 * 4. Otherwise create it PENDING, assigned to the rep and registered by it.
 */
export async function registerRepCustomer(
  db: Db,
  repId: number,
  body: RepCustomerForm,
): Promise<{ customer: RepCustomer; created: boolean }> {
  const form = trimFields(body, REP_CUSTOMER_FIELDS);
  const errors = fieldErrors(RepCustomerFormSchema, form);
  if (errors.length > 0) throw invalidFields(errors);
  const key = taxNumberKey(form.taxNumber);
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext('company-tax-number:' || ${key}))`);
  // The rep's own customer first: a tax number may be on several companies (salons that
  // registered themselves are not told apart by it).
  const [existing] = await db
    .select()
    .from(companies)
    .where(withTaxNumber(form.taxNumber))
    .orderBy(sql`${companies.salesRepId} IS NOT DISTINCT FROM ${repId} DESC`, asc(companies.id))
    .limit(1)
    // Held to the end: details kept for staff are compared with the record as it stays, not
    // with one a staff member's correction is replacing meanwhile.
    .for('share');
  if (existing) {
    if (existing.salesRepId !== repId) {
      throw new HttpError(409, COMPANY_EXISTS, undefined, { code: 'COMPANY_EXISTS' });
    }
    await keepBoothDetails(db, repId, existing, form);
    return { customer: await repCustomer(db, repId, existing.id), created: false };
  }
  const [created] = await db
    .insert(companies)
    .values({
      name: form.companyName,
      taxNumber: form.taxNumber,
      registrationNumber: form.registrationNumber,
      email: normalizeEmail(form.companyEmail),
      phone: form.companyPhone,
      address: form.address,
      city: form.city,
      postalCode: form.postalCode,
      country: form.country,
      website: form.website ?? '',
      salesRepId: repId,
      registeredByRepId: repId,
    })
    .returning({ id: companies.id });
  if (!created) throw new Error('The company could not be created');
  return { customer: await repCustomer(db, repId, created.id), created: true };
}

export const CUSTOMER_NOT_APPROVED =
  'This customer was rejected or is suspended, so orders cannot be placed for it.';

/** One of the rep's customers, locked for the change at hand. */
async function lockedCustomer(db: Db, repId: number, companyId: number) {
  const [company] = await db
    .select()
    .from(companies)
    .where(customerWhere(repId, companyId))
    .for('share');
  if (!company) throw noCustomer();
  return company;
}

/** The signature's bytes, when they are a PNG within the size; else a 400 on the field. */
function signatureOf(base64: string): Buffer {
  const data = Buffer.from(base64, 'base64');
  if (data.length > MAX_SIGNATURE_BYTES || detectDocumentType(data)?.type !== 'image/png') {
    const message = `The signature must be a PNG picture of at most ${MAX_SIGNATURE_BYTES / 1024} KB.`;
    throw new HttpError(400, message, [{ field: 'signature', code: 'signatureInvalid', message }]);
  }
  return data;
}

/**
 * `POST /api/rep/customers/{id}/orders`: an order the rep takes for its customer.
 *
 * 1. The address and the signature checked (400); the customer must be the rep's (404),
 *    and approved, or still awaiting verification (PENDING): its order then awaits it too
 *    (AWAITING_VERIFICATION) until staff decide. A rejected or suspended customer is 409
 *    CUSTOMER_NOT_APPROVED.
 * 2. The lines' products locked by id (a product named twice is one line of both
 *    quantities); an unknown product is 404, as for a cart.
 * 3. The order made as a checkout makes one (`createOrder`), naming the rep, and the
 *    signature kept with it.
 */
export async function placeRepOrder(
  db: Db,
  rep: Account['user'],
  companyId: number,
  body: RepOrderBody,
): Promise<Order> {
  const address = shippingOf(body.shippingAddress);
  const signature = body.signature === undefined ? null : signatureOf(body.signature);
  const company = await lockedCustomer(db, rep.id, companyId);
  const awaiting = company.status === 'PENDING';
  if (!canSeePrices(company) && !awaiting) {
    throw new HttpError(409, CUSTOMER_NOT_APPROVED, undefined, { code: 'CUSTOMER_NOT_APPROVED' });
  }
  const locked = await lockProducts(
    db,
    body.items.map((item) => item.productId),
  );
  const lines = namedLines(body.items, new Map(locked.map((product) => [product.id, product])));
  const order = await createOrder(db, {
    companyId,
    userId: rep.id,
    placedByRep: { id: rep.id, firstName: rep.firstName, lastName: rep.lastName },
    status: awaiting ? 'AWAITING_VERIFICATION' : 'PENDING',
    lines,
    address,
    notes: body.notes,
    clientReference: body.clientReference,
  });
  if (signature) {
    // As text the database decodes: the embedded engine turns a binary parameter into hex
    // one byte at a time (services/documents.ts).
    await db.insert(orderSignatures).values({
      orderId: order.id,
      data: sql`decode(${signature.toString('base64')}, 'base64')`,
    });
  }
  return order;
}

/** Nothing when the company is the rep's own customer; 404 for any other. */
export async function requireOwnCustomer(db: Db, repId: number, companyId: number): Promise<void> {
  const [mine] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(customerWhere(repId, companyId));
  if (!mine) throw noCustomer();
}

/** `GET /api/rep/customers/{id}/orders`: the customer's orders, newest first. */
export async function listCustomerOrders(
  db: Db,
  repId: number,
  companyId: number,
): Promise<Order[]> {
  await requireOwnCustomer(db, repId, companyId);
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.companyId, companyId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return withItems(db, rows);
}

/**
 * `GET /api/rep/orders?since=`: the orders the rep placed at or after `since`, for any
 * company (also one assigned to another rep since), newest first, at most MAX_REP_ORDERS.
 * Read through the index of the orders by the rep who placed them (migration 0016).
 */
export async function listRepOrdersSince(db: Db, repId: number, since: Date): Promise<RepOrder[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.placedByRepId, repId), gte(orders.createdAt, since)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(MAX_REP_ORDERS);
  if (rows.length === 0) return [];
  const customers = await db
    .select({
      id: companies.id,
      name: companies.name,
      taxNumber: companies.taxNumber,
      address: companies.address,
      city: companies.city,
      state: companies.state,
      postalCode: companies.postalCode,
      country: companies.country,
    })
    .from(companies)
    .where(inArray(companies.id, [...new Set(rows.map((row) => row.companyId))]));
  const byId = new Map(customers.map((customer) => [customer.id, customer]));
  const listed = await withItems(db, rows);
  return listed.map((order, index) => {
    const customer = byId.get(rows[index]?.companyId ?? 0);
    if (!customer) throw new Error('An order without its company');
    return { ...order, customer };
  });
}

/**
 * `GET /api/orders/{id}/signature`: the signature of an order a rep took, for those who
 * may see the order: its company's users, the company's rep and staff. 404 for anyone
 * else, and when the order has none.
 */
export async function orderSignature(db: Db, account: Account, orderId: number): Promise<Buffer> {
  const [row] = await db
    .select({
      data: orderSignatures.data,
      companyId: orders.companyId,
      salesRepId: companies.salesRepId,
    })
    .from(orderSignatures)
    .innerJoin(orders, eq(orders.id, orderSignatures.orderId))
    .innerJoin(companies, eq(companies.id, orders.companyId))
    .where(eq(orderSignatures.orderId, orderId));
  const { user } = account;
  const allowed =
    row &&
    (user.role === 'ADMIN' ||
      (user.role === 'SALES_REP' && row.salesRepId === user.id) ||
      (user.role === 'USER' && account.company?.id === row.companyId));
  if (!allowed) throw notFound('Signature not found');
  return Buffer.from(row.data);
}
