/**
 * The maker's details a pro-forma carries (docs/product.md#pro-forma-invoices): its name and
 * contacts from ./brand, and its registered office, tax and trade register numbers and bank
 * account from the server's configuration, which the device keeps for offline use.
 */
import { BRAND } from './brand';
import type { MakerDetails } from './maker-schemas';

export type { MakerDetails } from './maker-schemas';

/** The maker's usual payment term for salons, in days. */
export const DEFAULT_PAYMENT_DAYS = 15;

/** The details known without the server: the brand's, nothing legal configured. */
export const BRAND_DETAILS: MakerDetails = {
  name: BRAND.name,
  email: BRAND.email,
  phone: BRAND.phone,
  address: BRAND.address,
  taxNumber: '',
  tradeRegister: '',
  iban: '',
  bank: '',
  paymentDays: DEFAULT_PAYMENT_DAYS,
};

/**
 * `text` as an IBAN in its printed form (groups of four, capitals), or null when it is not
 * one: two letters, two check digits, up to 30 letters and digits, and the ISO 13616 check
 * (the number read with A = 10 … Z = 35, first four characters moved to the end, is 1
 * modulo 97), which catches a mistyped or swapped character.
 */
export function printedIban(text: string): string | null {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return null;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = Number.parseInt(char, 36);
    remainder = (remainder * (value > 9 ? 100 : 10) + value) % 97;
  }
  return remainder === 1 ? iban.replace(/(.{4})(?=.)/g, '$1 ') : null;
}
