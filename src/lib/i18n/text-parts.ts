/**
 * Each language's texts come in two parts: those of the first screens (header, footer,
 * home, catalogue, product, prompts) and the rest, which loads once the page is up and
 * before any other screen shows. Top-level groups of `src/locales/<lng>.json`.
 */
export const FIRST_SCREEN_GROUPS = [
  'app',
  'cart',
  'catalogue',
  'categories',
  'common',
  'company',
  'error',
  'footer',
  'home',
  'meta',
  'nav',
  'notFound',
  'offline',
  'pagination',
  'product',
  'pwa',
  'signOut',
] as const;

export type TextPart = 'first' | 'rest';
