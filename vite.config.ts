import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** Where `npm run dev` finds the API server (started with it on port 8080). */
const API_ORIGIN = process.env.API_ORIGIN ?? 'http://localhost:8080';

/** The modules of the app shell that every first screen runs (see build.rolldownOptions). */
const FIRST_SCREEN_MODULES = new RegExp(
  [
    String.raw`/node_modules/(react|react-dom|scheduler|react-router|react-router-dom|i18next|react-i18next|use-sync-external-store)/`,
    String.raw`/src/app/(app|header|footer|error-boundary|pages)\.tsx$`,
    String.raw`/src/components/(toast|page-meta)\.tsx$`,
    String.raw`/src/contracts/(accounts|brand|catalogue|languages|orders|storage-names)\.ts$`,
    String.raw`/src/lib/(when-idle|i18n/index|auth/session|auth/session-store|api/errors|api/catalogue|pwa/register-service-worker)\.ts$`,
    String.raw`/src/lib/sync/(engine-loader|use-catalogue|views|connectivity|offline-invite)\.ts$`,
  ].join('|'),
);

/**
 * Each language's texts come in two parts: those of the first screens (header, footer,
 * home, catalogue, product) and the rest, which loads once the page is up and
 * before any other screen shows. Top-level groups of `src/locales/<lng>.json`.
 */
const FIRST_SCREEN_GROUPS = [
  'app',
  'catalogue',
  'categories',
  'common',
  'error',
  'footer',
  'home',
  'meta',
  'nav',
  'notFound',
  'pagination',
  'product',
  'pwa',
];

const TEXT_PART = /^\0texts:([a-z]{2})\/(first|rest)$/;

/**
 * `texts:<lng>/first` and `texts:<lng>/rest`: a language's texts (src/locales/<lng>.json)
 * split into the part the first screens need and the rest, so that a first visit
 * downloads only the first part. The JSON files stay whole for translators and tests.
 */
function textParts(): Plugin {
  const first = new Set(FIRST_SCREEN_GROUPS);
  return {
    name: 'portal-text-parts',
    resolveId: (id) => (id.startsWith('texts:') ? `\0${id}` : undefined),
    load(id) {
      const match = TEXT_PART.exec(id);
      if (!match) return undefined;
      const [, language, part] = match;
      const file = resolve(`src/locales/${language}.json`);
      this.addWatchFile(file);
      const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const chosen = Object.fromEntries(
        Object.entries(texts).filter(([group]) => first.has(group) === (part === 'first')),
      );
      // JSON.parse of a string literal is quicker for the browser than an object literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(chosen))});`;
    },
  };
}

/** Files the server sends compressed; smaller ones are not worth a second copy. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest)$/;
const MIN_COMPRESSED_BYTES = 1024;

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy beside every text file of the
 * build, service worker included, which the server sends as they are (`preCompressed`).
 * Compressing once at the best level is about a seventh smaller than the quick levels a
 * server can afford on every request, and costs the server nothing.
 */
function precompress(): Plugin {
  let outDir = '';
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    // After the service worker is written (vite-plugin-pwa writes it when the bundle closes).
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of files(outDir)) {
          if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_COMPRESSED_BYTES) continue;
          const content = readFileSync(file);
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(content, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
          );
          writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        }
      },
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    textParts(),
    !isSsrBuild && precompress(),
    // The server's rendering (vite build --ssr) needs no service worker.
    !isSsrBuild &&
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'sw',
        filename: 'sw.ts',
        injectRegister: false,
        registerType: 'prompt',
        manifest: {
          id: '/',
          name: 'Floravia Professional',
          short_name: 'Floravia Pro',
          description:
            'Order professional bio-natural hair care for your salon, online or offline.',
          lang: 'ro',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          orientation: 'any',
          theme_color: '#2f5d50',
          background_color: '#fbf8f2',
          categories: ['business', 'shopping'],
          icons: [
            { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
            { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
            {
              src: '/icons/maskable-512.png',
              sizes: '512x512',
              type: 'image/png',
              purpose: 'maskable',
            },
          ],
          screenshots: [
            {
              src: '/screenshots/catalogue-wide.png',
              sizes: '1280x800',
              type: 'image/png',
              form_factor: 'wide',
              label: 'The catalogue',
            },
            {
              src: '/screenshots/catalogue-narrow.png',
              sizes: '540x960',
              type: 'image/png',
              form_factor: 'narrow',
              label: 'The catalogue on a phone',
            },
          ],
        },
        // The browser fetches the icons itself when the portal is installed; the app never
        // shows them, so they are not downloaded into the precache on every first visit.
        includeManifestIcons: false,
        injectManifest: {
          globPatterns: ['**/*.{js,css,html,svg,woff2}'],
          rollupFormat: 'iife',
        },
        devOptions: { enabled: false },
      }),
  ],
  server: {
    proxy: {
      '/api': API_ORIGIN,
      '/uploads': API_ORIGIN,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // The server's rendering serves no files of its own.
    copyPublicDir: !isSsrBuild,
    // Every browser the portal supports preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Only the modules named: the page's tiny entry must not pull the shell in with it.
          includeDependenciesRecursively: false,
          groups: [
            // What every first screen runs, in one chunk (one request, better compressed);
            // the screens, the other texts and the sync engine stay in chunks of their own.
            { name: 'shell', test: FIRST_SCREEN_MODULES },
          ],
        },
      },
    },
  },
}));
