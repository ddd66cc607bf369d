/** JSON schemas of users, companies and documents (docs/api.md#accounts, docs/api.md#company). */
import { Type } from '@fastify/type-provider-typebox';
import {
  COMPANY_STATUSES,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  ROLES,
} from '../../src/contracts/accounts.js';

/** A string that is one of `values`, typed as that union. */
export const literals = <T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

export const CompanySummarySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  isVerified: Type.Boolean(),
  status: literals(COMPANY_STATUSES),
});

export const UserSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: literals(ROLES),
  companyId: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  company: Type.Union([CompanySummarySchema, Type.Null()]),
  notifications: Type.Object({
    orderNotifications: Type.Boolean(),
    newProductNotifications: Type.Boolean(),
    marketingNewsletter: Type.Boolean(),
  }),
});

export const CompanySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  isVerified: Type.Boolean(),
  status: literals(COMPANY_STATUSES),
  taxNumber: Type.String(),
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

export const DocumentSchema = Type.Object({
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

export const SessionSchema = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
  user: UserSchema,
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/** Free text kept short: names, numbers and addresses. */
export const ShortText = (options: { maxLength?: number } = {}) =>
  Type.String({ maxLength: options.maxLength ?? 200 });
