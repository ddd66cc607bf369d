import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Company } from '../../src/contracts/accounts';

// The signed-in user's company on the device, with the session and the network faked.
const session = vi.hoisted(() => ({
  current: null as null | {
    accessToken: string;
    refreshToken: string;
    user: { id: number; company: { id: number } | null };
  },
}));
vi.mock('../../src/lib/auth/session-store', () => ({
  getSession: () => session.current,
  signedInUserId: () => session.current?.user.id ?? null,
  subscribeSession: () => () => undefined,
  updateStoredUser: () => undefined,
  saveSession: () => Promise.resolve(),
  clearSession: () => {
    session.current = null;
    return Promise.resolve();
  },
}));

const { db } = await import('../../src/lib/db/db');
const { requestSync, syncLoop } = await import('../../src/lib/sync/device');
const { refreshCompany } = await import('../../src/lib/sync/company');
const { signOut } = await import('../../src/lib/auth/session-actions');
const { addToCart } = await import('../../src/lib/sync/outbox');

const signIn = (userId: number) => {
  session.current = {
    accessToken: `token-${userId}`,
    refreshToken: `refresh-${userId}`,
    user: { id: userId, company: { id: userId * 10 } },
  };
};

const companyOf = (userId: number, address = `Strada Teiului ${userId}`): Company => ({
  id: userId * 10,
  name: `Salon ${userId}`,
  isVerified: true,
  status: 'APPROVED',
  taxNumber: 'RO1234567',
  vatNumber: '',
  registrationNumber: '',
  email: `salon${userId}@example.com`,
  phone: '+40 268 555 777',
  address,
  city: 'Brașov',
  state: '',
  postalCode: '500001',
  country: 'Romania',
  website: '',
  industry: '',
  businessType: '',
  employeeCount: '',
  annualRevenue: '',
  statusReason: '',
  documentsUploaded: 0,
  documentsVerified: 0,
  documentsRejected: 0,
  createdAt: '2026-01-05T10:00:00.000Z',
  verifiedAt: '2026-01-06T10:00:00.000Z',
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const EMPTY_CART = { items: [], subtotal: 0, total: 0, itemCount: 0, currency: 'EUR' };

/** The server as each test scripts it: the company's answer, a cart change's, the rest empty. */
let companyAnswer: () => Promise<Response>;
let cartChangeAnswer: () => Promise<Response>;
const server = async (input: string | Request) => {
  const url = typeof input === 'string' ? input : new URL(input.url).pathname;
  if (url === '/api/companies/me') return companyAnswer();
  if (url.startsWith('/api/cart/')) return cartChangeAnswer();
  if (url === '/api/orders') return json({ orders: [] });
  if (url === '/api/health') return json({ status: 'ok' });
  return json(EMPTY_CART);
};

/** Web Locks as the browser grants them: one holder of a name at a time, in turn. */
function locksInTurn() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, work: () => Promise<T>): Promise<T> {
      const granted = (tails.get(name) ?? Promise.resolve()).then(work);
      tails.set(
        name,
        granted.catch(() => undefined),
      );
      return granted;
    },
  };
}

beforeEach(() => {
  signIn(1);
  companyAnswer = () => Promise.resolve(json({ company: companyOf(1) }));
  cartChangeAnswer = () => Promise.resolve(json(EMPTY_CART));
  vi.stubGlobal('navigator', { onLine: true, locks: locksInTurn() });
  vi.stubGlobal('fetch', server);
  // The app's client asks for '/api/…', which Node resolves only against an origin.
  vi.stubGlobal(
    'Request',
    class extends Request {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://portal.test') : input, init);
      }
    },
  );
});
afterEach(async () => {
  await db.companies.clear();
  vi.unstubAllGlobals();
});

const settled = () =>
  vi.waitFor(() => expect(syncLoop.getState().running).toBe(false), { timeout: 10_000 });

describe('the signed-in user’s company on the device', () => {
  it('is kept, bound to its user, when the cart and orders are refreshed', async () => {
    requestSync({ refresh: true });
    await settled();
    await vi.waitFor(
      async () =>
        expect(await db.companies.get(1)).toMatchObject({
          userId: 1,
          company: { address: 'Strada Teiului 1', city: 'Brașov', postalCode: '500001' },
        }),
      { timeout: 10_000 },
    );

    // The company moved: the next refresh keeps the new address.
    companyAnswer = () => Promise.resolve(json({ company: companyOf(1, 'Bulevardul Eroilor 3') }));
    requestSync({ refresh: true });
    await settled();
    await vi.waitFor(
      async () => expect((await db.companies.get(1))?.company.address).toBe('Bulevardul Eroilor 3'),
      { timeout: 10_000 },
    );
  });

  it('stays as it was when the server cannot be reached', async () => {
    await refreshCompany();
    companyAnswer = () => Promise.reject(new TypeError('Failed to fetch'));
    await refreshCompany();
    expect((await db.companies.get(1))?.company.address).toBe('Strada Teiului 1');
  });

  it('leaves the device at sign-out, while another user’s stays', async () => {
    await db.companies.put({ userId: 2, company: companyOf(2), syncedAt: '' });
    await refreshCompany();
    expect(await db.companies.get(1)).toBeDefined();

    await signOut();
    expect(await db.companies.get(1)).toBeUndefined();
    expect(await db.companies.get(2)).toBeDefined();
  });

  it('is not kept when its answer arrives after the user signed out', async () => {
    let answer: ((response: Response) => void) | undefined;
    companyAnswer = () => new Promise((resolve) => (answer = resolve));
    const reading = refreshCompany();
    await vi.waitFor(() => expect(answer).toBeDefined(), { timeout: 10_000 });
    await signOut();
    answer?.(json({ company: companyOf(1) }));
    await reading;
    expect(await db.companies.count()).toBe(0);
  });
});

describe('signing out while a change is on its way', () => {
  it('forgets the priced cart its response brings, once the replay has ended', async () => {
    let answer: ((response: Response) => void) | undefined;
    cartChangeAnswer = () => new Promise((resolve) => (answer = resolve));
    await addToCart(5, 1);
    await vi.waitFor(() => expect(answer).toBeDefined(), { timeout: 10_000 });
    await signOut();
    answer?.(json({ ...EMPTY_CART, subtotal: 24.9, total: 24.9, itemCount: 1 }));
    await settled();
    // The change reached the server; nothing of the user's prices stays on the device.
    expect(await db.outbox.count()).toBe(0);
    await vi.waitFor(async () => expect(await db.carts.get(1)).toBeUndefined(), {
      timeout: 10_000,
    });
  });
});
