import { describe, expect, it } from 'vitest';
import { PAYMENT_TRANSITIONS, paymentMoves } from '../../src/contracts/admin-orders';
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderStatus,
  type PaymentStatus,
} from '../../src/contracts/orders';
import { paymentBadge } from '../../src/contracts/order-lines';

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

describe('the payment changes staff may record', () => {
  it('are the payment’s own path on an order that is not cancelled', () => {
    for (const payment of PAYMENT_STATUSES) {
      expect(paymentMoves('CONFIRMED', payment)).toEqual(PAYMENT_TRANSITIONS[payment]);
    }
  });

  it('are a transfer that arrives anyway and its refund on a cancelled order', () => {
    const moves = PAYMENT_STATUSES.map((payment) => [payment, paymentMoves('CANCELLED', payment)]);
    expect(Object.fromEntries(moves)).toEqual({
      PENDING: ['PAID'],
      FAILED: ['PAID'],
      PAID: ['REFUNDED'],
      REFUNDED: [],
    });
  });
});
