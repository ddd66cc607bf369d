/**
 * The back office's /api/admin shapes (docs/api.md#back-office), stated once: the server
 * validates and answers with them, the staff screens derive their types from them. Only
 * code that checks loads this module; the screens import its types alone (see ./admin).
 */
import { Type, type Static, type TOptional, type TString } from 'typebox';
import { CompanyDocumentSchema, CompanySchema } from './accounts-schemas';
import { bodyOf, CompanyEditFormSchema, StaffFormSchema } from './form-schemas';
import {
  ADMIN_MAX_PAGE_SIZE,
  AUDIT_ACTIONS,
  AUDIT_ACTOR_VIA,
  AUDIT_ENTITIES,
  COMPANY_SORTS,
  MAX_REASON_LENGTH,
  SORT_ORDERS,
} from './admin';
import type { RecordedField } from './field-sales';
import { literals } from './literals';
import { COMPANY_STATUSES, STAFF_ROLES } from './states';
import { MAX_TEXT_LENGTH } from './validation';

/** The plain values are stated in ./admin (the screens use them without the schemas). */
export {
  ADMIN_MAX_PAGE_SIZE,
  ADMIN_PAGE_SIZE,
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  COMPANY_SORTS,
  LOW_STOCK_BELOW,
  MAX_REASON_LENGTH,
  SORT_ORDERS,
} from './admin';
export type { AuditAction } from './admin';

/** Which page of a staff list, and how many rows; each list adds its own filters. */
const pageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_MAX_PAGE_SIZE })),
};

export const AdminPaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  /** Rows matching the filters, on every page. */
  total: Type.Integer(),
  totalPages: Type.Integer(),
});

/** `GET /api/admin/summary`: the dashboard's queues and the figures of the day. */
export const AdminSummarySchema = Type.Object({
  /** Companies whose status is PENDING. */
  companiesPending: Type.Integer(),
  /** Documents whose status is PENDING, of any company. */
  documentsToReview: Type.Integer(),
  /** Orders whose status is PENDING. */
  ordersToConfirm: Type.Integer(),
  /** Active products with fewer than LOW_STOCK_BELOW units in stock. */
  productsLowStock: Type.Integer(),
  /** Companies with details a rep typed at the booth that staff have not applied or dismissed. */
  boothDetailsToReview: Type.Integer(),
  /** Orders placed since midnight (Europe/Bucharest), cancelled ones left out. */
  today: Type.Object({ orders: Type.Integer(), value: Type.Number(), currency: Type.String() }),
});

/** `GET /api/admin/companies`: every filter optional; text search over name, tax number, e-mail and city. */
export const AdminCompanyQuerySchema = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: MAX_TEXT_LENGTH })),
    status: Type.Optional(literals(COMPANY_STATUSES)),
    /** PENDING: only companies with a document waiting for staff's review. */
    documents: Type.Optional(Type.Literal('PENDING')),
    /** OPEN: only companies with details typed at a booth that wait for staff. */
    boothDetails: Type.Optional(Type.Literal('OPEN')),
    /** Default createdAt, newest first. */
    sortBy: Type.Optional(literals(COMPANY_SORTS)),
    sortOrder: Type.Optional(literals(SORT_ORDERS)),
    ...pageQuery,
  },
  { additionalProperties: false },
);

/** The sales rep who registered a company at a booth; null when the salon registered itself. */
const RegisteredBySchema = Type.Union([
  Type.Object({ id: Type.Integer(), firstName: Type.String(), lastName: Type.String() }),
  Type.Null(),
]);

/**
 * What a rep typed at the booth, under the fields of the company's record that keep it
 * (`recordedAs` in ./field-sales, whose fields the compiler holds these to): what staff
 * would correct.
 */
export const BoothDetailsSchema = Type.Object({
  name: Type.Optional(Type.String()),
  registrationNumber: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
  address: Type.Optional(Type.String()),
  city: Type.Optional(Type.String()),
  postalCode: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
  website: Type.Optional(Type.String()),
} satisfies Record<RecordedField, TOptional<TString>>);

