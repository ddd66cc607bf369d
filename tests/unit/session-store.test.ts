import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import type { User } from '../../src/contracts/accounts';

const { db } = await import('../../src/lib/db/db');
const { clearSession, saveSession, subscribeSession } =
  await import('../../src/lib/auth/session-store');

it('has forgotten the service worker’s copy of the session when screens are told of a sign-out', async () => {
  const user = { id: 41, firstName: 'Mara' } as User;
  await saveSession({ accessToken: 'access', refreshToken: 'refresh', user });
  expect(await db.session.get('current')).toMatchObject({ userId: 41 });

  // What the service worker would read at the moment the page says "signed out".
  let seenBySw: Promise<unknown> | undefined;
  const stop = subscribeSession(() => {
    seenBySw = db.session.get('current');
  });
  await clearSession();
  stop();
  expect(seenBySw).toBeDefined();
  expect(await seenBySw).toBeUndefined();
});
