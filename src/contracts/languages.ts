/** The portal's languages: Romanian first, the default and the fallback. */
export const LANGUAGES = ['ro', 'en', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ro';

/**
 * The language to show, page and server alike: the first of `candidates` (most wanted
 * first: a chosen `lng`, the kept choice, the browser's languages) that the portal has,
 * by its primary tag (`en-GB` is English), else the default.
 */
export function pickLanguage(candidates: readonly (string | null | undefined)[]): Language {
  return matchLanguage(candidates) ?? DEFAULT_LANGUAGE;
}

/** As pickLanguage, but null when no candidate is one of the portal's languages. */
export function matchLanguage(candidates: readonly (string | null | undefined)[]): Language | null {
  for (const candidate of candidates) {
    const base = candidate?.trim().slice(0, 2).toLowerCase();
    const language = LANGUAGES.find((known) => known === base);
    if (language) return language;
  }
  return null;
}
