// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import type { User } from '../../src/contracts/accounts';

const { db } = await import('../../src/lib/db/db');
const { clearSession, getSession, saveSession, subscribeSession } =
  await import('../../src/lib/auth/session-store');

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
