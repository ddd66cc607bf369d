/**
 * /api/users: what signed-in users change about themselves. Every change runs once per
 * Idempotency-Key (`once`, services/idempotency.ts) and does its work in the transaction it
 * is given; those that check the password declare themselves, the others are change routes.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import { HttpError } from '../services/errors.js';
import { IdempotencyHeaders, once } from '../services/idempotency.js';
import {
  beginLoginAttempt,
  forgetLoginAttempt,
  loginSucceeded,
} from '../services/login-throttle.js';
import { tooManyAttempts } from '../services/sessions.js';
import {
  changePassword,
  deleteAccount,
  updateNotifications,
  updateProfile,
} from '../services/users.js';
import { ProfileBodySchema, UserSchema } from '../../src/contracts/accounts-schemas.js';
import { bodyOf, PasswordChangePayloadSchema } from '../../src/contracts/form-schemas.js';
import { MAX_PASSWORD_LENGTH } from '../../src/contracts/validation.js';
import { changeRoutes } from './change-routes.js';
import { errorResponses, ShortText } from './schemas.js';

/**
 * Runs a change that checks the account's password, throttled like signing in and counted
 * with it: whoever holds a stolen session must not be able to guess the password itself
 * without limit. Only a wrong password counts as a failure.
 */
async function checkingPassword<T>(db: Db, request: FastifyRequest, run: () => Promise<T>) {
  const email = accountOf(request).user.email;
  const attempt = await beginLoginAttempt(db, email, request.ip);
  if (!attempt.allowed) throw tooManyAttempts(attempt.retryAfter);
  try {
    const result = await run();
    await loginSucceeded(db, email, request.ip, attempt.id);
    return result;
  } catch (error) {
    const wrongPassword =
      error instanceof HttpError &&
      (error.details ?? []).some((detail) => detail.code === 'currentPasswordWrong');
    if (!wrongPassword) await forgetLoginAttempt(db, attempt.id);
    throw error;
  }
}

const userResponse = {
  200: Type.Object({ message: Type.String(), user: UserSchema }),
  ...errorResponses,
};

export const userRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireUser);

  const change = changeRoutes(app, db);

  change.put(
    '/users/profile',
    { body: ProfileBodySchema, response: userResponse },
    async (tx, { body }, account) => ({
      status: 200,
      body: {
        message: 'Profile updated successfully!',
        user: await updateProfile(tx, account, body),
      },
    }),
  );

  app.put(
    '/users/password',
    {
      schema: {
        headers: IdempotencyHeaders,
        body: bodyOf(PasswordChangePayloadSchema),
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses },
      },
    },
    async (request, reply) =>
      checkingPassword(db, request, () =>
        once(db, request, reply, async (tx) => {
          await changePassword(tx, accountOf(request), request.body);
          return {
            status: 200,
            body: { message: 'Password changed. Please sign in again on your other devices.' },
          };
        }),
      ),
  );

  change.put(
    '/users/notifications',
    {
      body: Type.Object(
        {
          orderNotifications: Type.Boolean(),
          newProductNotifications: Type.Boolean(),
          marketingNewsletter: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
      response: userResponse,
    },
    async (tx, { body }, account) => ({
      status: 200,
      body: {
        message: 'Notification settings saved.',
        user: await updateNotifications(tx, account, body),
      },
    }),
  );

  app.delete(
    '/users/me',
    {
      schema: {
        headers: IdempotencyHeaders,
        body: Type.Object(
          { password: ShortText({ maxLength: MAX_PASSWORD_LENGTH }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses },
      },
    },
    async (request, reply) =>
      checkingPassword(db, request, () =>
        once(db, request, reply, async (tx) => {
          await deleteAccount(tx, accountOf(request), request.body.password);
          return { status: 200, body: { message: 'Your account has been deleted.' } };
        }),
      ),
  );
};
