/**
 * The signed-in session: access token, refresh token and user, kept in local storage
 * (session storage when "remember me" is off) and mirrored in IndexedDB for the service
 * worker. Screens read it through useSession; nothing else touches the storage.
 */
import type { User } from '../../contracts/accounts';
import { SESSION_KEYS } from '../../contracts/storage-names';
import { createListeners } from '../listeners';

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: User;
}

const changes = createListeners();
let cached: Session | null | undefined;

function storages(): Storage[] {
  try {
    return [window.localStorage, window.sessionStorage];
  } catch {
    return [];
  }
}

function read(): Session | null {
  for (const storage of storages()) {
    const accessToken = storage.getItem(SESSION_KEYS.accessToken);
    const refreshToken = storage.getItem(SESSION_KEYS.refreshToken);
    const user = storage.getItem(SESSION_KEYS.user);
    if (accessToken && refreshToken && user) {
      try {
        return { accessToken, refreshToken, user: JSON.parse(user) as User };
      } catch {
        return null;
      }
    }
  }
  return null;
}

function notify(): void {
  cached = read();
  changes.emit();
}

export function getSession(): Session | null {
  if (cached === undefined) cached = read();
  return cached;
}

/** The signed-in user's id, or null. */
export const signedInUserId = (): number | null => getSession()?.user.id ?? null;

/** Whether the stored session lives in local storage (remembered across browser restarts). */
function remembered(): boolean {
  return storages()[0]?.getItem(SESSION_KEYS.refreshToken) !== null;
}

export async function saveSession(session: Session, remember = remembered()): Promise<void> {
  const [local, tab] = storages();
  for (const storage of storages()) {
    for (const key of Object.values(SESSION_KEYS)) storage.removeItem(key);
  }
  const target = remember ? local : tab;
  target?.setItem(SESSION_KEYS.accessToken, session.accessToken);
  target?.setItem(SESSION_KEYS.refreshToken, session.refreshToken);
  target?.setItem(SESSION_KEYS.user, JSON.stringify(session.user));
  notify();
  const { db } = await import('../db/db');
  await db.session.put({
    key: 'current',
    userId: session.user.id,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
  });
}

/**
 * Forgets the session. The page's own calls (its sync loop among them) have none at once;
 * screens show the user signed out once the service worker's copy is gone too (waited for
 * at most a few seconds), so that a connection returning right after a sign-out offline
 * cannot send the user's waiting changes with it.
 */
export async function clearSession(): Promise<void> {
  for (const storage of storages()) {
    for (const key of Object.values(SESSION_KEYS)) storage.removeItem(key);
  }
  cached = null;
  try {
    const { db } = await import('../db/db');
    let giveUp: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      db.session.delete('current'),
      new Promise((resolve) => (giveUp = setTimeout(resolve, 3000))),
    ]).finally(() => clearTimeout(giveUp));
  } finally {
    notify();
  }
}

export const subscribeSession = changes.add;

// Another tab signed in or out.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || (Object.values(SESSION_KEYS) as string[]).includes(event.key))
      notify();
  });
}
