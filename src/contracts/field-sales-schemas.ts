/**
 * The /api/rep shapes (docs/api.md#field-sales), stated once: the server validates and
 * answers with them, the rep's screens derive their types from them.
 */
import { Type, type Static } from 'typebox';
import { MAX_ORDER_LINES, MAX_SIGNATURE_BYTES } from './field-sales';
import { CompanySchema } from './accounts-schemas';
import { MAX_NOTES_LENGTH } from './orders';
import { Id, OrderSchema, Quantity, ShippingAddressSchema } from './orders-schemas';

/** A company assigned to the signed-in rep, with what the rep needs at the booth. */
export const RepCustomerSchema = Type.Object({
  ...Type.Pick(CompanySchema, [
    'id',
    'name',
    'status',
    'taxNumber',
    'registrationNumber',
    'email',
    'phone',
    'address',
    'city',
    'state',
    'postalCode',
    'country',
    'website',
  ]).properties,
  /** The salon's own accounts. */
  contacts: Type.Array(
    Type.Object({
      id: Type.Integer(),
      firstName: Type.String(),
      lastName: Type.String(),
      email: Type.String(),
    }),
  ),
  /** When its latest order was placed; null when it has none. */
  lastOrderAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Its orders neither delivered nor cancelled (OPEN_ORDER_STATUSES). */
  openOrders: Type.Integer({ minimum: 0 }),
});

/** `GET /api/rep/customers`: the rep's customers, by name. */
export const RepCustomerListSchema = Type.Object({ customers: Type.Array(RepCustomerSchema) });

/**
 * `POST /api/rep/customers`: the salon the rep registered at the booth (201), or the one
 * it had already registered under the same tax number (200). Its body is the form's
 * (`bodyOf(RepCustomerFormSchema)`, ./form-schemas).
 */
export const RepCustomerRegisteredSchema = Type.Object({
  message: Type.String(),
  customer: RepCustomerSchema,
});

/**
 * `POST /api/rep/customers/{id}/orders`: an order a rep takes for its customer, whole: the
 * lines come with it (the rep's cart for each customer is kept on the device), priced by
 * the server at the catalogue's prices of that moment.
 */
export const RepOrderBodySchema = Type.Object(
  {
    items: Type.Array(
      Type.Object({ productId: Id, quantity: Quantity }, { additionalProperties: false }),
      { minItems: 1, maxItems: MAX_ORDER_LINES },
    ),
    shippingAddress: ShippingAddressSchema,
    notes: Type.Optional(Type.String({ maxLength: MAX_NOTES_LENGTH })),
    /** The device's own reference of the order. */
    clientReference: Type.Optional(Type.String({ maxLength: 100 })),
    /** The customer's signature: a PNG, in base64, of at most MAX_SIGNATURE_BYTES. */
    signature: Type.Optional(
      Type.String({
        maxLength: Math.ceil(MAX_SIGNATURE_BYTES / 3) * 4,
        pattern: '^[A-Za-z0-9+/]+={0,2}$',
      }),
    ),
  },
  { additionalProperties: false },
);

/** `GET /api/rep/orders?since=`: a moment, as an RFC 3339 date-time. */
export const RepOrderQuerySchema = Type.Object(
  { since: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);

/**
 * An order the rep placed, as any order reads, with the customer it is for: what its
 * pro-forma names of it, also when the device no longer keeps that customer.
 */
export const RepOrderSchema = Type.Object({
  ...OrderSchema.properties,
  customer: Type.Pick(RepCustomerSchema, [
    'id',
    'name',
    'taxNumber',
    'address',
    'city',
    'state',
    'postalCode',
    'country',
  ]),
});

/** `GET /api/rep/orders`: the orders the rep placed since a moment, newest first. */
export const RepOrderListSchema = Type.Object({ orders: Type.Array(RepOrderSchema) });

export type RepCustomer = Static<typeof RepCustomerSchema>;
export type RepOrder = Static<typeof RepOrderSchema>;
export type RepOrderList = Static<typeof RepOrderListSchema>;
export type RepOrderBody = Static<typeof RepOrderBodySchema>;
export type RepCustomerList = Static<typeof RepCustomerListSchema>;
export type RepCustomerRegistered = Static<typeof RepCustomerRegisteredSchema>;
