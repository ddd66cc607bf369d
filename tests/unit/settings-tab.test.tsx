// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/contracts/accounts';
import { SettingsTab } from '../../src/features/profile/settings-tab';
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(cleanup);

const user = (role: User['role']): User => ({
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
});

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
});
