/**
 * Tables of the portal's database, as the query builder sees them. The migrations in
 * ./migrations create them; this file only describes them, and must agree with them.
 */
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import { ROLES } from '../../src/contracts/states.js';
import { LANGUAGES } from '../../src/contracts/languages.js';
import { AUDIT_ACTIONS, AUDIT_ACTOR_VIA, AUDIT_ENTITIES } from '../../src/contracts/admin.js';
import { ORDER_STATUSES, PAYMENT_STATUSES } from '../../src/contracts/orders.js';
import { ORDER_EVENT_ACTORS, ORDER_EVENT_KINDS } from '../../src/contracts/admin-orders.js';
import type { CategoryNames, ProductTranslations } from '../../src/contracts/catalogue.js';
import type { BoothDetails } from '../../src/contracts/field-sales.js';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const millis = (name: string) =>
  timestamp(name, { withTimezone: true, precision: 3, mode: 'date' }).notNull().defaultNow();
const optionalMillis = (name: string) =>
  timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

export const categories = pgTable('categories', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  position: integer('position').notNull().default(0),
  /** The name in English and Italian (migration 0012); `name` is the Romanian one. */
  names: jsonb('names').$type<CategoryNames>().notNull().default({}),
});

export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sku: text('sku').notNull().unique(),
    name: text('name').notNull(),
    shortDescription: text('short_description').notNull().default(''),
    description: text('description').notNull().default(''),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    price: numeric('price', { precision: 10, scale: 2 }).notNull(),
    stock: integer('stock').notNull().default(0),
    tags: text('tags').array().notNull().default([]),
    images: text('images').array().notNull().default([]),
    searchText: text('search_text').notNull(),
    nameKey: text('name_key').notNull(),
    createdAt: millis('created_at'),
    updatedAt: millis('updated_at'),
    /** Off sale: left out of the storefront and the mirror (migration 0012). */
    active: boolean('active').notNull().default(true),
    /** The texts in English and Italian; name and descriptions are the Romanian ones. */
    translations: jsonb('translations').$type<ProductTranslations>().notNull().default({}),
    /** The EAN-13 barcode on the pack; null until staff enter it (migration 0015). */
    ean: text('ean'),
  },
  // Two products never share a barcode; the check digit is the server's rule (barcodes.ts).
  (table) => [
    uniqueIndex('products_ean_idx')
      .on(table.ean)
      .where(sql`${table.ean} IS NOT NULL`),
    check('products_ean_check', sql`${table.ean} ~ '^[0-9]{13}$'`),
  ],
);

/** Files served under /uploads: product images now, more kinds later. */
export const media = pgTable('media', {
  path: text('path').primaryKey(),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  createdAt: millis('created_at'),
});

export const newsletterSubscriptions = pgTable('newsletter_subscriptions', {
  email: text('email').primaryKey(),
  locale: text('locale').notNull(),
  createdAt: millis('created_at'),
});

/** Server-wide settings kept in the database so that every server process agrees. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * A tax number as registrations compare it (migration 0016): without spaces, in upper case,
 * without a leading "RO" (Romania's VAT prefix), so that "RO 123", "ro123" and "123" are one.
 */
export const taxNumberKey = (value: AnyPgColumn | SQL | string): SQL =>
  sql`regexp_replace(upper(regexp_replace(${value}, '\\s', '', 'g')), '^RO', '')`;

