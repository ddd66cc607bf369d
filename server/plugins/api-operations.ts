/**
 * What the routes' schemas do not say about them, route by route, for the OpenAPI document
 * (./api-docs.ts): a summary, a group, who may call, and the refusals of their own. What
 * every route of a kind may answer (a bad token, an invalid request, a key still running, a
 * fault) is added there, from the route's schema; docs/api.md stays the guide for people.
 */
import { Type, type TSchema } from 'typebox';
import { DOCUMENT_FIELDS } from '../../src/contracts/accounts.js';
import { WIZARD_FIELDS } from '../services/auth.js';

/** Who may call (docs/api.md#conventions): `everyone` includes visitors. */
export type Caller = 'everyone' | 'user' | 'staff' | 'rep';

/** The groups of the document, in the order a reader meets them. */
export const TAGS = {
  Health: 'Whether the server can be reached.',
  Maker: 'The maker’s details, as its pro-formas carry them.',
  Catalogue: 'Products and categories; prices only for a caller who may see them.',
  Newsletter: 'Subscriptions to the newsletter.',
  Registration: 'A salon registers: the quick form or the company wizard with documents.',
  Sessions: 'Signing in and out, renewing a session, the signed-in user.',
  'Account links': 'Links sent by e-mail: a new password, a confirmed address.',
  Account: 'What a signed-in user changes about itself.',
  Company: 'The user’s company and its documents.',
  Cart: 'The cart and its checkout; only for an approved company.',
  'Order lists': 'A salon user’s named lists of products; only for an approved company.',
  Orders: 'The company’s orders, read and cancelled.',
  'Back office: dashboard': 'Staff only: what waits for them.',
  'Back office: companies': 'Staff only: companies, their verification and sales rep.',
  'Back office: documents': 'Staff only: the companies’ documents and their review.',
  'Back office: orders': 'Staff only: every company’s orders, their status and payment.',
  'Back office: catalogue': 'Staff only: products, their pictures, categories.',
  'Back office: people': 'Staff only: the maker’s staff and sales rep accounts.',
  'Back office: audit log': 'Staff only: every change staff made, read only.',
  'Back office: e-mail': 'Staff only: the queue of outgoing e-mail, read only.',
  'Field sales':
    'Sales reps only: their customers, orders taken for them, salons registered at a booth.',
} as const;

export type Tag = keyof typeof TAGS;

/** Statuses a route may refuse with, each with the error body (docs/api.md#errors). */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

export interface Operation {
  summary: string;
  tag: Tag;
  who: Caller;
  /** The route's own refusals, by status: what happened and the `code` it carries. */
  refusals?: Partial<Record<RefusalStatus, string>>;
  /** Answers 304 to an `If-None-Match` naming the caller's current copy. */
  revalidated?: true;
  /** The multipart form of an upload, for readers: the route reads it part by part itself. */
  form?: TSchema;
}

/** A file part of a multipart form. */
const File = (description: string) =>
  Type.String({ format: 'binary', contentMediaType: 'application/octet-stream', description });

const DOCUMENT_FILES = Object.fromEntries(
  Object.keys(DOCUMENT_FIELDS).map((field) => [
    field,
    Type.Optional(File('A PDF, JPEG or PNG file of up to 5 MB.')),
  ]),
);

const documentsForm = Type.Object(DOCUMENT_FILES, {
  description: '1 to 8 files, each under the field of its kind of document; no other field.',
});

const registrationForm = Type.Object(
  {
    ...Object.fromEntries(
      WIZARD_FIELDS.map((field) => [
        field,
        field === 'website' ? Type.Optional(Type.String()) : Type.String(),
      ]),
    ),
    ...DOCUMENT_FILES,
  },
  { description: 'The four steps of the wizard, each field once (up to 1 KB), and up to 8 files.' },
);

const pictureForm = Type.Object(
  { file: File('A JPEG, PNG or WebP picture of up to 5 MB.') },
  { required: ['file'], description: 'One file.' },
);

const NOT_APPROVED =
  'NOT_APPROVED: the company is not approved (yet), so the cart and orders are not available.';
