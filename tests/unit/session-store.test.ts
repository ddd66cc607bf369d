// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import type { User } from '../../src/contracts/accounts';

const { db } = await import('../../src/lib/db/db');
const { clearSession, getSession, saveSession, subscribeSession } =
  await import('../../src/lib/auth/session-store');
const { updateStoredUser } = await import('../../src/lib/auth/session-tokens');

it('has no session for the page at once, and none for the service worker when screens are told', async () => {
  const user = { id: 41, firstName: 'Mara' } as User;
  await saveSession({ accessToken: 'access', refreshToken: 'refresh', user }, true);
  expect(getSession()?.user.id).toBe(41);
  expect(await db.session.get('current')).toMatchObject({ userId: 41 });

  // What the service worker would read at the moment the page says "signed out".
  let seenBySw: Promise<unknown> | undefined;
  const stop = subscribeSession(() => {
    seenBySw = db.session.get('current');
  });
  const clearing = clearSession();
  // The page's own calls (its sync loop among them) have no session from the start.
  expect(getSession()).toBeNull();
  expect(localStorage.length).toBe(0);
  await clearing;
  stop();
  expect(seenBySw).toBeDefined();
  expect(await seenBySw).toBeUndefined();
});

/** An access token (a JWT) that expires at `exp`, in seconds. */
const jwt = (exp: number) => `header.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.signature`;

it('keeps the tokens the service worker renewed when the user’s details change', async () => {
  const user = { id: 42, firstName: 'Mara' } as User;
  await saveSession({ accessToken: jwt(1_000), refreshToken: 'spent', user }, true);
  // The service worker renewed the tokens to replay the name change with the page open.
  await db.session.put({
    key: 'current',
    userId: 42,
    accessToken: jwt(2_000),
    refreshToken: 'renewed',
  });

  await updateStoredUser({ ...user, firstName: 'Maria' });
  expect(getSession()).toEqual({
    accessToken: jwt(2_000),
    refreshToken: 'renewed',
    user: { ...user, firstName: 'Maria' },
  });
  expect(await db.session.get('current')).toMatchObject({ refreshToken: 'renewed' });

  // The page's own renewal is the newest: kept as it is.
  await saveSession({ accessToken: jwt(3_000), refreshToken: 'newest', user }, true);
  await updateStoredUser(user);
  expect(await db.session.get('current')).toMatchObject({ refreshToken: 'newest' });
  await clearSession();
});
