/** Sales reps for the browser tests of field sales: made by staff, signed in like a user. */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './portal';
import { apiToken, approvedSalon, registeredSalon, staffHeaders, unique } from './helpers';

export interface TestRep {
  id: number;
  email: string;
  password: string;
  /** The companies assigned to it, in the order named: the first approved, the others not. */
  customers: { id: number; name: string; email: string }[];
}

/** A sales rep made by staff, with its temporary password, and companies assigned to it. */
export async function repWithCustomers(
  request: APIRequestContext,
  customers: string[],
): Promise<TestRep> {
  const headers = await staffHeaders(request);
  const email = unique('rep');
  const created = await request.post('/api/admin/staff', {
    headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    data: { firstName: 'Victor', lastName: 'Rep', email, role: 'SALES_REP' },
  });
  expect(created.status()).toBe(201);
  const { member, temporaryPassword } = (await created.json()) as {
    member: { id: number };
    temporaryPassword: string;
  };
  const assigned: TestRep['customers'] = [];
  for (const [i, name] of customers.entries()) {
    const salon =
      i === 0
        ? await approvedSalon(request, `cust${i}`, { companyName: name })
        : await registeredSalon(request, `cust${i}`, { companyName: name });
    const me = await request.get('/api/auth/me', {
      headers: { authorization: `Bearer ${await apiToken(request, salon.email)}` },
    });
    const { user } = (await me.json()) as { user: { companyId: number } };
    const assignment = await request.put(`/api/admin/companies/${user.companyId}/sales-rep`, {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: { salesRepId: member.id },
    });
    expect(assignment.ok()).toBe(true);
    assigned.push({ id: user.companyId, name, email: salon.email });
  }
  return { id: member.id, email, password: temporaryPassword, customers: assigned };
}

export async function signInAsRep(page: Page, rep: { email: string; password: string }) {
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(rep.email);
  await page.getByLabel('Password', { exact: true }).fill(rep.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Victor' })).toBeVisible();
}

/** The customer signs the order on the pad with the mouse, in a few strokes' time. */
export async function signOnPad(page: Page) {
  const pad = page.getByRole('img', { name: 'Customer’s signature' });
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('The signature pad is not on the page');
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.6);
  await page.mouse.down();
  for (const [x, y] of [
    [0.35, 0.3],
    [0.5, 0.7],
    [0.65, 0.35],
    [0.8, 0.6],
  ] as const) {
    await page.mouse.move(box.x + box.width * x, box.y + box.height * y, { steps: 5 });
  }
  await page.mouse.up();
  await expect(page.getByText('Signed.')).toBeVisible();
}

/** The rest of a delivery address the rep completes with the customer, at checkout. */
export async function fillDeliveryAddress(checkout: Locator) {
  await checkout.getByLabel('Street and number').fill('Strada Teiului 7');
  await checkout.getByLabel('City').fill('Brașov');
  await checkout.getByLabel('Zip code').fill('500001');
  await checkout.getByLabel('Country').fill('Romania');
  await checkout.getByLabel('Phone').fill('+40 268 555 777');
}
