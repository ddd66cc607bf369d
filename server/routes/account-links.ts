/**
 * The account's e-mailed links (docs/api.md#password-reset-and-e-mail-verification):
 * asking for a new password and choosing it, confirming the address given at registration,
 * and asking for a new confirmation link. The first three are anyone's (the link's token
 * is the proof); the last is the signed-in user's, and goes through `once`.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import {
  beginVerificationRequest,
  confirmPasswordReset,
  EMAIL_VERIFIED,
  PASSWORD_RESET,
  requestPasswordReset,
  RESET_REQUESTED,
  sendVerificationLink,
  VERIFICATION_SENT,
  verifyEmail,
} from '../services/account-links.js';
import { invalidFields } from '../services/errors.js';
import { IdempotencyHeaders, once } from '../services/idempotency.js';
import {
  AccountLinkAnswerSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  VerifyEmailSchema,
} from '../../src/contracts/account-links-schemas.js';
import { validateForgotPassword } from '../../src/contracts/form-schemas.js';
import { ErrorBodySchema, errorResponses } from './schemas.js';

/** Refusals of a link's token: 400 not valid, 410 expired or used. */
const linkResponses = { ...errorResponses, 410: ErrorBodySchema };

export const accountLinkRoutes: FastifyPluginAsyncTypebox<{ db: Db; publicUrl: string }> = async (
  app,
  { db, publicUrl },
) => {
  app.post(
    '/auth/password-reset',
    {
      schema: {
        body: PasswordResetRequestSchema,
        response: { 202: AccountLinkAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const errors = validateForgotPassword(request.body);
      if (errors.length > 0) throw invalidFields(errors);
      await requestPasswordReset(db, request.body.email, request.ip, publicUrl);
      return reply.status(202).send({ message: RESET_REQUESTED });
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      schema: {
        body: PasswordResetConfirmSchema,
        response: { 200: AccountLinkAnswerSchema, ...linkResponses },
      },
    },
    async (request) => {
      await confirmPasswordReset(db, request.body);
      return { message: PASSWORD_RESET };
    },
  );

  app.post(
    '/auth/verify-email',
    {
      schema: {
        body: VerifyEmailSchema,
        response: { 200: AccountLinkAnswerSchema, ...linkResponses },
      },
    },
    async (request) => {
      await verifyEmail(db, request.body.token);
      return { message: EMAIL_VERIFIED };
    },
  );

  app.post(
    '/auth/verify-email/resend',
    {
      preHandler: requireUser,
      schema: {
        headers: IdempotencyHeaders,
        body: Type.Object({}, { additionalProperties: false }),
        response: { 202: AccountLinkAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const send = await beginVerificationRequest(db, account, request.ip);
      return once(db, request, reply, async (tx) => {
        if (send) await sendVerificationLink(tx, account.user, publicUrl);
        return { status: 202, body: { message: VERIFICATION_SENT } };
      });
    },
  );
};