/** Details a rep typed at the booth for a customer whose record said otherwise or nothing. */
export const BoothDetailsEntrySchema = Type.Object({
  id: Type.Integer(),
  rep: Type.Object({ id: Type.Integer(), firstName: Type.String(), lastName: Type.String() }),
  createdAt: Type.String({ format: 'date-time' }),
  details: BoothDetailsSchema,
});

/** A row of the companies list: the company and who registered it. */
export const AdminCompanyRowSchema = Type.Object({
  ...CompanySchema.properties,
  registeredBy: RegisteredBySchema,
});

export const AdminCompanyPageSchema = Type.Object({
  companies: Type.Array(AdminCompanyRowSchema),
  pagination: AdminPaginationSchema,
});

/**
 * `PATCH /api/admin/companies/{id}`: the company's data staff may correct; only the fields
 * sent change. Status changes have routes of their own (approve, reject, suspend, reactivate).
 */
export const AdminCompanyEditSchema = Type.Partial(bodyOf(CompanyEditFormSchema), {
  additionalProperties: false,
  minProperties: 1,
});

/** A field's value before or after a change: only plain values are recorded. */
const AuditValues = Type.Union([
  Type.Record(
    Type.String(),
    Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  ),
  Type.Null(),
]);

/**
 * One staff action, written in the same transaction as the change it records and never
 * changed after. `before` and `after` hold the fields the action changed (null when there
 * was nothing before, as for an entity the action created).
 */
export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  /**
   * Who acted: a staff account (`via` back-office), or `npm run admin` (`via` command-line,
   * no account: `id` null, `name` the operating-system user who ran it).
   */
  actor: Type.Object({
    id: Type.Union([Type.Integer(), Type.Null()]),
    email: Type.String(),
    name: Type.String(),
    via: literals(AUDIT_ACTOR_VIA),
  }),
  action: literals(AUDIT_ACTIONS),
  entityType: literals(AUDIT_ENTITIES),
  entityId: Type.Integer(),
  /**
   * What the entity is called now, read with the entry: a company's name, a document's file
   * name, an order's number, a staff member's name; null when it no longer exists.
   */
  entityLabel: Type.Union([Type.String(), Type.Null()]),
  /** The company the entity belongs to (a document's, an order's), for filtering by company. */
  companyId: Type.Union([Type.Integer(), Type.Null()]),
  /** That company's name now, or null. */
  companyName: Type.Union([Type.String(), Type.Null()]),
  before: AuditValues,
  after: AuditValues,
  /** The reason or note staff gave, if any. */
  note: Type.String(),
});

/** `GET /api/admin/audit`: newest first. */
export const AuditQuerySchema = Type.Object(
  {
    action: Type.Optional(literals(AUDIT_ACTIONS)),
    entityType: Type.Optional(literals(AUDIT_ENTITIES)),
    entityId: Type.Optional(Type.Integer({ minimum: 1 })),
    companyId: Type.Optional(Type.Integer({ minimum: 1 })),
    actorId: Type.Optional(Type.Integer({ minimum: 1 })),
    ...pageQuery,
  },
  { additionalProperties: false },
);

export const AuditPageSchema = Type.Object({
  entries: Type.Array(AuditEntrySchema),
  pagination: AdminPaginationSchema,
});

/** A sales rep as a company's page names it. */
export const SalesRepSummarySchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  /** False once the account is deactivated: the company still names it until reassigned. */
  active: Type.Boolean(),
});

/** `PUT /api/admin/companies/{id}/sales-rep`: the rep who takes its orders, or none. */
export const SalesRepAssignSchema = Type.Object(
  { salesRepId: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]) },
  { additionalProperties: false },
);
export const SalesRepAssignedSchema = Type.Object({
  salesRep: Type.Union([SalesRepSummarySchema, Type.Null()]),
});

