/** The portal's languages: Romanian first, the default and the fallback. */
export const LANGUAGES = ['ro', 'en', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ro';
