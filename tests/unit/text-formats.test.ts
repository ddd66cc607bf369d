import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { addTextFormats, formatShortDateTime, LOCALES } from '../../src/lib/i18n/formats';
import en from '../../src/locales/en.json';
import itTexts from '../../src/locales/it.json';
import ro from '../../src/locales/ro.json';

const TEXTS = { ro, en, it: itTexts };

async function textsIn(lng: keyof typeof TEXTS) {
  const i18n = createInstance();
  await i18n.init({
    lng,
    resources: { [lng]: { translation: TEXTS[lng] } },
    interpolation: { escapeValue: false },
  });
  addTextFormats(i18n);
  return i18n;
}

describe('the catalogue’s product count ({{count, integer}})', () => {
  it('writes large counts the way of the language', async () => {
    const count = 12_345;
    expect((await textsIn('ro')).t('catalogue.resultCount', { count })).toBe('12.345 de produse');
    expect((await textsIn('en')).t('catalogue.resultCount', { count })).toBe('12,345 products');
    expect((await textsIn('it')).t('catalogue.resultCount', { count })).toBe('12.345 prodotti');
  });

  it('writes counts under a thousand as the language would', async () => {
    for (const lng of ['ro', 'en', 'it'] as const) {
      const i18n = await textsIn(lng);
      for (const count of [0, 7, 999]) {
        expect(i18n.t('catalogue.resultCount', { count })).toContain(
          new Intl.NumberFormat(lng).format(count),
        );
      }
    }
  });
});

describe('a moment in short (when a copy was saved, a change queued)', () => {
  it('is written as each language’s locale writes it', () => {
    const short = (lng: 'ro' | 'en' | 'it') =>
      new Intl.DateTimeFormat(LOCALES[lng], { dateStyle: 'short', timeStyle: 'short' });
    // Every hour of two years in steps that reach each day, month and minute in turn.
    for (
      let at = Date.UTC(2025, 0, 1);
      at < Date.UTC(2027, 0, 1);
      at += 3_600_000 * 7 + 60_000 * 13
    ) {
      const moment = new Date(at);
      for (const lng of ['ro', 'en', 'it'] as const) {
        expect(formatShortDateTime(moment, lng)).toBe(short(lng).format(moment));
      }
    }
    expect(formatShortDateTime(new Date(2026, 10, 27, 23, 45), 'ro')).toBe('27.11.2026, 23:45');
  });
});
