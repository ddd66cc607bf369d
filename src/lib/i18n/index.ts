/**
 * Language set-up: ro (default and fallback), en, it. Detection order: the `lng` query
 * parameter, the cached choice, the browser's languages, then `<html lang>`. The choice
 * is cached and `<html lang>` follows it. Each language's texts come in three chunks (see
 * `textParts` in vite.config.ts): every first screen's part before the first render, the
 * home screen's with it, the rest right after.
 */
import i18n, { type ParseKeys } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  pickLanguage,
  type Language,
} from '../../contracts/languages';
import { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY } from '../../contracts/storage-names';
import { addTextFormats, formatShortDateTime, formatterOf } from './formats';

type Texts = { default: Record<string, unknown> };
/** Every first screen's texts, the home screen's, and the rest (see `textParts` in vite.config.ts). */
type TextPart = 'first' | 'home' | 'rest';
const PARTS: TextPart[] = ['first', 'home', 'rest'];

const TEXTS: Record<Language, Record<TextPart, () => Promise<Texts>>> = {
  ro: {
    first: () => import('texts:ro/first'),
    home: () => import('texts:ro/home'),
    rest: () => import('texts:ro/rest'),
  },
  en: {
    first: () => import('texts:en/first'),
    home: () => import('texts:en/home'),
    rest: () => import('texts:en/rest'),
  },
  it: {
    first: () => import('texts:it/first'),
    home: () => import('texts:it/home'),
    rest: () => import('texts:it/rest'),
  },
};

/** The language the app is starting in, until i18next has started. */
let starting: Language | undefined;

const loaded = new Map<string, Promise<void>>();

/**
 * Where each part's download failed, to ask again elsewhere. Chromium keeps a failed module
 * download in the page's module map: the same import fails again even once back online, so
 * a language tried offline could not be used until the page was reloaded. Its address
 * (which the error names) is asked again with a query the map has not seen; the service
 * worker is then given the plain address too, so the language is kept for offline use.
 */
const failedAt = new Map<string, string>();

async function importPart(lng: Language, part: TextPart): Promise<Texts> {
  const key = `${lng}/${part}`;
  const failed = failedAt.get(key);
  try {
    if (!failed) return await TEXTS[lng][part]();
    const texts = (await import(/* @vite-ignore */ `${failed}?again=${Date.now()}`)) as Texts;
    void fetch(failed).catch(() => undefined);
    return texts;
  } catch (error) {
    const address = /https?:\S+?\.js/.exec(String(error))?.[0];
    if (address) failedAt.set(key, address);
    throw error;
  }
}

function loadPart(lng: Language, part: TextPart): Promise<void> {
  const key = `${lng}/${part}`;
  let loading = loaded.get(key);
  if (!loading) {
    loading = importPart(lng, part).then(({ default: texts }) => {
      i18n.addResourceBundle(lng, 'translation', texts, true, true);
    });
    // A failed download (offline, a language never used on this device) can be tried again.
    loading.catch(() => loaded.delete(key));
    loaded.set(key, loading);
  }
  return loading;
}

/** The language in force, or the one the app is starting in (the server's, for its screen). */
function languageInUse(): Language {
  return i18n.isInitialized ? currentLanguage(i18n.language) : (starting ?? detectLanguage());
}

const loadParts = (lng: Language) =>
  Promise.all(PARTS.map((part) => loadPart(lng, part))).then(() => undefined);

/** Every text of the language in force: the screens after the first one wait for this. */
export function loadAllTexts(): Promise<void> {
  return loadParts(languageInUse());
}

/**
 * Every text of `lng`, without switching to it: for a document made in another language.
 * Offline, a language never used on this device rejects (see switchLanguage).
 */
export const loadLanguageTexts = (lng: Language): Promise<void> => loadParts(lng);

/** The home screen's texts, which it waits for (the other first screens do without). */
export function loadHomeTexts(): Promise<void> {
  return loadPart(languageInUse(), 'home');
}

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The `lng` parameter, the kept choice, the browser's languages, then `<html lang>`. */
export function detectLanguage(): Language {
  return pickLanguage([
    new URLSearchParams(window.location.search).get('lng'),
    storedLanguage(),
    ...(navigator.languages ?? [navigator.language]),
    document.documentElement.lang,
  ]);
}

/** Keeps the choice for the next visit, also for the server (which renders first screens). */
function rememberLanguage(lng: string): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    // storage unavailable: the language is detected again next time
  }
  document.cookie = `${LANGUAGE_COOKIE}=${lng}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * Starts i18next in `language` (the one the server rendered the page in) or the detected
 * one, with its first texts; resolves when the app can render.
 */
export async function initI18n(language: Language = detectLanguage()): Promise<typeof i18n> {
  starting = language;
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
    rememberLanguage(lng);
  });
  await i18n.use(initReactI18next).init({
    lng: language,
    resources: {},
    partialBundledLanguages: true,
    supportedLngs: [...LANGUAGES],
    load: 'languageOnly',
    fallbackLng: DEFAULT_LANGUAGE,
    interpolation: { escapeValue: false },
  });
  addTextFormats(i18n);
  await loadPart(language, 'first');
  document.documentElement.lang = language;
  rememberLanguage(language);
  return i18n;
}

/**
 * Switches the language once its texts are loaded. Offline they come from the service
 * worker, which keeps the languages used on this device (see sw/texts.ts): a language never
 * used here rejects, and the language in force stays.
 */
export async function switchLanguage(lng: Language): Promise<void> {
  await loadParts(lng);
  await i18n.changeLanguage(lng);
}

/** The portal language in force, reduced to one of ro, en, it. */
export function currentLanguage(lng: string | undefined): Language {
  return pickLanguage([lng]);
}

const moneyFormat = formatterOf(
  (locale) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }),
);
const dateTimeFormat = formatterOf(
  (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
);

export function formatMoney(amount: number, lng: string | undefined): string {
  return moneyFormat(lng).format(amount);
}

/** A moment as a date and time of day, in the language's way (orders, their history). */
export function formatDateTime(iso: string, lng: string | undefined): string {
  return dateTimeFormat(lng).format(new Date(iso));
}

/** A moment in short ("27.11.2026, 23:45"): when a copy was saved, a change queued. */
export function formatTime(iso: string, lng: string | undefined): string {
  return formatShortDateTime(new Date(iso), lng);
}

/**
 * A server's refusal in the user's language: by its code when the translations know it,
 * otherwise the server's own (English) message.
 */
/**
 * Any key of the texts: for a key put together at run time, which the compiler cannot
 * check (every literal key is checked, see src/i18next.d.ts).
 */
export type TextKey = ParseKeys;

export function serverProblemText(
  problem: {
    code?: string | undefined;
    message: string;
    params?: Record<string, string | number> | undefined;
  },
  lng?: string,
): string {
  const name = `serverErrors.${problem.code ?? ''}`;
  // exists() narrows the name it checks to the key of any entry, a group of texts too;
  // `key` stays the key of one text.
  const key = name as TextKey;
  const language = lng === undefined ? {} : { lng };
  return problem.code && i18n.exists(name, language)
    ? String(i18n.t(key, { ...problem.params, ...language }))
    : problem.message;
}
