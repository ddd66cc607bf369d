/**
 * Carts and orders as JSON schemas (docs/api.md#cart, docs/api.md#orders), stated once:
 * the server answers with them and the types of ./orders.ts are derived from them. Only
 * code that checks loads this module; screens import the types alone.
 */
import { Type, type Static } from 'typebox';
import { bodyOf, ShippingFormSchema } from './form-schemas';
import { MAX_ORDER_LINES } from './field-sales';
import { literals } from './literals';
import { MAX_LINE_QUANTITY, MAX_NOTES_LENGTH } from './orders';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './states';

export const CartProductSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  sku: Type.String(),
  images: Type.Array(Type.String()),
  stock: Type.Integer(),
  stockQuantity: Type.Integer(),
  inStock: Type.Boolean(),
});

export const CartItemSchema = Type.Object({
  /** The product's id: a cart holds each product once, so it names the line too. */
  id: Type.Integer(),
  productId: Type.Integer(),
  quantity: Type.Integer(),
  price: Type.Number(),
  lineTotal: Type.Number(),
  product: CartProductSchema,
});

export const CartSchema = Type.Object({
  items: Type.Array(CartItemSchema),
  subtotal: Type.Number(),
  total: Type.Number(),
  itemCount: Type.Integer(),
  currency: Type.Literal('EUR'),
});

/** The address an order ships to: asked for at checkout, sent back with the order. */
export const ShippingAddressSchema = bodyOf(ShippingFormSchema);

export const OrderItemSchema = Type.Object({
  id: Type.Integer(),
  /** Null once the product was deleted: the line keeps its name, SKU and pictures. */
  productId: Type.Union([Type.Integer(), Type.Null()]),
  quantity: Type.Integer(),
  unitPrice: Type.Number(),
  totalPrice: Type.Number(),
  productName: Type.String(),
  productSku: Type.String(),
  product: Type.Object({
    id: Type.Union([Type.Integer(), Type.Null()]),
    name: Type.String(),
    sku: Type.String(),
    images: Type.Array(Type.String()),
  }),
});

export const OrderSchema = Type.Object({
  id: Type.Integer(),
  orderNumber: Type.String(),
  status: literals(ORDER_STATUSES),
  paymentStatus: literals(PAYMENT_STATUSES),
  paymentMethod: Type.Literal('BANK_TRANSFER'),
  subtotal: Type.Number(),
  total: Type.Number(),
  currency: Type.Literal('EUR'),
  notes: Type.String(),
  clientReference: Type.String(),
  shippingAddress: ShippingAddressSchema,
  orderItems: Type.Array(OrderItemSchema),
  itemCount: Type.Integer(),
  cancellationReason: Type.String(),
  /**
   * The carrier's number, given by staff when the order ships; '' before. Copies kept on a
   * device before it was sent lack it (see trackingNumberOf in ./order-lines).
   */
  trackingNumber: Type.String(),
  /**
   * The sales rep who placed the order for the company (docs/product.md#field-sales); null
   * when the salon did. Copies kept on a device before reps existed lack it.
   */
  placedBy: Type.Optional(
    Type.Union([
      Type.Object({ id: Type.Integer(), firstName: Type.String(), lastName: Type.String() }),
      Type.Null(),
    ]),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** A positive 32-bit database id. */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const Quantity = Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY });

/** The bodies of the cart and order changes: what the server accepts, and the outbox sends. */
export const CartAddBodySchema = Type.Object(
  { productId: Id, quantity: Quantity },
  { additionalProperties: false },
);
export const CartQuantityBodySchema = Type.Object(
  { quantity: Quantity },
  { additionalProperties: false },
);
export const CheckoutBodySchema = Type.Object(
  {
    shippingAddress: ShippingAddressSchema,
    notes: Type.Optional(Type.String({ maxLength: MAX_NOTES_LENGTH })),
    /** The device's own reference of the order. */
    clientReference: Type.Optional(Type.String({ maxLength: 100 })),
    /**
     * The lines the user confirmed, as its device showed them: exactly these are ordered.
     * Without them, the whole cart as the server holds it.
     */
    items: Type.Optional(
      Type.Array(
        Type.Object({ productId: Id, quantity: Quantity }, { additionalProperties: false }),
        { minItems: 1, maxItems: MAX_ORDER_LINES },
      ),
    ),
  },
  { additionalProperties: false },
);
export const CancelOrderBodySchema = Type.Object(
  { cancellationReason: Type.Optional(Type.String({ maxLength: MAX_NOTES_LENGTH })) },
  { additionalProperties: false },
);

export type CartProduct = Static<typeof CartProductSchema>;
export type CartItem = Static<typeof CartItemSchema>;
export type Cart = Static<typeof CartSchema>;
export type ShippingAddress = Static<typeof ShippingAddressSchema>;
export type OrderItem = Static<typeof OrderItemSchema>;
export type Order = Static<typeof OrderSchema>;
