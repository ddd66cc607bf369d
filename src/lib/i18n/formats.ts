/**
 * Formats the texts use beyond i18next's own, for the page and the server rendering alike.
 * `{{count, integer}}`: a whole number written the language's way ("1.234" in Romanian).
 */
import type { i18n as I18n } from 'i18next';

/** Below this, every portal language writes a whole number as its digits alone. */
const PLAIN_BELOW = 1000;

export function addTextFormats(i18n: I18n): void {
  const formats = new Map<string, Intl.NumberFormat>();
  i18n.services.formatter?.add('integer', (value: number, lng: string | undefined) => {
    const whole = Math.round(value);
    // The locale's number data is loaded only for larger numbers: loading it is a long
    // task on a slow phone, and the catalogue's first screen counts a page of products.
    if (Math.abs(whole) < PLAIN_BELOW) return String(whole);
    const language = lng ?? i18n.language;
    let format = formats.get(language);
    if (!format) formats.set(language, (format = new Intl.NumberFormat(language)));
    return format.format(whole);
  });
}
