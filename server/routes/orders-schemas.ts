/** JSON schemas of carts and orders (docs/api.md#cart, docs/api.md#orders). */
import { Type } from '@fastify/type-provider-typebox';
import { MAX_LINE_QUANTITY, ORDER_STATUSES, PAYMENT_STATUSES } from '../../src/contracts/orders.js';
import { literals } from './accounts-schemas.js';

export const CartSchema = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      productId: Type.Integer(),
      quantity: Type.Integer(),
      price: Type.Number(),
      lineTotal: Type.Number(),
      product: Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        sku: Type.String(),
        images: Type.Array(Type.String()),
        stock: Type.Integer(),
        stockQuantity: Type.Integer(),
        inStock: Type.Boolean(),
      }),
    }),
  ),
  subtotal: Type.Number(),
  total: Type.Number(),
  itemCount: Type.Integer(),
  currency: Type.Literal('EUR'),
});

export const ShippingAddressSchema = Type.Object(
  {
    firstName: Type.String({ maxLength: 200 }),
    lastName: Type.String({ maxLength: 200 }),
    street: Type.String({ maxLength: 200 }),
    city: Type.String({ maxLength: 200 }),
    zipCode: Type.String({ maxLength: 200 }),
    country: Type.String({ maxLength: 200 }),
    phone: Type.String({ maxLength: 200 }),
  },
  { additionalProperties: false },
);

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
  shippingAddress: Type.Object({
    firstName: Type.String(),
    lastName: Type.String(),
    street: Type.String(),
    city: Type.String(),
    zipCode: Type.String(),
    country: Type.String(),
    phone: Type.String(),
  }),
  orderItems: Type.Array(
    Type.Object({
      id: Type.Integer(),
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
    }),
  ),
  itemCount: Type.Integer(),
  cancellationReason: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const Quantity = Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY });
