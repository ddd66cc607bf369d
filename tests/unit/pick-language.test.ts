import Negotiator from 'negotiator';
import { describe, expect, it } from 'vitest';
import { pickLanguage } from '../../src/contracts/languages';

/** The browser's languages as the server reads them from Accept-Language. */
const accepted = (header: string) =>
  new Negotiator({ headers: { 'accept-language': header } }).languages();

describe('the language shown', () => {
  it('is the first candidate the portal has, by its primary tag', () => {
    expect(pickLanguage(['de', 'en-GB', 'it'])).toBe('en');
    expect(pickLanguage([null, undefined, 'IT'])).toBe('it');
  });

  it('is Romanian when no candidate is a language of the portal', () => {
    expect(pickLanguage(['de', 'fr-FR'])).toBe('ro');
    expect(pickLanguage([])).toBe('ro');
  });

  it("follows Accept-Language's q-values, not the order it lists languages in", () => {
    expect(pickLanguage(accepted('it;q=0.4, de, en-GB;q=0.9'))).toBe('en');
    expect(pickLanguage(accepted('en;q=0, it;q=0.1'))).toBe('it');
  });

  it('puts a chosen language before the browser languages', () => {
    expect(pickLanguage(['it', ...accepted('en')])).toBe('it');
  });
});
