/**
 * The back office's outgoing e-mail (docs/api.md#outgoing-e-mail), stated once: the server
 * validates and answers with these shapes, the staff screens derive their types from them.
 */
import { Type, type Static } from 'typebox';
import { ADMIN_MAX_PAGE_SIZE } from './admin';
import { AdminPaginationSchema } from './admin-schemas';
import { LANGUAGES } from './languages';
import { literals } from './literals';
import { MAIL_KINDS, MAIL_STATUSES } from './mail';
import { MAX_TEXT_LENGTH } from './validation';

/** `GET /api/admin/mail`: newest first. */
export const AdminMailQuerySchema = Type.Object(
  {
    status: Type.Optional(literals(MAIL_STATUSES)),
    /** Part of the recipient's address, in any case. */
    search: Type.Optional(Type.String({ maxLength: MAX_TEXT_LENGTH })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_MAX_PAGE_SIZE })),
  },
  { additionalProperties: false },
);

const Instant = Type.String({ format: 'date-time' });

/** One message of the list: who it went to, what it is and how it stands. */
export const AdminMailRowSchema = Type.Object({
  id: Type.Integer(),
  /** When it was queued: when its cause happened. */
  createdAt: Instant,
  to: Type.String(),
  language: literals(LANGUAGES),
  kind: literals(MAIL_KINDS),
  /** Its subject, in the message's language. */
  subject: Type.String(),
  status: literals(MAIL_STATUSES),
  /** Attempts made so far. */
  attempts: Type.Integer(),
  /** Why the last attempt failed; null when none has. */
  lastError: Type.Union([Type.String(), Type.Null()]),
  sentAt: Type.Union([Instant, Type.Null()]),
  /** When a waiting message is (next) tried; null once it is sent or has failed. */
  nextAttemptAt: Type.Union([Instant, Type.Null()]),
});

export const AdminMailPageSchema = Type.Object({
  messages: Type.Array(AdminMailRowSchema),
  pagination: AdminPaginationSchema,
});

/** `GET /api/admin/mail/{id}`: the message as it reads, secret values shown as HIDDEN_VALUE. */
export const AdminMailDetailSchema = Type.Object({
  message: Type.Object({
    ...AdminMailRowSchema.properties,
    text: Type.String(),
    html: Type.String(),
  }),
});

export type AdminMailQuery = Static<typeof AdminMailQuerySchema>;
export type AdminMailRow = Static<typeof AdminMailRowSchema>;
export type AdminMailPage = Static<typeof AdminMailPageSchema>;
export type AdminMailDetail = Static<typeof AdminMailDetailSchema>;
