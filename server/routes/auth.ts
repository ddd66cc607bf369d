/** Sign-in and sessions: login, refresh, logout and who is signed in. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import { requestLanguage } from '../request-language.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import { toUserDto } from '../services/accounts.js';
import { login, logout, refreshSession } from '../services/sessions.js';
import { UserSchema } from '../../src/contracts/accounts-schemas.js';
import { bodyOf, LoginFormSchema } from '../../src/contracts/form-schemas.js';
import { errorResponses, SessionSchema } from './schemas.js';

export const authRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/auth/login',
    {
      schema: {
        body: Type.Object(
          { ...bodyOf(LoginFormSchema).properties, rememberMe: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        response: { 200: SessionSchema, ...errorResponses },
      },
    },
    async (request) => login(db, request.body, request.ip, requestLanguage(request)),
  );

  app.post(
    '/auth/refresh',
    {
      schema: {
        body: Type.Object(
          { refreshToken: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: { 200: SessionSchema, ...errorResponses },
      },
    },
    async (request) => refreshSession(db, request.body.refreshToken),
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        body: Type.Object(
          { refreshToken: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses },
      },
    },
    async (request) => {
      await logout(db, request.body.refreshToken);
      return { message: 'Signed out' };
    },
  );

  app.get(
    '/auth/me',
    {
      preHandler: requireUser,
      schema: { response: { 200: Type.Object({ user: UserSchema }), ...errorResponses } },
    },
    async (request) => ({ user: toUserDto(accountOf(request)) }),
  );
};
