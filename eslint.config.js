import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports flow one way: contracts → lib → components → features → app. */
const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((group) => ({ group: [group], message })) },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-ssr',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      'bench-results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware rules read the types of the three TypeScript projects, and every .ts file
    // is in one of them (tests/server and tests/bench in the server's). They are named here
    // rather than found by the project service, which takes the nearest tsconfig.json: it
    // would need tsconfigs of their own in tests/server and tests/bench, each a copy of the
    // server's program, and ESLint took half as long again or more.
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './sw/tsconfig.json', './server/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Plain JavaScript (this file) is in no TypeScript project.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [jsxA11y.flatConfigs.recommended],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Every text a screen shows comes from the translations: a literal in JSX fails the lint.
    files: ['src/**/*.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-text-only',
          'jsx-attributes': { include: ['aria-label', 'alt', 'title', 'placeholder', 'label'] },
          words: { exclude: ['[0-9!-/:-@[-`{-~\\s–—×·…‹›↑▾☰✕−+€]+'] },
        },
      ],
    },
  },
  {
    files: ['sw/**/*.ts'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ['server/**/*.ts', 'tests/**/*.ts', '*.config.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Each Playwright worker tests a server of its own (tests/e2e/portal.ts): a test taken
    // from Playwright itself would test no server at all.
    files: ['tests/e2e/**/*.ts'],
    ignores: ['tests/e2e/portal.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message: 'Import test and expect from ./portal.',
            },
          ],
        },
      ],
    },
  },
  {
    // Fastify plugins, hooks and handlers are async by contract: Fastify waits for their
    // promise and takes a throw for a rejection, whether or not they await anything.
    files: ['server/plugins/**/*.ts', 'server/routes/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  layer(
    ['src/contracts/**'],
    ['**/lib/**', '**/components/**', '**/features/**', '**/app/**', 'react', 'dexie'],
    'contracts are pure: no DOM, no storage, no UI.',
  ),
  layer(
    ['src/lib/**'],
    ['**/components/**', '**/features/**', '**/app/**'],
    'lib must not depend on UI.',
  ),
  layer(
    ['src/components/**'],
    ['**/lib/**', '**/features/**', '**/app/**'],
    'components are presentational: props in, markup out.',
  ),
  layer(['src/features/**'], ['**/app/**'], 'features must not depend on the app shell.'),
  layer(
    ['server/**'],
    ['**/src/lib/**', '**/src/components/**', '**/src/features/**', '**/src/app/**'],
    'the server shares only src/contracts.',
  ),
  layer(
    ['sw/**'],
    [
      '**/src/components/**',
      '**/src/features/**',
      '**/src/app/**',
      '**/src/lib/api/**',
      '**/src/lib/i18n/**',
      '**/src/lib/pwa/**',
    ],
    'the service worker shares only contracts and DOM-free sync code.',
  ),
);
