/**
 * What the routes compose their schemas from. The shapes the /api answers with (products,
 * carts, orders, users, companies, the error body) are stated once, in src/contracts; here
 * are only the pieces of requests and the answers that no other code reads.
 */
import { Type } from '@fastify/type-provider-typebox';
import { UserSchema } from '../../src/contracts/accounts-schemas.js';
import { ErrorBodySchema } from '../../src/contracts/error-schema.js';

export { ErrorBodySchema };

export const errorResponses = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  413: ErrorBodySchema,
  415: ErrorBodySchema,
  422: ErrorBodySchema,
  429: ErrorBodySchema,
};

export const SessionSchema = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
  user: UserSchema,
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/**
 * An answer that is a file's bytes, of one of `types`. Fastify sends bytes as they are, so
 * this says what they are for readers of the API's description (server/plugins/api-docs.ts).
 */
export const fileAnswer = <Bytes>(description: string, types: readonly string[]) => ({
  description,
  content: Object.fromEntries(
    types.map((type) => [
      type,
      { schema: Type.Unsafe<Bytes>({ type: 'string', format: 'binary' }) },
    ]),
  ),
});

/** Free text kept short: names, numbers and addresses. */
export const ShortText = (options: { maxLength?: number } = {}) =>
  Type.String({ maxLength: options.maxLength ?? 200 });
