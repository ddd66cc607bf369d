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

/**
 * A moment in short, as each language's locale writes it ("27.11.2026, 23:45" in Romanian),
 * in the device's time zone. Written out rather than asked of `Intl.DateTimeFormat`: the
 * first date format a page makes loads the locale's calendar data, a long task of about
 * 35 ms (140 ms on a slow phone) in the middle of the catalogue's first screen, which shows
 * this time ("saved on this device, updated …"). A unit test holds it to `Intl`'s answer.
 */
export function formatShortDateTime(date: Date, lng: string | undefined): string {
  const language = pickLanguage([lng]);
  const two = (n: number) => String(n).padStart(2, '0');
  const year = language === 'it' ? two(date.getFullYear() % 100) : date.getFullYear();
  const dot = language === 'ro' ? '.' : '/';
  const day = `${two(date.getDate())}${dot}${two(date.getMonth() + 1)}${dot}${year}`;
  return `${day}, ${two(date.getHours())}:${two(date.getMinutes())}`;
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
