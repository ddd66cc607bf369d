/**
 * The bodies and answers of the account's e-mailed links (docs/api.md#password-reset-and-e-mail-verification):
 * asking for a new password, choosing it, confirming an address and asking for a new
 * confirmation link.
 */
import { Type, type Static } from 'typebox';
import { bodyOf, ForgotPasswordFormSchema, PasswordResetPayloadSchema } from './form-schemas';

/** A link's token as the body carries it; a token of another shape is simply not valid. */
const Token = Type.String({ maxLength: 200 });

export const PasswordResetRequestSchema = bodyOf(ForgotPasswordFormSchema);

export const PasswordResetConfirmSchema = Type.Object(
  { token: Token, ...bodyOf(PasswordResetPayloadSchema).properties },
  { additionalProperties: false },
);

export const VerifyEmailSchema = Type.Object({ token: Token }, { additionalProperties: false });

/** What each of these routes answers: a sentence for the user. */
export const AccountLinkAnswerSchema = Type.Object({ message: Type.String() });

export type PasswordResetRequest = Static<typeof PasswordResetRequestSchema>;
export type PasswordResetConfirm = Static<typeof PasswordResetConfirmSchema>;
export type AccountLinkAnswer = Static<typeof AccountLinkAnswerSchema>;
