/**
 * The words of the states and kinds the /api uses. A module of their own: the schemas that
 * check answers need them, the first screens do not, and they must not ride in with it.
 */

export const COMPANY_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'SUSPENDED'] as const;
/**
 * USER: a salon's own account, acting for its company. SALES_REP: the maker's rep, acting
 * for the companies assigned to it. ADMIN: the maker's staff (the back office).
 */
export const ROLES = ['USER', 'SALES_REP', 'ADMIN'] as const;
/** The roles of the maker's own accounts, managed on the back office's People page. */
export const STAFF_ROLES = ['ADMIN', 'SALES_REP'] as const;
export const DOCUMENT_TYPES = [
  'BUSINESS_LICENSE',
  'VAT_REGISTRATION',
  'TRADE_REGISTER',
  'IDENTITY_DOCUMENT',
  'BANK_STATEMENT',
  'TAX_CERTIFICATE',
  'INCORPORATION_DOCUMENT',
  'OTHER',
] as const;
export const DOCUMENT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
/**
 * AWAITING_VERIFICATION: taken by a sales rep for a customer staff have not verified yet;
 * it becomes PENDING when they approve the company, CANCELLED when they reject it.
 */
export const ORDER_STATUSES = [
  'AWAITING_VERIFICATION',
  'PENDING',
  'CONFIRMED',
  'PROCESSING',
  'SHIPPED',
  'DELIVERED',
  'CANCELLED',
] as const;
export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'FAILED', 'REFUNDED'] as const;
