// @vitest-environment happy-dom
/**
 * The maker's details kept on the device for pro-formas made offline: what the server
 * last answered, checked against its schema; the brand's alone until then.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BRAND_DETAILS } from '../../src/contracts/maker';
import { readMaker, refreshMaker } from '../../src/lib/sync/maker';
import { CONFIGURED_MAKER as DETAILS } from '../fixtures/maker-details';

const answer = (body: unknown) => () =>
  Promise.resolve(
    new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
  );

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe("the maker's details on the device", () => {
  it("are the brand's alone before the server has given any", () => {
    expect(readMaker()).toEqual(BRAND_DETAILS);
  });

  it('are kept as the server answers them, and stay when it cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(answer(DETAILS)));
    await refreshMaker();
    expect(readMaker()).toEqual(DETAILS);

    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await refreshMaker();
    expect(readMaker()).toEqual(DETAILS);
  });

  it('are not replaced by an answer that is not in their shape', async () => {
    vi.stubGlobal('fetch', vi.fn(answer(DETAILS)));
    await refreshMaker();
    vi.stubGlobal('fetch', vi.fn(answer({ ...DETAILS, paymentDays: 'thirty', iban: 42 })));
    await refreshMaker();

    expect(readMaker()).toEqual(DETAILS);
  });
});
