/**
 * The maker's details for pro-formas (GET /api/maker), kept on the device so that a
 * pro-forma made offline carries the bank account and numbers. Read with the signed-in
 * user's company; public, so they stay at sign-out.
 */
import { BRAND_DETAILS, type MakerDetails } from '../../contracts/maker';
import { MAKER_KEY } from '../../contracts/storage-names';
import { api } from '../api/client';
import { isNetworkError } from '../api/errors';

/** Reads the details from the server and keeps them; offline, the device keeps what it has. */
export async function refreshMaker(): Promise<void> {
  let details: unknown;
  try {
    details = await api.get('maker').json<unknown>();
  } catch (error) {
    if (!isNetworkError(error)) console.warn("Could not refresh the maker's details", error);
    return;
  }
  const [{ Value }, { MakerDetailsSchema }] = await Promise.all([
    import('typebox/value'),
    import('../../contracts/maker-schemas'),
  ]);
  // Only what the server's schema allows is kept: a pro-forma never prints a damaged value.
  if (Value.Check(MakerDetailsSchema, details)) {
    localStorage.setItem(MAKER_KEY, JSON.stringify(details));
  } else console.warn("The maker's details were not in the expected shape");
}

/**
 * The details as last kept on the device; the brand's alone when none are (a detail added
 * by a later version of the app is the brand's until the next refresh).
 */
export function readMaker(): MakerDetails {
  try {
    const stored = localStorage.getItem(MAKER_KEY);
    return stored === null
      ? BRAND_DETAILS
      : { ...BRAND_DETAILS, ...(JSON.parse(stored) as Partial<MakerDetails>) };
  } catch {
    return BRAND_DETAILS;
  }
}
