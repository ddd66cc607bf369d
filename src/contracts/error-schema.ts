/**
 * The body of every failed /api call (docs/api.md#errors), as a JSON schema: the server
 * answers with it, the client reads it. Load it only where a check runs: the first screens
 * import its type alone.
 */
import { Type, type Static } from 'typebox';

const Params = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]));

export const ErrorBodySchema = Type.Object(
  {
    message: Type.String(),
    /** One entry per refused field of a 400. */
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String(),
          message: Type.String(),
          code: Type.Optional(Type.String()),
          params: Type.Optional(Params),
        }),
      ),
    ),
    /** Seconds to wait, with a 429 or 503. */
    retryAfter: Type.Optional(Type.Integer()),
    /** Names the refusal, so that the client can say it in the user's language. */
    code: Type.Optional(Type.String()),
    params: Type.Optional(Params),
  },
  { $id: 'Error' },
);

export type ErrorBody = Static<typeof ErrorBodySchema>;
