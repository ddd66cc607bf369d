import { describe, expect, it } from 'vitest';
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderStatus,
  type PaymentStatus,
} from '../../src/contracts/orders';
import { paymentBadge } from '../../src/contracts/payment-due';

const order = (status: OrderStatus, paymentStatus: PaymentStatus) => ({ status, paymentStatus });

describe('the payment badge of an order', () => {
  it.each(['PENDING', 'FAILED'] as const)(
    'says no payment is due on a cancelled order whose payment is %s',
    (payment) => {
      expect(paymentBadge(order('CANCELLED', payment))).toBe('NONE_DUE');
    },
  );

  it.each(['PAID', 'REFUNDED'] as const)(
    'keeps %s on a cancelled order: money did move',
    (payment) => {
      expect(paymentBadge(order('CANCELLED', payment))).toBe(payment);
    },
  );

  it('says the payment status of every order that is not cancelled', () => {
    for (const status of ORDER_STATUSES.filter((s) => s !== 'CANCELLED')) {
      for (const payment of PAYMENT_STATUSES) {
        expect(paymentBadge(order(status, payment))).toBe(payment);
      }
    }
  });
});
