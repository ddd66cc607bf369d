import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/contracts/accounts';

// The signed-in user, as the session store would say it.
const session = vi.hoisted((): { user: { id: number; role: string } | null } => ({ user: null }));
vi.mock('../../src/lib/auth/session-store', () => ({
  getSession: () => (session.user ? { user: session.user } : null),
  signedInUserId: () => session.user?.id ?? null,
}));

const { ResponseError } = await import('../../src/lib/api/errors');
const { userRead } = await import('../../src/lib/sync/user-read');

/** A read whose answers the test gives, one per call, and the data it kept. */
function scriptedRead() {
  const answers: ((data: string) => void)[] = [];
  const failures: ((error: unknown) => void)[] = [];
  const kept: [number, string][] = [];
  const read = userRead({
    has: (user: User) => user.role === 'SALES_REP',
    fetch: () =>
      new Promise<string>((resolve, reject) => {
        answers.push(resolve);
        failures.push(reject);
      }),
    keep: (userId, data, askedAt) => {
      expect(askedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      kept.push([userId, data]);
      return Promise.resolve();
    },
    what: 'the customers',
  });
  return { read, answers, failures, kept };
}

beforeEach(() => {
  session.user = { id: 7, role: 'SALES_REP' };
});

describe('a read of the signed-in user’s data', () => {
  it('is shared by whoever asks while it is under way, and kept once', async () => {
    const { read, answers, kept } = scriptedRead();
    const first = read.read();
    const second = read.read();
    expect(answers).toHaveLength(1);
    answers[0]?.('A, B');
    await Promise.all([first, second]);
    expect(kept).toEqual([[7, 'A, B']]);
    // Once done, the next ask reads again.
    void read.read();
    expect(answers).toHaveLength(2);
  });

  it('is not kept when another user signed in while the answer travelled', async () => {
    const { read, answers, kept } = scriptedRead();
    const reading = read.read();
    session.user = { id: 8, role: 'SALES_REP' };
    answers[0]?.('the first rep’s customers');
    await reading;
    expect(kept).toEqual([]);
  });

  it('asks nothing for a user who has no such data', async () => {
    session.user = { id: 9, role: 'USER' };
    const { read, answers } = scriptedRead();
    await read.read();
    expect(answers).toHaveLength(0);
  });

  it('as a refresh, keeps quiet offline and warns of a refusal', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { read, failures } = scriptedRead();
    const offline = read.refresh();
    failures[0]?.(new TypeError('Failed to fetch'));
    await offline;
    expect(warn).not.toHaveBeenCalled();
    const refused = read.refresh();
    failures[1]?.(new ResponseError(new Response('{}', { status: 403 })));
    await refused;
    expect(warn).toHaveBeenCalledWith('Could not refresh the customers', expect.any(Error));
    warn.mockRestore();
  });
});
