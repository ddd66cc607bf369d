/** Sign-in and sessions: login, refresh, logout and who is signed in. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { requestLanguage } from '../request-language.js';
import { accountOf, requireUser } from '../plugins/auth.js';
import { toUserDto } from '../services/accounts.js';
import { login, logout, refreshSession, type Session } from '../services/sessions.js';
import { UserSchema } from '../../src/contracts/accounts-schemas.js';
import { bodyOf, LoginFormSchema } from '../../src/contracts/form-schemas.js';
import { SIGNED_IN_COOKIE } from '../../src/contracts/storage-names.js';
import { errorResponses, SessionSchema } from './schemas.js';

/**
 * The cookie that says a session is open in this browser, until it ends (`endsAt`) or
 * `null`: signed out. It names no one and grants nothing (the access token does); it only
 * tells the first screens to leave rendering to the browser (see first-screens.ts).
 */
function signedInCookie(request: FastifyRequest, reply: FastifyReply, endsAt: Date | null) {
  const lasts = endsAt ? Math.max(0, Math.floor((endsAt.getTime() - Date.now()) / 1000)) : 0;
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${SIGNED_IN_COOKIE}=${endsAt ? '1' : ''}; Path=/; Max-Age=${lasts}; HttpOnly; SameSite=Lax${secure}`,
  );
}

/** The session as the client gets it, the browser told that one is open. */
function opened(
  request: FastifyRequest,
  reply: FastifyReply,
  { endsAt, ...session }: Session,
): Omit<Session, 'endsAt'> {
  signedInCookie(request, reply, endsAt);
  return session;
}

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
    async (request, reply) =>
      opened(request, reply, await login(db, request.body, request.ip, requestLanguage(request))),
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
    async (request, reply) =>
      opened(request, reply, await refreshSession(db, request.body.refreshToken)),
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
    async (request, reply) => {
      await logout(db, request.body.refreshToken);
      signedInCookie(request, reply, null);
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
