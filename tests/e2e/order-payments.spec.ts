/**
 * What an order's payment says in a real browser (docs/product.md#orders): nothing is due
 * on a cancelled order that was never paid: the salon and staff read so, staff's list of
 * payments awaited leaves it out, and staff record only a transfer that arrives anyway
 * (then its refund). Shipping an order not paid yet is allowed, with a reminder of the terms;
 * the steps nothing undoes (delivered, paid, refunded) are asked about first.
 */
import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expect, test } from './portal';
import { apiToken, approvedSalon, movedByStaff, placedOrder, signInAs } from './helpers';
import { STAFF } from './staff';

/** Staff signed in, in a browser context of their own, in English. */
async function staffPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, STAFF.email, STAFF.password, 'Staff');
  return page;
}

/** A salon's order, which the salon cancels through the API before anything is paid. */
async function cancelledOrder(request: APIRequestContext, prefix: string) {
  const salon = await approvedSalon(request, prefix);
  const order = await placedOrder(request, salon.email);
  const cancelled = await request.delete(`/api/orders/${order.id}`, {
    headers: {
      authorization: `Bearer ${await apiToken(request, salon.email)}`,
      'idempotency-key': crypto.randomUUID(),
    },
    data: { cancellationReason: 'Ordered twice' },
  });
  expect(cancelled.ok()).toBe(true);
  return { salon, order };
}

test('a cancelled order that was never paid says no payment is due, to the salon and to staff', async ({
  page,
  browser,
  request,
}) => {
  const { salon, order } = await cancelledOrder(request, 'nodue');

  await signInAs(page, salon.email);
  await page.goto('/orders?lng=en');
  const card = page.getByTestId('order-card').filter({ hasText: order.orderNumber });
  await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(card.getByText('No payment due', { exact: true })).toBeVisible();
  await expect(card.getByText('Payment pending')).toHaveCount(0);

  const staff = await staffPage(browser);
  await staff.goto(`/admin/orders?lng=en&search=${encodeURIComponent(order.orderNumber)}`);
  const row = staff.getByRole('row').filter({ hasText: order.orderNumber });
  await expect(row.getByRole('cell', { name: 'No payment due', exact: true })).toBeVisible();
  // Staff looking for the payments to chase do not find it.
  await staff.getByLabel('Payment', { exact: true }).selectOption({ label: 'Payment pending' });
  await expect(staff).toHaveURL(/paymentStatus=PENDING/);
  await expect(staff.getByText('No orders match these filters.')).toBeVisible();
  await staff.getByLabel('Payment', { exact: true }).selectOption({ label: 'All payments' });

  await row.getByRole('link', { name: order.orderNumber }).click();
  await expect(staff.getByRole('heading', { name: `Order ${order.orderNumber}` })).toBeVisible();
  await expect(staff.getByText('No payment due', { exact: true }).first()).toBeVisible();
  await expect(staff.getByText('Payment pending')).toHaveCount(0);
  // No payment is awaited, none can fail; a transfer that arrives anyway can be recorded.
  const next = staff.getByRole('region', { name: 'Next step' });
  await expect(next.getByText('The order is cancelled and nothing is due on it.')).toBeVisible();
  await expect(next.getByRole('button', { name: 'Mark payment as failed' })).toHaveCount(0);
  await expect(next.getByRole('button', { name: 'Wait for payment again' })).toHaveCount(0);
  await next.getByRole('button', { name: 'Mark as paid' }).click();
  await staff
    .getByRole('dialog', { name: `Mark order ${order.orderNumber} as paid?` })
    .getByRole('button', { name: 'Mark as paid' })
    .click();
  await expect(next.getByRole('button', { name: 'Mark as refunded' })).toBeVisible();
  await expect(next.getByText('The order is cancelled and nothing is due on it.')).toHaveCount(0);
  await staff.context().close();
});

test('shipping an order not paid yet reminds staff that the terms promise dispatch after payment', async ({
  browser,
  request,
}) => {
  const salon = await approvedSalon(request, 'unpaidship');
  const order = await placedOrder(request, salon.email);
  await movedByStaff(request, order.id, [{ status: 'CONFIRMED' }, { status: 'PROCESSING' }]);

  const staff = await staffPage(browser);
  await staff.goto(`/admin/orders/${order.id}?lng=en`);
  const next = staff.getByRole('region', { name: 'Next step' });
  const dialog = staff.getByRole('dialog', { name: `Ship order ${order.orderNumber}` });
  const reminder = dialog.getByText(
    'This order is not paid yet: the terms promise dispatch after payment.',
  );
  await next.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(reminder).toBeVisible();
  await expect(dialog.getByLabel('Tracking number')).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Once paid, nothing to remind.
  await next.getByRole('button', { name: 'Mark as paid' }).click();
  await staff
    .getByRole('dialog', { name: `Mark order ${order.orderNumber} as paid?` })
    .getByRole('button', { name: 'Mark as paid' })
    .click();
  await expect(next.getByText('Paid', { exact: true })).toBeVisible();
  await next.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(dialog.getByLabel('Tracking number')).toBeVisible();
  await expect(reminder).toHaveCount(0);
  await staff.context().close();
});

test('delivering, recording a payment and refunding it are asked about first, as nothing undoes them', async ({
  browser,
  request,
}) => {
  const salon = await approvedSalon(request, 'finalsteps');
  const order = await placedOrder(request, salon.email);
  await movedByStaff(request, order.id, [
    { status: 'CONFIRMED' },
    { status: 'PROCESSING' },
    { status: 'SHIPPED', trackingNumber: 'RO-AWB 4455' },
  ]);

  const staff = await staffPage(browser);
  await staff.goto(`/admin/orders/${order.id}?lng=en`);
  const next = staff.getByRole('region', { name: 'Next step' });
  const changes: string[] = [];
  staff.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().includes('/api/admin/orders/'))
      changes.push(sent.url());
  });

  // "Cancel" sends nothing.
  await next.getByRole('button', { name: 'Mark as delivered' }).click();
  const delivered = staff.getByRole('dialog', {
    name: `Mark order ${order.orderNumber} as delivered?`,
  });
  await expect(delivered).toContainText('its status does not change any more');
  await delivered.getByRole('button', { name: 'Cancel' }).click();
  await expect(delivered).toBeHidden();
  expect(changes).toEqual([]);
  await next.getByRole('button', { name: 'Mark as delivered' }).click();
  await delivered.getByRole('button', { name: 'Mark as delivered' }).click();
  await expect(
    next.getByText('This order is Delivered: its status does not change any more.'),
  ).toBeVisible();

  await next.getByRole('button', { name: 'Mark as paid' }).click();
  const paid = staff.getByRole('dialog', { name: `Mark order ${order.orderNumber} as paid?` });
  await expect(paid).toContainText('the payment can only be marked as refunded');
  await paid.getByRole('button', { name: 'Mark as paid' }).click();
  await next.getByRole('button', { name: 'Mark as refunded' }).click();
  await staff
    .getByRole('dialog', { name: `Mark order ${order.orderNumber} as refunded?` })
    .getByRole('button', { name: 'Mark as refunded' })
    .click();
  await expect(
    next.getByText('The payment is Refunded: it does not change any more.'),
  ).toBeVisible();
  expect(changes).toHaveLength(3);
  await staff.context().close();
});