export const companies = pgTable(
  'companies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    status: text('status', { enum: ['PENDING', 'APPROVED', 'REJECTED', 'SUSPENDED'] })
      .notNull()
      .default('PENDING'),
    isVerified: boolean('is_verified').notNull().default(false),
    taxNumber: text('tax_number').notNull().default(''),
    registrationNumber: text('registration_number').notNull().default(''),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    country: text('country').notNull().default('Romania'),
    website: text('website').notNull().default(''),
    industry: text('industry').notNull().default(''),
    businessType: text('business_type').notNull().default(''),
    employeeCount: text('employee_count').notNull().default(''),
    annualRevenue: text('annual_revenue').notNull().default(''),
    statusReason: text('status_reason').notNull().default(''),
    verifiedAt: optionalMillis('verified_at'),
    createdAt: millis('created_at'),
    updatedAt: millis('updated_at'),
    /** The sales rep who takes the company's orders at fairs, if any (migration 0014). */
    salesRepId: integer('sales_rep_id').references((): AnyPgColumn => users.id),
    /** The rep who registered the company at a booth; null when it registered itself (0016). */
    registeredByRepId: integer('registered_by_rep_id').references((): AnyPgColumn => users.id),
    /**
     * What the back office's search looks in, kept by the database: folded by its
     * search_fold, without diacritics and in lower case (migrations 0010, 0021).
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`search_fold(name || E'\\n' || tax_number || E'\\n' || email || E'\\n' || city)`,
      ),
  },
  // The back office's sorts, the id breaking ties. (The trigram index of the search exists
  // only where the pg_trgm extension could be installed: see the migration.)
  (table) => [
    index('companies_created_idx').on(table.createdAt, table.id),
    index('companies_name_idx').on(sql`lower(${table.name})`, table.id),
    index('companies_status_idx').on(table.status, table.createdAt, table.id),
    index('companies_sales_rep_idx')
      .on(table.salesRepId, table.id)
      .where(sql`${table.salesRepId} IS NOT NULL`),
    index('companies_tax_key_idx').on(taxNumberKey(table.taxNumber)),
  ],
);

/**
 * The companies whose tax number is `value`, compared as taxNumberKey compares them (its
 * index serves it); none for a blank one, which is nobody's number.
 */
export const withTaxNumber = (value: string): SQL => {
  const key = taxNumberKey(value);
  return sql`(${key} <> '' AND ${taxNumberKey(companies.taxNumber)} = ${key})`;
};

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  role: text('role', { enum: ROLES }).notNull().default('USER'),
  companyId: integer('company_id').references(() => companies.id),
  notifyOrders: boolean('notify_orders').notNull().default(true),
  notifyProducts: boolean('notify_products').notNull().default(true),
  notifyMarketing: boolean('notify_marketing').notNull().default(false),
  deletedAt: optionalMillis('deleted_at'),
  /** A staff account turned off in the back office: no sign-in, no session (0013). */
  deactivatedAt: optionalMillis('deactivated_at'),
  lastSignInAt: optionalMillis('last_sign_in_at'),
  createdAt: millis('created_at'),
  updatedAt: millis('updated_at'),
  /** The language of the user's e-mail: the app's when it registered or last signed in (0017). */
  language: text('language', { enum: LANGUAGES }).notNull().default('ro'),
  /** When the user confirmed its address through a link sent to it; null: not yet (0019). */
  emailVerifiedAt: optionalMillis('email_verified_at'),
});

export const refreshTokens = pgTable('refresh_tokens', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  familyId: text('family_id').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3, mode: 'date' }).notNull(),
  rotatedAt: optionalMillis('rotated_at'),
  revokedAt: optionalMillis('revoked_at'),
  createdAt: millis('created_at'),
});

export const loginFailures = pgTable('login_failures', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  email: text('email').notNull(),
  ip: text('ip').notNull(),
  createdAt: millis('created_at'),
});

export const companyDocuments = pgTable('company_documents', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** Null while the upload that carries the document is still being received. */
  companyId: integer('company_id').references(() => companies.id),
  type: text('type').notNull(),
  status: text('status', { enum: ['PENDING', 'APPROVED', 'REJECTED'] })
    .notNull()
    .default('PENDING'),
  originalName: text('original_name').notNull(),
  storedName: text('stored_name').notNull().unique(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  reviewNotes: text('review_notes').notNull().default(''),
  uploadedAt: millis('uploaded_at'),
  reviewedAt: optionalMillis('reviewed_at'),
  updatedAt: millis('updated_at'),
});

/**
 * A document's bytes in order, a chunk at a time (see services/documents.ts); a document
 * stored before chunks existed keeps them in company_documents.data.
 */
export const documentChunks = pgTable(
  'document_chunks',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => companyDocuments.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.documentId, table.seq] })],
);

/** Registrations per client address, counted over a window (see registration-limit.ts). */
export const registrationAttempts = pgTable('registration_attempts', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  ip: text('ip').notNull(),
  createdAt: millis('created_at'),
});

