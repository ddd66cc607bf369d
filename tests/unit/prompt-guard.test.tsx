// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// The invitation held at the bottom of the window appears under a finger already on its
// way to the page: that tap must not answer it. Its storage and the connection are faked.
const closeOfflineInvite = vi.hoisted(() => vi.fn());
vi.mock('../../src/lib/sync/offline-invite', () => ({ closeOfflineInvite }));
const network = vi.hoisted(() => ({ state: 'online' }));
vi.mock('../../src/lib/sync/connectivity', () => ({ useConnectivity: () => network.state }));

const { OfflineInvitePrompt } = await import('../../src/app/offline-invite-prompt');
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(() => {
  cleanup();
  network.state = 'online';
  closeOfflineInvite.mockClear();
});

function showInvitation() {
  return render(
    <MemoryRouter initialEntries={['/products']}>
      <Routes>
        <Route path="/products" element={<OfflineInvitePrompt />} />
        <Route path="/sync" element={<h1>Sync centre</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}
const invitationShown = () => {
  showInvitation();
  return screen.getByRole('status');
};

describe('a prompt that has just appeared', () => {
  it('ignores a tap that began before it was there', () => {
    const invitation = invitationShown();
    // The tap's pointerdown happened before the prompt appeared; only its click lands here.
    fireEvent.click(screen.getByRole('button', { name: en.offline.notNow }), { detail: 1 });
    fireEvent.click(screen.getByRole('link', { name: en.offline.start }), { detail: 1 });
    expect(closeOfflineInvite).not.toHaveBeenCalled();
    expect(invitation.isConnected).toBe(true);
    expect(screen.queryByRole('heading', { name: 'Sync centre' })).toBeNull();
  });

  it('answers a tap that began on it', () => {
    showInvitation();
    const notNow = screen.getByRole('button', { name: en.offline.notNow });
    fireEvent.pointerDown(notNow);
    fireEvent.click(notNow, { detail: 1 });
    expect(closeOfflineInvite).toHaveBeenCalledOnce();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('answers the keyboard at once', () => {
    showInvitation();
    fireEvent.click(screen.getByRole('link', { name: en.offline.start }), { detail: 0 });
    expect(screen.getByRole('heading', { name: 'Sync centre' })).toBeTruthy();
  });

  it('counts from when it appears again, back online, not from when it was first made', () => {
    network.state = 'offline';
    const { rerender } = showInvitation();
    expect(screen.queryByRole('status')).toBeNull();
    // Taps on the page while offline; the connection returns under the next one.
    fireEvent.pointerDown(document.body);
    network.state = 'online';
    rerender(
      <MemoryRouter initialEntries={['/products']}>
        <Routes>
          <Route path="/products" element={<OfflineInvitePrompt />} />
        </Routes>
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: en.offline.notNow }), { detail: 1 });
    expect(closeOfflineInvite).not.toHaveBeenCalled();
    expect(screen.getByRole('status')).toBeTruthy();
  });
});
