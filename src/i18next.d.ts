/**
 * Translation keys are checked when the code is compiled: `t('…')` accepts only keys of
 * the texts (English is the reference; tests/unit/i18n-keys.test.ts checks that the three
 * languages have the same keys).
 */
import 'i18next';
import type en from './locales/en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
