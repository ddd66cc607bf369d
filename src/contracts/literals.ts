/**
 * A JSON schema for a string that is one of a list of words, typed as their union. Plain
 * `enum` with `type: "string"`, so the server's serializer and validator and TypeBox's
 * `Value.Check` in the browser all read it alike.
 */
import { Type } from 'typebox';

export const literals = <T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
