/**
 * The account's e-mailed links in the browser: a salon's user who forgot its password asks
 * for a link, follows it from the e-mail the server sent (through the worker's own SMTP
 * server, portal.ts), chooses a new password and signs in with it; and a new salon
 * confirms its address from the registration's e-mail.
 */
import type { ParsedMail } from 'mailparser';
import { expect, test, type Portal } from './portal';
import { registeredSalon, signInAs } from './helpers';

/** Waits for the server's message to `email` that carries a link to `page`, and gives the link. */
async function linkSent(portal: Portal, email: string, page: 'reset-password' | 'verify-email') {
  const linkIn = (mail: ParsedMail) =>
    new RegExp(`${portal.url}/account/${page}\\?token=[A-Za-z0-9_-]+`).exec(mail.text ?? '')?.[0];
  const sentTo = (mail: ParsedMail) =>
    (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) =>
      to?.value.some((address) => address.address === email),
    );
  let link: string | undefined;
  // The mail worker looks at the queue every few seconds.
  await expect
    .poll(
      () => {
        link = portal.mailbox.received.filter(sentTo).map(linkIn).filter(Boolean).at(-1);
        return link;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  return link ?? '';
}

test('a salon user who forgot its password chooses a new one from the e-mailed link, and only the new one signs in', async ({
  page,
  request,
  portal,
}) => {
  const { email, password } = await registeredSalon(request, 'forgot');

  // The sign-in page's link, with the e-mail typed there.
  await page.goto('/login?lng=en');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/account\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(
    page.getByRole('status').filter({
      hasText: `If an account uses ${email}, we have sent it a link to choose a new password.`,
    }),
  ).toBeVisible();

  // The e-mail's link opens the page that sets the new password, with the registration's rules.
  const link = await linkSent(portal, email, 'reset-password');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm new password').fill('short');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('Renewed-Pass-2026');
  await page.getByLabel('Confirm new password').fill('Renewed-Pass-2026');
  await page.getByRole('button', { name: 'Save the new password' }).click();

  // Then the user signs in again: the old password is refused, the new one lets it in.
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('status').filter({
      hasText: 'Your password has been changed. Please sign in with it.',
    }),
  ).toBeVisible();
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Invalid email or password. Please check your credentials.',
  );
  await signInAs(page, email, 'Renewed-Pass-2026');

  // The link worked once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Another-Pass-2026');
  await page.getByLabel('Confirm new password').fill('Another-Pass-2026');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link has already been used.');
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
});

test('a new salon confirms its address from the registration e-mail, and the profile stops asking', async ({
  page,
  request,
  portal,
}) => {
  const { email } = await registeredSalon(request, 'confirm');
  await signInAs(page, email);
  await page.goto('/profile');
  await expect(page.getByText('Your e-mail address is not confirmed yet.')).toBeVisible();

  await page.goto(await linkSent(portal, email, 'verify-email'));
  await expect(
    page.getByRole('status').filter({ hasText: 'Thank you: your e-mail address is confirmed.' }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Go to your profile' }).click();
  await expect(page.getByRole('heading', { name: 'Personal information' })).toBeVisible();
  await expect(page.getByText('Your e-mail address is not confirmed yet.')).toBeHidden();
});