export const cartItems = pgTable(
  'cart_items',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    createdAt: millis('created_at'),
    updatedAt: millis('updated_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.productId] })],
);

export const orders = pgTable('orders', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  orderNumber: text('order_number').notNull().unique(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  status: text('status', { enum: ORDER_STATUSES }).notNull().default('PENDING'),
  paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull().default('PENDING'),
  paymentMethod: text('payment_method').notNull().default('BANK_TRANSFER'),
  currency: text('currency').notNull().default('EUR'),
  subtotal: numeric('subtotal', { precision: 12, scale: 2 }).notNull(),
  total: numeric('total', { precision: 12, scale: 2 }).notNull(),
  notes: text('notes').notNull().default(''),
  clientReference: text('client_reference').notNull().default(''),
  shipFirstName: text('ship_first_name').notNull(),
  shipLastName: text('ship_last_name').notNull(),
  shipStreet: text('ship_street').notNull(),
  shipCity: text('ship_city').notNull(),
  shipZipCode: text('ship_zip_code').notNull(),
  shipCountry: text('ship_country').notNull(),
  shipPhone: text('ship_phone').notNull(),
  cancellationReason: text('cancellation_reason').notNull().default(''),
  cancelledAt: optionalMillis('cancelled_at'),
  /** Given by staff when the order ships (services/admin-orders.ts); '' before. */
  trackingNumber: text('tracking_number').notNull().default(''),
  /** The sales rep who placed the order for the company; null when the salon did (0014). */
  placedByRepId: integer('placed_by_rep_id').references(() => users.id),
  createdAt: millis('created_at'),
  updatedAt: millis('updated_at'),
});

/** The customer's signature of an order a rep took, as a PNG (migration 0014). */
export const orderSignatures = pgTable('order_signatures', {
  orderId: integer('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  data: bytea('data').notNull(),
  createdAt: millis('created_at'),
});

/**
 * An order's history: one row per change of its status or payment, written in the
 * transaction of the change (migration 0011). `from` is null at the order's creation.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    at: millis('at'),
    kind: text('kind', { enum: ORDER_EVENT_KINDS }).notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value').notNull(),
    actor: text('actor', { enum: ORDER_EVENT_ACTORS }).notNull(),
    actorId: integer('actor_id').references(() => users.id),
    /** A staff member's name as it was then; '' for the salon. */
    actorName: text('actor_name').notNull().default(''),
    /** The reason of a cancellation, the tracking number of a shipment. */
    note: text('note').notNull().default(''),
  },
  (table) => [index('order_events_order_idx').on(table.orderId, table.at, table.id)],
);

export const orderItems = pgTable('order_items', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  orderId: integer('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
  productName: text('product_name').notNull(),
  productSku: text('product_sku').notNull(),
  productImages: text('product_images').array().notNull().default([]),
  quantity: integer('quantity').notNull(),
  unitPrice: numeric('unit_price', { precision: 10, scale: 2 }).notNull(),
  totalPrice: numeric('total_price', { precision: 12, scale: 2 }).notNull(),
});

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: text('response_body').notNull(),
    createdAt: millis('created_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] })],
);

/** The plain fields an audited action changed, before or after it. */
export type AuditFields = Record<string, string | number | boolean | null>;

/**
 * Staff actions, one row each, written in the transaction of the change (services/audit.ts)
 * and never changed or removed after: migration 0008 makes the database refuse it.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    at: millis('at'),
    /** Null only for an entry made from the command line (`actorVia`). */
    actorId: integer('actor_id').references(() => users.id),
    /** The actor's e-mail and name as they were then: a later change rewrites no history. */
    actorEmail: text('actor_email').notNull(),
    actorName: text('actor_name').notNull(),
    actorVia: text('actor_via', { enum: AUDIT_ACTOR_VIA }).notNull().default('back-office'),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    entityType: text('entity_type', { enum: AUDIT_ENTITIES }).notNull(),
    entityId: integer('entity_id').notNull(),
    companyId: integer('company_id').references(() => companies.id),
    before: jsonb('before').$type<AuditFields>(),
    after: jsonb('after').$type<AuditFields>(),
    note: text('note').notNull().default(''),
  },
  // Each filter of the log, newest first.
  (table) => [
    index('audit_log_at_idx').on(table.at.desc(), table.id.desc()),
    index('audit_log_company_idx').on(table.companyId, table.at.desc(), table.id.desc()),
    index('audit_log_entity_idx').on(
      table.entityType,
      table.entityId,
      table.at.desc(),
      table.id.desc(),
    ),
    index('audit_log_action_idx').on(table.action, table.at.desc(), table.id.desc()),
    index('audit_log_actor_idx').on(table.actorId, table.at.desc(), table.id.desc()),
  ],
);

