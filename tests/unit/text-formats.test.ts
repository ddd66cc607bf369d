import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { addTextFormats } from '../../src/lib/i18n/formats';
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