/** `GET /api/admin/companies/{id}`: the company, its people, documents and staff history. */
export const AdminCompanyDetailSchema = Type.Object({
  company: CompanySchema,
  /** The sales rep assigned to the company; at most one. */
  salesRep: Type.Union([SalesRepSummarySchema, Type.Null()]),
  registeredBy: RegisteredBySchema,
  documents: Type.Array(CompanyDocumentSchema),
  users: Type.Array(
    Type.Object({
      id: Type.Integer(),
      email: Type.String(),
      /** Whether the user confirmed its address through the link sent to it. */
      emailVerified: Type.Boolean(),
      firstName: Type.String(),
      lastName: Type.String(),
    }),
  ),
  /**
   * What its reps typed at the booth that the record does not say (each entry only the
   * details the record still does not say), oldest first: staff apply them by correcting the
   * record, or dismiss them.
   */
  boothDetails: Type.Array(BoothDetailsEntrySchema),
  /** The audit entries of the company and its documents, newest first (at most 50). */
  history: Type.Array(AuditEntrySchema),
  /**
   * Other companies registered with the same tax number, compared as registrations compare
   * it ("RO 123" is "123"), oldest first (at most 10): the one to verify may be a duplicate.
   */
  sameTaxNumber: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      city: Type.String(),
      status: literals(COMPANY_STATUSES),
    }),
  ),
});

/** The body of reject and suspend (a company); a document's review takes `{reviewNotes}`. */
export const ReasonBodySchema = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: MAX_REASON_LENGTH })) },
  { additionalProperties: false },
);

/** A staff account as the People page lists it; never its password. */
export const StaffMemberSchema = Type.Object({
  id: Type.Integer(),
  /** ADMIN: the back office; SALES_REP: takes orders for the companies assigned to it. */
  role: literals(STAFF_ROLES),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  active: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  deactivatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Null: never signed in (or not since sign-ins were recorded). */
  lastSignInAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** `GET /api/admin/staff`: every staff account, active ones first, then by name. */
export const StaffListSchema = Type.Object({ staff: Type.Array(StaffMemberSchema) });

/** `POST /api/admin/staff`: a new staff account; the server makes its temporary password. */
export const StaffCreateSchema = Type.Object(
  {
    ...bodyOf(StaffFormSchema).properties,
    /** ADMIN when not given. */
    role: Type.Optional(literals(STAFF_ROLES)),
  },
  { additionalProperties: false },
);

/**
 * The create and reset answers: the temporary password, in this answer only. A repeat of
 * the request (same Idempotency-Key) gets null: the password is never kept in clear.
 */
export const StaffCreatedSchema = Type.Object({
  member: StaffMemberSchema,
  temporaryPassword: Type.Union([Type.String(), Type.Null()]),
});
export const StaffPasswordResetSchema = StaffCreatedSchema;

export type StaffMember = Static<typeof StaffMemberSchema>;
export type StaffList = Static<typeof StaffListSchema>;
export type StaffCreate = Static<typeof StaffCreateSchema>;
export type StaffCreated = Static<typeof StaffCreatedSchema>;
export type StaffPasswordReset = Static<typeof StaffPasswordResetSchema>;

export type AdminPagination = Static<typeof AdminPaginationSchema>;
export type AdminSummary = Static<typeof AdminSummarySchema>;
export type AdminCompanyQuery = Static<typeof AdminCompanyQuerySchema>;
export type AdminCompanyRow = Static<typeof AdminCompanyRowSchema>;
export type AdminCompanyPage = Static<typeof AdminCompanyPageSchema>;
export type AdminCompanyEdit = Static<typeof AdminCompanyEditSchema>;
export type AdminCompanyDetail = Static<typeof AdminCompanyDetailSchema>;
export type BoothDetailsEntry = Static<typeof BoothDetailsEntrySchema>;
export type SalesRepSummary = Static<typeof SalesRepSummarySchema>;
export type RegisteredBy = Static<typeof RegisteredBySchema>;
export type SalesRepAssign = Static<typeof SalesRepAssignSchema>;
export type SalesRepAssigned = Static<typeof SalesRepAssignedSchema>;
export type AuditEntry = Static<typeof AuditEntrySchema>;
export type AuditQuery = Static<typeof AuditQuerySchema>;
export type AuditPage = Static<typeof AuditPageSchema>;
