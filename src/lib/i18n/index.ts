/**
 * Language set-up: ro (default and fallback), en, it. Detection order: the `lng` query
 * parameter, the cached choice, the browser's language, then `<html lang>`. The choice
 * is cached and `<html lang>` follows it.
 */
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../contracts/languages';
import { LANGUAGE_STORAGE_KEY } from '../../contracts/storage-names';

type Bundle = Record<string, unknown>;

/** Each language is its own chunk: a visitor downloads only the one they read. */
const BUNDLES: Record<Language, () => Promise<{ default: Bundle }>> = {
  ro: () => import('../../locales/ro.json'),
  en: () => import('../../locales/en.json'),
  it: () => import('../../locales/it.json'),
};

const DETECTION = {
  order: ['querystring', 'localStorage', 'navigator', 'htmlTag'],
  lookupQuerystring: 'lng',
  lookupLocalStorage: LANGUAGE_STORAGE_KEY,
  caches: ['localStorage'],
};

async function ensureBundle(lng: Language): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  const bundle = await BUNDLES[lng]();
  i18n.addResourceBundle(lng, 'translation', bundle.default, true, true);
}

/** Detects the language, loads its texts and starts i18next; resolves when the app can render. */
export async function initI18n(): Promise<typeof i18n> {
  const detector = new LanguageDetector(undefined, DETECTION);
  const detected = detector.detect();
  const language = currentLanguage(Array.isArray(detected) ? detected[0] : detected);
  const bundle = (await BUNDLES[language]()).default;
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
  await i18n
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      lng: language,
      resources: { [language]: { translation: bundle } },
      partialBundledLanguages: true,
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: DEFAULT_LANGUAGE,
      interpolation: { escapeValue: false },
      detection: DETECTION,
    });
  return i18n;
}

/** Switches the language once its texts are loaded (offline, from the precache). */
export async function switchLanguage(lng: Language): Promise<void> {
  await ensureBundle(lng);
  await i18n.changeLanguage(lng);
}

/** The portal language in force, reduced to one of ro, en, it. */
export function currentLanguage(lng: string | undefined): Language {
  const base = (lng ?? DEFAULT_LANGUAGE).slice(0, 2) as Language;
  return LANGUAGES.includes(base) ? base : DEFAULT_LANGUAGE;
}

const LOCALES: Record<Language, string> = { ro: 'ro-RO', en: 'en-IE', it: 'it-IT' };

export function formatMoney(amount: number, lng: string | undefined): string {
  return new Intl.NumberFormat(LOCALES[currentLanguage(lng)], {
    style: 'currency',
    currency: 'EUR',
  }).format(amount);
}

export function formatTime(iso: string, lng: string | undefined): string {
  return new Intl.DateTimeFormat(LOCALES[currentLanguage(lng)], {
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/**
 * A server's refusal in the user's language: by its code when the translations know it,
 * otherwise the server's own (English) message.
 */
export function serverProblemText(
  problem: {
    code?: string | undefined;
    message: string;
    params?: Record<string, string | number> | undefined;
  },
  lng?: string,
): string {
  const key = `serverErrors.${problem.code ?? ''}`;
  return problem.code && i18n.exists(key, { lng })
    ? i18n.t(key, { ...problem.params, lng })
    : problem.message;
}
