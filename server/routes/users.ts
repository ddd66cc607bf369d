import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import {
  changePassword,
  deleteAccount,
  updateNotifications,
  updateProfile,
} from '../services/users.js';
import { ShortText, UserSchema } from './accounts-schemas.js';
import { errorResponses } from './schemas.js';

const userResponse = {
  200: Type.Object({ message: Type.String(), user: UserSchema }),
  ...errorResponses,
};

export const userRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addHook('preHandler', requireUser);

  app.put(
    '/users/profile',
    {
      schema: {
        body: Type.Object(
          {
            firstName: ShortText(),
            lastName: ShortText(),
            // Sent by the profile form, read-only: it must be the account's own.
            email: Type.Optional(ShortText({ maxLength: 254 })),
          },
          { additionalProperties: false },
        ),
        response: userResponse,
      },
    },
    async (request) => ({
      message: 'Profile updated successfully!',
      user: await updateProfile(db, accountOf(request), request.body),
    }),
  );

  app.put(
    '/users/password',
    {
      schema: {
        body: Type.Object(
          {
            currentPassword: ShortText({ maxLength: 128 }),
            newPassword: ShortText({ maxLength: 128 }),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses },
      },
    },
    async (request) => {
      await changePassword(db, accountOf(request), request.body);
      return { message: 'Password changed. Please sign in again on your other devices.' };
    },
  );

  app.put(
    '/users/notifications',
    {
      schema: {
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
    },
    async (request) => ({
      message: 'Notification settings saved.',
      user: await updateNotifications(db, accountOf(request), request.body),
    }),
  );

  app.delete(
    '/users/me',
    {
      schema: {
        body: Type.Object(
          { password: ShortText({ maxLength: 128 }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses },
      },
    },
    async (request) => {
      await deleteAccount(db, accountOf(request), request.body.password);
      return { message: 'Your account has been deleted.' };
    },
  );
};