const NO_COMPANY = '"No company is linked to this account" (a staff or sales rep account).';
const STOCK =
  '`outOfStock` or `insufficientStock`: a line over the product’s stock; a detail per line (`product:<id>`).';
const ORDER_STOCK =
  '`outOfStock` or `insufficientStock` for one line over its product’s stock, `STOCK_SHORT` (with `names`) for several; a detail per line (`product:<id>`).';
const UPLOAD_REFUSALS = {
  400: '"Choose a file to upload."; a field that is not an upload field.',
  409: 'DOCUMENT_QUOTA_EXCEEDED: the company keeps as many documents as it may.',
  413: 'A file over 5 MB (`fileTooLarge`), more files or parts than allowed.',
  415: 'Not multipart; a file that is not PDF, JPEG or PNG (`fileUnsupported`).',
  503: 'UPLOADS_BUSY: too many uploads at once; retry after `retryAfter` seconds.',
} as const;
const COMPANY_DECISION =
  'COMPANY_DECISION_NOT_ALLOWED: not allowed from the company’s status (approve ← PENDING or REJECTED, reject ← PENDING, suspend ← APPROVED, reactivate ← SUSPENDED).';
const DOCUMENT_DECISION =
  'DOCUMENT_DECISION_NOT_ALLOWED: not allowed from the document’s status; `params.allowed` lists what is.';
const STAFF_NOT_FOUND = '"Staff member not found": the id is not a staff account.';

