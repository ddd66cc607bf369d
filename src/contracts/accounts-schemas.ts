/**
 * Users, companies and their documents as JSON schemas (docs/api.md#accounts,
 * docs/api.md#company), stated once: the server answers with them and the types of
 * ./accounts.ts are derived from them. Only code that checks loads this module; screens
 * import the types alone.
 */
import { Type, type Static } from 'typebox';
import { bodyOf, ProfileFormSchema } from './form-schemas';
import { COMPANY_STATUSES, DOCUMENT_STATUSES, DOCUMENT_TYPES, ROLES } from './states';
import { literals } from './literals';
import { MAX_EMAIL_LENGTH } from './validation';

export const CompanySummarySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  isVerified: Type.Boolean(),
  status: literals(COMPANY_STATUSES),
});

export const NotificationSettingsSchema = Type.Object({
  orderNotifications: Type.Boolean(),
  newProductNotifications: Type.Boolean(),
  marketingNewsletter: Type.Boolean(),
});

export const UserSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  /** Whether the user confirmed its address through the link sent to it. */
  emailVerified: Type.Boolean(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: literals(ROLES),
  companyId: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  company: Type.Union([CompanySummarySchema, Type.Null()]),
  notifications: NotificationSettingsSchema,
});

export const CompanySchema = Type.Object({
  ...CompanySummarySchema.properties,
  taxNumber: Type.String(),
  /** The same value as taxNumber. */
  vatNumber: Type.String(),
  registrationNumber: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  address: Type.String(),
  city: Type.String(),
  state: Type.String(),
  postalCode: Type.String(),
  country: Type.String(),
  website: Type.String(),
  industry: Type.String(),
  businessType: Type.String(),
  employeeCount: Type.String(),
  annualRevenue: Type.String(),
  statusReason: Type.String(),
  documentsUploaded: Type.Integer(),
  documentsVerified: Type.Integer(),
  documentsRejected: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  verifiedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const CompanyDocumentSchema = Type.Object({
  id: Type.Integer(),
  type: literals(DOCUMENT_TYPES),
  status: literals(DOCUMENT_STATUSES),
  originalName: Type.String(),
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  uploadedAt: Type.String({ format: 'date-time' }),
  reviewedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  updatedAt: Type.String({ format: 'date-time' }),
  reviewNotes: Type.String(),
});

/** The body of a profile change: what the server accepts, and the outbox sends. */
export const ProfileBodySchema = Type.Object(
  {
    ...bodyOf(ProfileFormSchema).properties,
    // Sent by the profile form, read-only: it must be the account's own.
    email: Type.Optional(Type.String({ maxLength: MAX_EMAIL_LENGTH })),
  },
  { additionalProperties: false },
);

export type CompanySummary = Static<typeof CompanySummarySchema>;
export type NotificationSettings = Static<typeof NotificationSettingsSchema>;
export type User = Static<typeof UserSchema>;
export type Company = Static<typeof CompanySchema>;
export type CompanyDocument = Static<typeof CompanyDocumentSchema>;
