/**
 * How the portal writes numbers and dates in each language, for the page and the server
 * rendering alike: the locale of each language, formatters made once per language, and
 * the formats the texts use beyond i18next's own.
 */
import type { i18n as I18n } from 'i18next';
import { pickLanguage, type Language } from '../../contracts/languages';

export const LOCALES: Record<Language, string> = { ro: 'ro-RO', en: 'en-IE', it: 'it-IT' };

/**
 * Formatters are made once per language and kept: making one loads the locale's data,
 * which costs more than every later use put together.
 */
export function formatterOf<F>(make: (locale: string) => F): (lng: string | undefined) => F {
  const made = new Map<Language, F>();
  return (lng) => {
    const language = pickLanguage([lng]);
    let formatter = made.get(language);
    if (!formatter) made.set(language, (formatter = make(LOCALES[language])));
    return formatter;
  };
}

/** Below this, every portal language writes a whole number as its digits alone. */
const PLAIN_BELOW = 1000;

/** `{{count, integer}}`: a whole number written the language's way ("12.345" in Romanian). */
export function addTextFormats(i18n: I18n): void {
  const integers = formatterOf((locale) => new Intl.NumberFormat(locale));
  i18n.services.formatter?.add('integer', (value: number, lng: string | undefined) => {
    const whole = Math.round(value);
    // The locale's number data is loaded only for larger numbers: loading it is a long
    // task on a slow phone, and the catalogue's first screen counts a page of products.
    if (Math.abs(whole) < PLAIN_BELOW) return String(whole);
    return integers(lng ?? i18n.language).format(whole);
  });
}