/**
 * E-mail waiting to be sent, and sent (migration 0017): written in the transaction of the
 * change that causes it, sent by the mail worker, retried until it goes.
 */
export const mailQueue = pgTable(
  'mail_queue',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    toAddress: text('to_address').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    language: text('language', { enum: LANGUAGES }).notNull(),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: millis('next_attempt_at'),
    sentAt: optionalMillis('sent_at'),
    lastError: text('last_error'),
    createdAt: millis('created_at'),
  },
  (table) => [
    index('mail_queue_due_idx')
      .on(table.nextAttemptAt, table.id)
      .where(sql`${table.sentAt} IS NULL`),
    index('mail_queue_created_idx').on(table.createdAt.desc(), table.id.desc()),
  ],
);

/** What a link sent by e-mail does to its account (migration 0019). */
export const ACCOUNT_TOKEN_PURPOSES = ['password-reset', 'verify-email'] as const;

/**
 * Links sent by e-mail that act on an account once (migration 0019, services/account-tokens.ts):
 * only the token's hash is kept.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', {
      withTimezone: true,
      precision: 3,
      mode: 'date',
    }).notNull(),
    usedAt: optionalMillis('used_at'),
    createdAt: millis('created_at'),
  },
  (table) => [
    index('account_tokens_user_idx').on(table.userId, table.purpose),
    index('account_tokens_expires_idx').on(table.expiresAt),
  ],
);

/** Requests for such links, per e-mail and address (services/account-link-limit.ts). */
export const accountLinkRequests = pgTable(
  'account_link_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    purpose: text('purpose', { enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    createdAt: millis('created_at'),
  },
  (table) => [
    index('account_link_requests_email_idx').on(table.email, table.createdAt),
    index('account_link_requests_ip_idx').on(table.ip, table.createdAt),
  ],
);

/** A salon user's named lists of products to order (migration 0020). */
export const orderLists = pgTable(
  'order_lists',
  {
    /** Chosen by the device that made the list. */
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: millis('created_at'),
    updatedAt: millis('updated_at'),
  },
  (table) => [index('order_lists_user_idx').on(table.userId, table.createdAt, table.id)],
);

export const orderListItems = pgTable(
  'order_list_items',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => orderLists.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    addedAt: millis('added_at'),
  },
  (table) => [
    primaryKey({ columns: [table.listId, table.productId] }),
    check('order_list_items_quantity_check', sql`${table.quantity} > 0`),
  ],
);

/** How an entry of `boothDetails` was settled: the record corrected to say it, or dismissed. */
export const BOOTH_DETAILS_SETTLED_AS = ['applied', 'dismissed'] as const;

/**
 * What a rep typed at the booth for its customer that the company's record did not say
 * (migration 0022, services/booth-details.ts): open until staff correct the record to say
 * it or dismiss it.
 */
export const boothDetails = pgTable(
  'booth_details',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    repId: integer('rep_id')
      .notNull()
      .references(() => users.id),
    details: jsonb('details').$type<BoothDetails>().notNull(),
    createdAt: millis('created_at'),
    settledAt: optionalMillis('settled_at'),
    settledBy: integer('settled_by').references(() => users.id),
    settledAs: text('settled_as', { enum: BOOTH_DETAILS_SETTLED_AS }),
  },
  (table) => [
    index('booth_details_open_idx')
      .on(table.companyId, table.id)
      .where(sql`${table.settledAt} IS NULL`),
    check('booth_details_settled_as_check', sql`${table.settledAs} IN ('applied', 'dismissed')`),
    check(
      'booth_details_settled_check',
      sql`(${table.settledAt} IS NULL) = (${table.settledAs} IS NULL)`,
    ),
  ],
);

/** Which migration files have been applied (created by the migration runner itself). */
export const schemaMigrations = pgTable('schema_migrations', {
  version: text('version').primaryKey(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});

export const schema = {
  categories,
  products,
  media,
  newsletterSubscriptions,
  settings,
  companies,
  users,
  refreshTokens,
  loginFailures,
  companyDocuments,
  documentChunks,
  registrationAttempts,
  cartItems,
  orders,
  orderItems,
  orderEvents,
  idempotencyKeys,
  auditLog,
  mailQueue,
  accountTokens,
  accountLinkRequests,
  boothDetails,
};
