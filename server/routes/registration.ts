/** Registration: the quick form and the four-step company wizard with its documents. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import {
  registerCompany,
  registerPerson,
  WIZARD_FIELDS,
  type WizardPayload,
} from '../services/auth.js';
import { checkUpload, type CheckedUpload } from '../services/documents.js';
import { HttpError } from '../services/errors.js';
import { ShortText, UserSchema } from './accounts-schemas.js';
import { errorResponses } from './schemas.js';

/** Most files one registration may carry: one per document type. */
const MAX_REGISTRATION_FILES = 8;

const registered = Type.Object({ message: Type.String(), user: UserSchema });

export const registrationRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/auth/register',
    {
      schema: {
        body: Type.Object(
          {
            email: ShortText({ maxLength: 254 }),
            password: ShortText({ maxLength: 128 }),
            firstName: ShortText(),
            lastName: ShortText(),
            companyName: ShortText(),
            taxNumber: ShortText(),
            companyEmail: Type.Optional(ShortText({ maxLength: 254 })),
            companyPhone: Type.Optional(ShortText()),
            companyAddress: Type.Optional(ShortText()),
            companyCity: Type.Optional(ShortText()),
            companyState: Type.Optional(ShortText()),
            companyZipCode: Type.Optional(ShortText()),
            companyCountry: Type.Optional(ShortText()),
            registrationNumber: Type.Optional(ShortText()),
            website: Type.Optional(ShortText()),
          },
          { additionalProperties: false },
        ),
        response: { 201: registered, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await registerPerson(db, request.body);
      return reply.status(201).send({
        message:
          'Registration successful! Please check your email to verify your account before logging in.',
        user,
      });
    },
  );

  app.post(
    '/auth/register-company',
    {
      schema: {
        consumes: ['multipart/form-data'],
        response: { 201: registered, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new HttpError(415, 'Send the registration as multipart/form-data.');
      const fields: Record<string, string> = {};
      const uploads: CheckedUpload[] = [];
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (uploads.length >= MAX_REGISTRATION_FILES) throw new HttpError(400, 'Too many files.');
          uploads.push(await checkUpload(part));
        } else if ((WIZARD_FIELDS as readonly string[]).includes(part.fieldname)) {
          fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
        } else {
          throw new HttpError(
            400,
            `Invalid request: ${part.fieldname.slice(0, 50)} is not a known field`,
            [{ field: part.fieldname.slice(0, 50), message: 'is not a known field' }],
          );
        }
      }
      const user = await registerCompany(db, fields as unknown as WizardPayload, uploads);
      return reply.status(201).send({
        message:
          'Company registration submitted successfully! Your application is now under review. You will receive an email notification once your company is approved.',
        user,
      });
    },
  );
};
