/**
 * The maker's details as a JSON schema (docs/api.md#the-makers-details), stated once: the
 * server answers with it and the type is derived from it.
 */
import { Type, type Static } from 'typebox';

export const MakerDetailsSchema = Type.Object({
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  /** The registered office, on one line; empty when not configured. */
  address: Type.String(),
  /** The tax identification number (CUI/CIF, with "RO" when VAT-registered). */
  taxNumber: Type.String(),
  /** The trade register number (e.g. J35/1234/1998). */
  tradeRegister: Type.String(),
  /** Where salons pay by bank transfer, in groups of four characters. */
  iban: Type.String(),
  bank: Type.String(),
  /** Days a salon has to pay a pro-forma. */
  paymentDays: Type.Integer({ minimum: 0 }),
});

export type MakerDetails = Static<typeof MakerDetailsSchema>;
