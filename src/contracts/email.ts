/**
 * The shape of an e-mail address, as every form of the portal checks it: something, an
 * @, a domain with a dot and a top-level part of two letters or more. (The server checks
 * the same rule: src/contracts/form-schemas.ts is shared.)
 */
export const isEmailAddress = (value: string): boolean =>
  /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value);