/** Every /api route, by method and path as OpenAPI writes it. */
export const OPERATIONS: Record<string, Operation> = {
  'GET /api/health': {
    summary: 'Check that the server and its database answer',
    tag: 'Health',
    who: 'everyone',
  },

  'GET /api/maker': {
    summary: 'Read the maker’s details for pro-formas',
    tag: 'Maker',
    who: 'everyone',
  },

  'GET /api/products': {
    summary: 'List products: a page of a search, a category and a sort',
    tag: 'Catalogue',
    who: 'everyone',
    revalidated: true,
  },
  'GET /api/products/mirror': {
    summary: 'Stream the whole catalogue, or what changed since a moment, as NDJSON',
    tag: 'Catalogue',
    who: 'everyone',
    revalidated: true,
  },
  'GET /api/products/ids': {
    summary: 'List the id of every product on sale',
    tag: 'Catalogue',
    who: 'everyone',
    revalidated: true,
  },
  'GET /api/products/categories': {
    summary: 'List the categories in display order',
    tag: 'Catalogue',
    who: 'everyone',
    revalidated: true,
  },
  'GET /api/products/{id}': {
    summary: 'Read one product',
    tag: 'Catalogue',
    who: 'everyone',
    revalidated: true,
    refusals: { 404: '"Product not found": no such product, or one off sale.' },
  },

  'POST /api/newsletter': {
    summary: 'Subscribe an e-mail address to the newsletter',
    tag: 'Newsletter',
    who: 'everyone',
  },

  'POST /api/auth/register': {
    summary: 'Register a salon and its first user with the quick form',
    tag: 'Registration',
    who: 'everyone',
    refusals: {
      400: 'A broken rule of the person form: a detail per field with its `code`.',
      429: 'TOO_MANY_REGISTRATIONS: 30 registrations an hour from one address.',
    },
  },
  'POST /api/auth/register-company': {
    summary: 'Register a salon with the company wizard and its documents',
    tag: 'Registration',
    who: 'everyone',
    form: registrationForm,
    refusals: {
      400: 'A broken rule of the wizard: a detail per field with its `code`; an unknown field.',
      413: 'A file over 5 MB, a field over 1 KB, more files or parts than allowed.',
      415: 'Not multipart; a file that is not PDF, JPEG or PNG.',
      429: 'TOO_MANY_REGISTRATIONS: 30 registrations an hour from one address.',
      503: UPLOAD_REFUSALS[503],
    },
  },

  'POST /api/auth/login': {
    summary: 'Sign in: a new session',
    tag: 'Sessions',
    who: 'everyone',
    refusals: {
      401: '"Invalid email or password" for an unknown e-mail and a wrong password alike; a deactivated account.',
      429: '"Too many login attempts…": wait `retryAfter` seconds.',
    },
  },
  'POST /api/auth/refresh': {
    summary: 'Renew a session: a new access token and refresh token',
    tag: 'Sessions',
    who: 'everyone',
    refusals: { 401: 'The refresh token is unknown, spent, revoked or past its end.' },
  },
  'POST /api/auth/logout': {
    summary: 'Sign out: end the session of a refresh token',
    tag: 'Sessions',
    who: 'everyone',
  },
  'GET /api/auth/me': {
    summary: 'Read the signed-in user as the database has it now',
    tag: 'Sessions',
    who: 'user',
  },

  'POST /api/auth/password-reset': {
    summary: 'Ask for a link to choose a new password',
    tag: 'Account links',
    who: 'everyone',
    refusals: {
      400: '`emailAddressRequired` or `emailInvalid` on `email`.',
      429: 'TOO_MANY_LINK_REQUESTS: too many links asked for from this address or for this e-mail.',
    },
  },
  'POST /api/auth/password-reset/confirm': {
    summary: 'Choose a new password with an e-mailed link',
    tag: 'Account links',
    who: 'everyone',
    refusals: {
      400: 'TOKEN_INVALID: not a valid link; or the password’s rules (a detail on `newPassword`).',
      410: 'TOKEN_EXPIRED or TOKEN_USED.',
    },
  },
  'POST /api/auth/verify-email': {
    summary: 'Confirm an e-mail address with an e-mailed link',
    tag: 'Account links',
    who: 'everyone',
    refusals: { 400: 'TOKEN_INVALID: not a valid link.', 410: 'TOKEN_EXPIRED or TOKEN_USED.' },
  },
  'POST /api/auth/verify-email/resend': {
    summary: 'Send a new link to confirm the user’s e-mail address',
    tag: 'Account links',
    who: 'user',
    refusals: {
      409: 'EMAIL_ALREADY_VERIFIED: the address is confirmed already.',
      429: 'TOO_MANY_LINK_REQUESTS: too many links asked for.',
    },
  },

  'PUT /api/users/profile': {
    summary: 'Change the user’s name',
    tag: 'Account',
    who: 'user',
    refusals: { 400: 'A broken rule (a detail per field); `emailReadOnly` for another e-mail.' },
  },
  'PUT /api/users/password': {
    summary: 'Change the user’s password; every other session ends',
    tag: 'Account',
    who: 'user',
    refusals: {
      400: '`currentPasswordWrong`, or the new password’s rules.',
      429: 'Too many wrong passwords: counted with the sign-ins.',
    },
  },
  'PUT /api/users/notifications': {
    summary: 'Choose which e-mails the user receives',
    tag: 'Account',
    who: 'user',
  },
  'DELETE /api/users/me': {
    summary: 'Delete the user’s account; the company’s orders are kept',
    tag: 'Account',
    who: 'user',
    refusals: {
      400: '`currentPasswordWrong`.',
      429: 'Too many wrong passwords: counted with the sign-ins.',
    },
  },

  'GET /api/companies/me': {
    summary: 'Read the user’s company',
    tag: 'Company',
    who: 'user',
    refusals: { 404: NO_COMPANY },
  },
  'GET /api/companies/me/documents': {
    summary: 'List the company’s documents, newest upload first',
    tag: 'Company',
    who: 'user',
    refusals: { 404: NO_COMPANY },
  },
  'POST /api/companies/me/documents': {
    summary: 'Upload documents of the company: all the files or none',
    tag: 'Company',
    who: 'user',
    form: documentsForm,
    refusals: { ...UPLOAD_REFUSALS, 404: NO_COMPANY },
  },
  'GET /api/companies/me/documents/{id}/file': {
    summary: 'Download one of the company’s documents',
    tag: 'Company',
    who: 'user',
    refusals: { 404: `"Document not found"; ${NO_COMPANY}` },
  },

  'GET /api/cart': {
    summary: 'Read the cart at today’s prices',
    tag: 'Cart',
    who: 'user',
    refusals: { 403: NOT_APPROVED },
  },
  'POST /api/cart/add': {
    summary: 'Add a quantity of a product to the cart',
    tag: 'Cart',
    who: 'user',
    refusals: {
      403: NOT_APPROVED,
      404: 'PRODUCT_NOT_FOUND.',
      422: `${STOCK} LINE_LIMIT: the line would hold more than 9,999.`,
    },
  },
  'PUT /api/cart/items/{id}': {
    summary: 'Set the quantity of the cart’s line of a product, making the line if missing',
    tag: 'Cart',
    who: 'user',
    refusals: { 403: NOT_APPROVED, 404: 'PRODUCT_NOT_FOUND.', 422: STOCK },
  },
  'DELETE /api/cart/items/{id}': {
    summary: 'Remove the cart’s line of a product; a missing line is not an error',
    tag: 'Cart',
    who: 'user',
    refusals: { 403: NOT_APPROVED },
  },
  'DELETE /api/cart': {
    summary: 'Empty the cart',
    tag: 'Cart',
    who: 'user',
    refusals: { 403: NOT_APPROVED },
  },
  'POST /api/cart/checkout': {
    summary: 'Order what the cart holds, at today’s prices',
    tag: 'Cart',
    who: 'user',
    refusals: {
      400: 'CART_EMPTY; a broken rule of the address (details on `shippingAddress.<field>`).',
      403: NOT_APPROVED,
      404: NO_COMPANY,
      422: `${ORDER_STOCK} Nothing is ordered.`,
    },
  },

  'GET /api/lists': {
    summary: 'List the user’s order lists, oldest first',
    tag: 'Order lists',
    who: 'user',
    refusals: { 403: NOT_APPROVED },
  },
  'PUT /api/lists/{listId}': {
    summary: 'Make an order list under an id the device chose (201), or rename it (200)',
    tag: 'Order lists',
    who: 'user',
    refusals: {
      403: NOT_APPROVED,
      404: 'LIST_NOT_FOUND: another user’s list.',
      422: 'TOO_MANY_LISTS: 50 lists a user.',
    },
  },
  'DELETE /api/lists/{listId}': {
    summary: 'Delete an order list',
    tag: 'Order lists',
    who: 'user',
    refusals: { 403: NOT_APPROVED, 404: 'LIST_NOT_FOUND.' },
  },
  'PUT /api/lists/{listId}/items/{productId}': {
    summary: 'Set a product’s quantity in an order list, adding it last when new',
    tag: 'Order lists',
    who: 'user',
    refusals: {
      403: NOT_APPROVED,
      404: 'LIST_NOT_FOUND; PRODUCT_NOT_FOUND (no such product, or off sale).',
      422: 'TOO_MANY_LIST_ITEMS: 200 products a list.',
    },
  },
  'DELETE /api/lists/{listId}/items/{productId}': {
    summary: 'Remove a product from an order list; one it does not hold is not an error',
    tag: 'Order lists',
    who: 'user',
    refusals: { 403: NOT_APPROVED, 404: 'LIST_NOT_FOUND.' },
  },

  'GET /api/orders': {
    summary: 'List the company’s orders, newest first',
    tag: 'Orders',
    who: 'user',
    refusals: { 404: NO_COMPANY },
  },
  'GET /api/orders/{id}': {
    summary: 'Read one of the company’s orders',
    tag: 'Orders',
    who: 'user',
    refusals: { 404: `"Order not found"; ${NO_COMPANY}` },
  },
  'DELETE /api/orders/{id}': {
    summary: 'Cancel one of the company’s orders; its stock comes back',
    tag: 'Orders',
    who: 'user',
    refusals: {
      404: `"Order not found"; ${NO_COMPANY}`,
      409: 'ORDER_NOT_CANCELLABLE: only a PENDING or CONFIRMED order may be cancelled.',
    },
  },
  'GET /api/orders/{id}/signature': {
    summary: 'Show the customer’s signature of an order a sales rep took',
    tag: 'Orders',
    who: 'user',
    refusals: {
      404: '"Signature not found": an order without one, or the caller is not its company’s, its rep or staff.',
    },
  },

  'GET /api/admin/summary': {
    summary: 'Read what waits for staff, and today’s orders',
    tag: 'Back office: dashboard',
    who: 'staff',
  },

  'GET /api/admin/companies': {
    summary: 'List companies: a page of a search, a status and a sort',
    tag: 'Back office: companies',
    who: 'staff',
  },
  'GET /api/admin/companies/{id}': {
    summary: 'Read a company with its rep, documents, people and history',
    tag: 'Back office: companies',
    who: 'staff',
    refusals: { 404: '"Company not found".' },
  },
  'PATCH /api/admin/companies/{id}': {
    summary: 'Change a company’s details',
    tag: 'Back office: companies',
    who: 'staff',
    refusals: {
      400: 'A broken rule of the company form: a detail per field with its `code`.',
      404: '"Company not found".',
    },
  },
  'PUT /api/admin/companies/{id}/sales-rep': {
    summary: 'Choose the company’s sales rep, or none',
    tag: 'Back office: companies',
    who: 'staff',
    refusals: {
      400: '`salesRepUnknown`: not an active sales rep.',
      404: '"Company not found".',
    },
  },
  'POST /api/admin/companies/{id}/approve': {
    summary: 'Approve a company: its users may see prices and order',
    tag: 'Back office: companies',
    who: 'staff',
    refusals: { 404: '"Company not found".', 409: COMPANY_DECISION },
  },
  'POST /api/admin/companies/{id}/reject': {
    summary: 'Reject a company’s registration, with a reason',
    tag: 'Back office: companies',
    who: 'staff',
    refusals: { 404: '"Company not found".', 409: COMPANY_DECISION },
  },
  'POST /api/admin/companies/{id}/suspend': {
    summary: 'Suspend an approved company, with a reason',
    tag: 'Back office: companies',
    who: 'staff',
    refusals: { 404: '"Company not found".', 409: COMPANY_DECISION },
  },
  'POST /api/admin/companies/{id}/reactivate': {
    summary: 'Reactivate a suspended company',
    tag: 'Back office: companies',
    who: 'staff',
    refusals: { 404: '"Company not found".', 409: COMPANY_DECISION },
  },

  'POST /api/admin/booth-details/{id}/dismiss': {
    summary:
      'Dismiss details a sales rep typed at the booth that the company’s record does not say',
    tag: 'Back office: companies',
    who: 'staff',
    refusals: { 404: '"These details typed at the booth were not found".' },
  },

  'POST /api/admin/documents/{id}/approve': {
    summary: 'Approve a company’s document',
    tag: 'Back office: documents',
    who: 'staff',
    refusals: { 404: '"Document not found".', 409: DOCUMENT_DECISION },
  },
  'POST /api/admin/documents/{id}/reject': {
    summary: 'Reject a company’s document, with notes for the salon',
    tag: 'Back office: documents',
    who: 'staff',
    refusals: { 404: '"Document not found".', 409: DOCUMENT_DECISION },
  },
  'DELETE /api/admin/documents/{id}': {
    summary: 'Remove a company’s document for good (the audit log keeps its name)',
    tag: 'Back office: documents',
    who: 'staff',
    refusals: { 404: '"Document not found".' },
  },
  'GET /api/admin/documents/{id}/file': {
    summary: 'Show a company’s document, inline and sandboxed',
    tag: 'Back office: documents',
    who: 'staff',
    refusals: { 404: '"Document not found".' },
  },

  'GET /api/admin/orders': {
    summary: 'List every company’s orders: a page of filters and a sort',
    tag: 'Back office: orders',
    who: 'staff',
    refusals: { 400: 'A filter out of its values; a day that does not exist.' },
  },
  'GET /api/admin/orders/export.csv': {
    summary: 'Export every order matching the filters, as CSV',
    tag: 'Back office: orders',
    who: 'staff',
    refusals: { 400: 'A filter out of its values; a day that does not exist.' },
  },
  'GET /api/admin/orders/{id}': {
    summary: 'Read an order with its company, history and the changes allowed',
    tag: 'Back office: orders',
    who: 'staff',
    refusals: { 404: '"Order not found".' },
  },
  'POST /api/admin/orders/{id}/status': {
    summary: 'Move an order to its next status, or cancel it',
    tag: 'Back office: orders',
    who: 'staff',
    refusals: {
      400: '`trackingNumber` for SHIPPED, `reason` for CANCELLED: `required`, `tooLong`, `invalidValue`.',
      404: '"Order not found".',
      409: 'ORDER_STATUS_CONFLICT: not allowed from the order’s status; `details.allowed` lists what is.',
    },
  },
  'POST /api/admin/orders/{id}/payment': {
    summary: 'Record an order’s payment status',
    tag: 'Back office: orders',
    who: 'staff',
    refusals: {
      404: '"Order not found".',
      409: 'ORDER_PAYMENT_CONFLICT: not allowed from the payment’s status; `details.allowed` lists what is.',
    },
  },

  'GET /api/admin/staff': {
    summary: 'List the maker’s staff and sales rep accounts',
    tag: 'Back office: people',
    who: 'staff',
  },
  'POST /api/admin/staff': {
    summary: 'Make a staff or sales rep account with a temporary password',
    tag: 'Back office: people',
    who: 'staff',
    refusals: {
      400: 'A broken rule of the form: a detail per field with its `code`.',
      409: '`emailTaken`: an account has this e-mail.',
    },
  },
  'POST /api/admin/staff/{id}/reset-password': {
    summary: 'Give a staff account a new temporary password; its sessions end',
    tag: 'Back office: people',
    who: 'staff',
    refusals: { 404: STAFF_NOT_FOUND, 409: 'STAFF_SELF: one’s own account.' },
  },
  'POST /api/admin/staff/{id}/deactivate': {
    summary: 'Deactivate a staff account; its sessions end',
    tag: 'Back office: people',
    who: 'staff',
    refusals: {
      404: STAFF_NOT_FOUND,
      409: 'STAFF_SELF, STAFF_LAST_ACTIVE (the last active staff account) or STAFF_ALREADY_INACTIVE.',
    },
  },
  'POST /api/admin/staff/{id}/reactivate': {
    summary: 'Reactivate a staff account',
    tag: 'Back office: people',
    who: 'staff',
    refusals: { 404: STAFF_NOT_FOUND, 409: 'STAFF_ALREADY_ACTIVE.' },
  },

  'GET /api/admin/audit': {
    summary: 'Read the audit log, newest first',
    tag: 'Back office: audit log',
    who: 'staff',
  },

  'GET /api/admin/mail': {
    summary: 'List the outgoing e-mail, newest first',
    tag: 'Back office: e-mail',
    who: 'staff',
  },
  'GET /api/admin/mail/{id}': {
    summary: 'Read one message as its recipient reads it',
    tag: 'Back office: e-mail',
    who: 'staff',
    refusals: { 404: '"Message not found".' },
  },

  'GET /api/admin/products': {
    summary: 'List products as staff see them: a page of a search and filters',
    tag: 'Back office: catalogue',
    who: 'staff',
  },
  'POST /api/admin/products': {
    summary: 'Make a product',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: {
      400: 'A broken rule: a detail per field (`sku`, `name.ro` …) with its `code`.',
      409: '`skuTaken` or `eanTaken`: another product has it.',
    },
  },
  'GET /api/admin/products/{id}': {
    summary: 'Read a product as staff see it',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: { 404: '"Product not found".' },
  },
  'PATCH /api/admin/products/{id}': {
    summary: 'Change a product',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: {
      400: 'A broken rule: a detail per field with its `code`.',
      404: '"Product not found".',
      409: '`skuTaken` or `eanTaken`: another product has it.',
    },
  },
  'DELETE /api/admin/products/{id}': {
    summary: 'Delete a product that was never ordered',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: {
      404: '"Product not found".',
      409: 'PRODUCT_ORDERED: deactivate it instead.',
    },
  },
  'POST /api/admin/products/{id}/activate': {
    summary: 'Put a product on sale',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: { 404: '"Product not found".' },
  },
  'POST /api/admin/products/{id}/deactivate': {
    summary: 'Take a product off sale',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: { 404: '"Product not found".' },
  },
  'POST /api/admin/products/{id}/pictures': {
    summary: 'Add a picture to a product, stored at three widths',
    tag: 'Back office: catalogue',
    who: 'staff',
    form: pictureForm,
    refusals: {
      400: 'The upload was interrupted.',
      404: '"Product not found".',
      409: '`pictureLimit`: the product has 5 pictures.',
      413: '`pictureSize`: over 5 MB.',
      415: 'Not multipart; `pictureType`: not a JPEG, PNG or WebP picture.',
      503: UPLOAD_REFUSALS[503],
    },
  },
  'PUT /api/admin/products/{id}/pictures': {
    summary: 'Put a product’s pictures in a new order',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: {
      404: '"Product not found".',
      409: 'The list is not the product’s pictures.',
    },
  },
  'DELETE /api/admin/products/{id}/pictures/{file}': {
    summary: 'Remove one of a product’s pictures',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: { 404: '"Product not found"; "This product has no such picture".' },
  },
  'GET /api/admin/categories': {
    summary: 'List the categories with their names and products',
    tag: 'Back office: catalogue',
    who: 'staff',
  },
  'POST /api/admin/categories': {
    summary: 'Make a category, last in order',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: { 400: 'The Romanian name required; names up to 200 characters.' },
  },
  'PATCH /api/admin/categories/{id}': {
    summary: 'Rename a category',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: {
      400: 'The Romanian name required; names up to 200 characters.',
      404: '"Category not found".',
    },
  },
  'PUT /api/admin/categories/order': {
    summary: 'Put the categories in a new order',
    tag: 'Back office: catalogue',
    who: 'staff',
    refusals: { 409: 'The list is not every category’s id once.' },
  },

  'GET /api/rep/customers': {
    summary: 'List the rep’s customers',
    tag: 'Field sales',
    who: 'rep',
  },
  'POST /api/rep/customers': {
    summary: 'Register a salon at the booth (201), or find the rep’s own customer (200)',
    tag: 'Field sales',
    who: 'rep',
    refusals: {
      400: 'A broken rule of the form: a detail per field with its `code`.',
      409: 'COMPANY_EXISTS: another rep’s company, or one with no rep, has this tax number.',
    },
  },
  'GET /api/rep/customers/{id}': {
    summary: 'Read one of the rep’s customers',
    tag: 'Field sales',
    who: 'rep',
    refusals: { 404: '"Customer not found": not the rep’s customer.' },
  },
  'GET /api/rep/customers/{id}/orders': {
    summary: 'List a customer’s orders, newest first',
    tag: 'Field sales',
    who: 'rep',
    refusals: { 404: '"Customer not found": not the rep’s customer.' },
  },
  'POST /api/rep/customers/{id}/orders': {
    summary: 'Place an order for a customer, with its signature',
    tag: 'Field sales',
    who: 'rep',
    refusals: {
      400: '`signatureInvalid`; a broken rule of the address.',
      404: '"Customer not found"; PRODUCT_NOT_FOUND.',
      409: 'CUSTOMER_NOT_APPROVED: the customer is rejected or suspended.',
      422: `${ORDER_STOCK} Nothing is ordered.`,
    },
  },
  'POST /api/rep/customers/{id}/documents': {
    summary: 'Upload documents of a customer: all the files or none',
    tag: 'Field sales',
    who: 'rep',
    form: documentsForm,
    refusals: { ...UPLOAD_REFUSALS, 404: '"Customer not found": not the rep’s customer.' },
  },
  'GET /api/rep/orders': {
    summary: 'List the orders the rep placed since a moment, for its day',
    tag: 'Field sales',
    who: 'rep',
    refusals: { 400: '`since` missing, repeated, or more than 31 days back.' },
  },
};
