/**
 * Registration: the quick form and the four-step company wizard with its documents.
 * Both are limited per client address, and both answer the same for a new and a taken
 * e-mail (see services/auth.ts), so the answer carries no user.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { requestLanguage } from '../request-language.js';
import {
  registerCompany,
  registerPerson,
  WIZARD_FIELDS,
  type WizardPayload,
} from '../services/auth.js';
import { HttpError } from '../services/errors.js';
import { beginRegistration, tooManyRegistrations } from '../services/registration-limit.js';
import { clientGone, withUploadSlot } from '../services/upload-gate.js';
import { readUploadForm } from '../services/upload-spool.js';
import { bodyOf, RegisterPayloadSchema } from '../../src/contracts/form-schemas.js';
import { ErrorBodySchema, errorResponses } from './schemas.js';

/** Most files one registration may carry: one per document type. */
const MAX_REGISTRATION_FILES = 8;

const registered = Type.Object({ message: Type.String() });

export const PERSON_REGISTERED =
  'Registration successful! Please check your email to verify your account before logging in.';
export const COMPANY_REGISTERED =
  'Company registration submitted successfully! Your application is now under review. You will receive an email notification once your company is approved.';

/** Counts the registration against the client's address; a 429 when it has made too many. */
async function limitRegistrations(db: Db, request: FastifyRequest): Promise<void> {
  const attempt = await beginRegistration(db, request.ip);
  if (!attempt.allowed) throw tooManyRegistrations(attempt.retryAfter);
}

export const registrationRoutes: FastifyPluginAsyncTypebox<{ db: Db; publicUrl: string }> = async (
  app,
  { db, publicUrl },
) => {
  app.post(
    '/auth/register',
    {
      schema: {
        body: bodyOf(RegisterPayloadSchema),
        response: { 201: registered, ...errorResponses },
      },
    },
    async (request, reply) => {
      await limitRegistrations(db, request);
      await registerPerson(db, request.body, { publicUrl, language: requestLanguage(request) });
      return reply.status(201).send({ message: PERSON_REGISTERED });
    },
  );

  app.post(
    '/auth/register-company',
    {
      schema: {
        consumes: ['multipart/form-data'],
        response: { 201: registered, ...errorResponses, 503: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new HttpError(415, 'Send the registration as multipart/form-data.');
      await limitRegistrations(db, request);
      const signal = clientGone(reply);
      return withUploadSlot(reply, signal, async () => {
        const form = await readUploadForm(request, {
          fields: WIZARD_FIELDS,
          maxFiles: MAX_REGISTRATION_FILES,
        });
        try {
          await registerCompany(
            db,
            form.fields as unknown as WizardPayload,
            form.files,
            { publicUrl, language: requestLanguage(request) },
            signal,
          );
        } finally {
          await form.discard();
        }
        return reply.status(201).send({ message: COMPANY_REGISTERED });
      });
    },
  );
};
