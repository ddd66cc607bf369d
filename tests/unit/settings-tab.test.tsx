// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NotificationSettings, User } from '../../src/contracts/accounts';
import { ResponseError } from '../../src/lib/api/errors';

// The server's side of the notification settings: each call waits until the test answers it.
const server = vi.hoisted(() => ({
  sent: [] as NotificationSettings[],
  answers: [] as ((refuse?: boolean) => void)[],
}));
vi.mock('../../src/lib/api/accounts', () => ({
  changePassword: vi.fn(),
  deleteAccount: vi.fn(),
  updateNotifications: (settings: NotificationSettings) => {
    server.sent.push(settings);
    return new Promise((resolve, reject) => {
      server.answers.push((refuse) =>
        refuse
          ? reject(new ResponseError(Response.json({ message: 'Not saved.' }, { status: 422 })))
          : resolve({ user: { ...user('USER'), notifications: settings } }),
      );
    });
  },
}));
vi.mock('../../src/lib/auth/session-actions', () => ({
  signOut: vi.fn(),
  updateStoredUser: vi.fn(),
}));

const { SettingsTab } = await import('../../src/features/profile/settings-tab');
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(cleanup);

function user(role: User['role']): User {
  return {
    id: 7,
    email: 'ana@example.com',
    emailVerified: true,
    firstName: 'Ana',
    lastName: 'Pop',
    role,
    companyId: role === 'USER' ? 3 : null,
    createdAt: '2026-01-05T10:00:00.000Z',
    company: null,
    notifications: {
      orderNotifications: true,
      newProductNotifications: false,
      marketingNewsletter: false,
    },
  };
}

const settingsOf = (role: User['role']) =>
  render(
    <MemoryRouter>
      <SettingsTab user={user(role)} />
    </MemoryRouter>,
  );

describe('the settings of the profile', () => {
  it("offer a salon's user to delete their account", () => {
    settingsOf('USER');
    expect(screen.getByRole('button', { name: 'Delete account' })).toBeTruthy();
  });

  it.each(['ADMIN', 'SALES_REP'] as const)(
    'do not offer it to %s, whose account the back office closes',
    (role) => {
      settingsOf(role);
      expect(screen.getByRole('button', { name: 'Change password' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Delete account' })).toBeNull();
    },
  );

  it('save two boxes clicked one after the other, before the first is saved', async () => {
    settingsOf('USER');
    const orders = screen.getByRole('checkbox', { name: 'Order notifications' });
    const newsletter = screen.getByRole('checkbox', { name: 'Marketing newsletter' });
    fireEvent.click(orders);
    fireEvent.click(newsletter);
    await act(() => Promise.resolve());
    // Both show as clicked at once, and the second request waits for the first.
    expect(server.sent).toHaveLength(1);
    expect([
      (orders as HTMLInputElement).checked,
      (newsletter as HTMLInputElement).checked,
    ]).toEqual([false, true]);
    await act(() => Promise.resolve(server.answers.shift()?.()));
    await act(() => Promise.resolve(server.answers.shift()?.()));
    expect(server.sent.at(-1)).toEqual({
      orderNotifications: false,
      newProductNotifications: false,
      marketingNewsletter: true,
    });
    expect(screen.getByRole('status').textContent).toBe('Notification settings saved.');
  });

  it('put the boxes back as saved when a save fails, and send nothing queued behind it', async () => {
    server.sent.length = 0;
    settingsOf('USER');
    const orders = screen.getByRole('checkbox', { name: 'Order notifications' });
    const products = screen.getByRole('checkbox', { name: 'New product notifications' });
    fireEvent.click(orders);
    fireEvent.click(products);
    await act(() => Promise.resolve());
    await act(() => Promise.resolve(server.answers.shift()?.(true)));
    expect([(orders as HTMLInputElement).checked, (products as HTMLInputElement).checked]).toEqual([
      true,
      false,
    ]);
    expect(server.sent).toHaveLength(1);
    expect(server.answers).toHaveLength(0);
    expect(screen.getByRole('alert').textContent).toBe('Not saved.');
  });
});
