/**
 * A read of the signed-in user's data from the server, kept on the device (the rep's
 * customers, a salon's order lists): one at a time per user, whoever asks meanwhile
 * sharing it; an answer that arrives after another user signed in is not kept.
 */
import { isNetworkError } from '../api/errors';
import { getSession, signedInUserId } from '../auth/session-store';
import type { User } from '../../contracts/accounts';

export interface UserRead {
  /** Reads and keeps; fails as the call failed, resolves at once for a user who has none. */
  read: () => Promise<void>;
  /** The same, best effort: offline, or refused, the device keeps what it has. */
  refresh: () => Promise<void>;
}

export function userRead<T>(options: {
  /** Whether the user has such data on the server (others are not asked). */
  has: (user: User) => boolean;
  fetch: () => Promise<T>;
  keep: (userId: number, data: T, askedAt: string) => Promise<void>;
  /** What it reads, for the warning of a refresh that was refused. */
  what: string;
}): UserRead {
  let reading: { userId: number; done: Promise<void> } | null = null;

  async function readAndKeep(userId: number): Promise<void> {
    const askedAt = new Date().toISOString();
    const data = await options.fetch();
    // Signed out (or someone else signed in) while the answer travelled: it is not theirs.
    if (signedInUserId() !== userId) return;
    await options.keep(userId, data, askedAt);
  }

  function read(): Promise<void> {
    const user = getSession()?.user;
    if (!user || !options.has(user)) return Promise.resolve();
    const userId = user.id;
    if (reading?.userId !== userId) {
      const done = readAndKeep(userId).finally(() => {
        if (reading?.done === done) reading = null;
      });
      reading = { userId, done };
    }
    return reading.done;
  }

  return {
    read,
    refresh: () =>
      read().catch((error: unknown) => {
        if (!isNetworkError(error)) console.warn(`Could not refresh ${options.what}`, error);
      }),
  };
}
