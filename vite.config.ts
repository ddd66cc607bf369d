import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Where `npm run dev` finds the API server (started with it on port 8080). */
const API_ORIGIN = process.env.API_ORIGIN ?? 'http://localhost:8080';

/** The modules of the app shell that every first screen runs (see build.rolldownOptions). */
const FIRST_SCREEN_MODULES = new RegExp(
  [
    String.raw`/node_modules/(react|react-dom|scheduler|react-router|react-router-dom|i18next|react-i18next|use-sync-external-store)/`,
    String.raw`/src/app/(app|header|footer|error-boundary|pages)\.tsx$`,
    String.raw`/src/components/(toast|page-meta)\.tsx$`,
    String.raw`/src/contracts/(accounts|brand|catalogue|languages|orders|storage-names)\.ts$`,
    String.raw`/src/lib/(when-idle|i18n/index|auth/session|auth/session-store|api/errors|api/failure|api/catalogue|pwa/register-service-worker)\.ts$`,
    String.raw`/src/lib/sync/(engine-loader|use-catalogue|views|connectivity|offline-invite)\.ts$`,
  ].join('|'),
);

/**
 * Each language's texts come in three parts, by top-level group of src/locales/<lng>.json:
 * those of every first screen (header, footer, catalogue, product: before the first
 * render), the home screen's own (loaded with it: the other first screens do without
 * them), and the rest, which loads once the page is up and before any other screen shows.
 */
const FIRST_SCREEN_GROUPS = [
  'app',
  'catalogue',
  'categories',
  'common',
  'error',
  'footer',
  'meta',
  'nav',
  'pagination',
  'product',
  'pwa',
];
const HOME_GROUPS = ['home'];

const TEXT_PART = /^\0texts:([a-z]{2})\/(first|home|rest)$/;

/**
 * `texts:<lng>/first`, `texts:<lng>/home` and `texts:<lng>/rest`: a language's texts
 * (src/locales/<lng>.json) split into the part every first screen needs, the home
 * screen's and the rest, so that a first screen waits only for what it shows. The JSON
 * files stay whole for translators and tests.
 */
function textParts(): Plugin {
  const first = new Set(FIRST_SCREEN_GROUPS);
  const home = new Set(HOME_GROUPS);
  const partOf = (group: string) =>
    first.has(group) ? 'first' : home.has(group) ? 'home' : 'rest';
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
        Object.entries(texts).filter(([group]) => partOf(group) === part),
      );
      // JSON.parse of a string literal is quicker for the browser than an object literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(chosen))});`;
    },
  };
}

/** Every file under `dir`, at any depth. */
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/** The service worker's source: built with the app, as one more entry (see serviceWorker). */
const SERVICE_WORKER = resolve('sw/sw.ts');
/** What the service worker keeps for offline use: the app's code, styles, pages and logo. */
const PRECACHED = /\.(js|css|html|svg|woff2|webmanifest)$/;
/** Names that carry their content's hash: a new content is a new name (no revision needed). */
const HASHED = /^assets\//;
/**
 * Modules of the first screens that the service worker imports too. They stay out of the
 * shell's chunk: the worker must never load React and the rest of the shell when it starts.
 */
const SHARED_WITH_SERVICE_WORKER = /\/src\/contracts\/(orders|storage-names)\.ts$/;

/**
 * The screens only a signed-in user can open (and the user menu): their code, and what
 * only they load, is kept by the service worker once someone signs in, not precached on
 * every visitor's first visit (signing in needs the network anyway).
 */
const ACCOUNT_SCREENS =
  /\/src\/(features\/(cart\/cart|orders\/orders|sync\/sync|profile\/profile)-page|app\/user-menu)\.tsx$/;

/**
 * The service worker is built with the app, as an ES module (`/sw.js`), so that it shares
 * the app's chunks instead of carrying its own copy of them: its Background Sync uses the
 * app's database (Dexie) and outbox code, which a first visit has already downloaded for
 * the page; the worker then takes them from the HTTP cache. Once the app is written, the
 * list of files to precache (with a revision for those whose name has no hash) replaces
 * `self.__WB_MANIFEST` in the worker, as Workbox's injectManifest does, and the files of
 * the signed-in screens replace `self.__ACCOUNT_SCREENS`.
 */
function serviceWorker(): Plugin {
  let outDir = '';
  /** Files only the signed-in screens load (see ACCOUNT_SCREENS). */
  let accountFiles: string[] = [];
  return {
    name: 'portal-service-worker',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    generateBundle(_, bundle) {
      // The worker starts on every event after a pause: it must not run the page's shell.
      const chunks = new Map(
        Object.values(bundle).flatMap((file) =>
          file.type === 'chunk' ? [[file.fileName, file]] : [],
        ),
      );
      const seen = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = chunks.get(fileName);
        if (!chunk || seen.has(fileName)) return;
        seen.add(fileName);
        if (chunk.name === 'shell') {
          this.error(
            `The service worker imports the shell (${fileName}): see SHARED_WITH_SERVICE_WORKER`,
          );
        }
        chunk.imports.forEach(visit);
      };
      visit('sw.js');

      // What a visitor's app can load without opening a signed-in screen; the rest is theirs.
      const roots = new Set(
        [...chunks.values()]
          .filter((chunk) => ACCOUNT_SCREENS.test(chunk.facadeModuleId ?? ''))
          .map((chunk) => chunk.fileName),
      );
      const visitors = new Set<string>();
      const reach = (fileName: string) => {
        const chunk = chunks.get(fileName);
        if (!chunk || visitors.has(fileName) || roots.has(fileName)) return;
        visitors.add(fileName);
        [...chunk.imports, ...chunk.dynamicImports].forEach(reach);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) reach(chunk.fileName);
      const styles = (names: Iterable<string>) =>
        [...names].flatMap((name) => [...(chunks.get(name)?.viteMetadata?.importedCss ?? [])]);
      const visitorStyles = new Set(styles(visitors));
      const accountChunks = [...chunks.keys()].filter((name) => !visitors.has(name));
      accountFiles = [
        ...accountChunks,
        ...styles(accountChunks).filter((style) => !visitorStyles.has(style)),
      ];
      if (roots.size === 0) this.error('No chunk matches ACCOUNT_SCREENS');
    },
    closeBundle: {
      sequential: true,
      handler() {
        const worker = join(outDir, 'sw.js');
        const entries = files(outDir)
          .map((file) => relative(outDir, file).split(sep).join('/'))
          .filter((url) => PRECACHED.test(url) && url !== 'sw.js')
          .sort()
          .map((url) => ({
            url,
            revision: HASHED.test(url)
              ? null
              : createHash('md5')
                  .update(readFileSync(join(outDir, url)))
                  .digest('hex'),
          }));
        let code = readFileSync(worker, 'utf8');
        const inject = (token: string, value: unknown) => {
          const [before, after, ...more] = code.split(token);
          if (after === undefined || more.length > 0) {
            throw new Error(`sw.js must read ${token} exactly once`);
          }
          code = `${before}${JSON.stringify(value)}${after}`;
        };
        inject('self.__WB_MANIFEST', entries);
        inject('self.__ACCOUNT_SCREENS', [...new Set(accountFiles)].sort());
        writeFileSync(worker, code);
      },
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
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    // After the service worker's lists are written into it (when the bundle closes).
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
    // The server's rendering (vite build --ssr) needs no service worker.
    !isSsrBuild && serviceWorker(),
    !isSsrBuild && precompress(),
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
      // The page and its service worker, built together so that they share chunks.
      input: isSsrBuild ? undefined : { index: resolve('index.html'), sw: SERVICE_WORKER },
      output: {
        entryFileNames: isSsrBuild
          ? undefined
          : (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        // A language's texts say whose they are: the service worker keeps only those in use.
        chunkFileNames: (chunk) => {
          const text = chunk.moduleIds.map((id) => TEXT_PART.exec(id)).find(Boolean);
          return text ? `assets/texts-${text[1]}-${text[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
        codeSplitting: {
          // Only the modules named: the page's tiny entry must not pull the shell in with it.
          includeDependenciesRecursively: false,
          groups: [
            // What every first screen runs, in one chunk (one request, better compressed);
            // the screens, the other texts and the sync engine stay in chunks of their own.
            {
              name: 'shell',
              test: (id: string) =>
                FIRST_SCREEN_MODULES.test(id) && !SHARED_WITH_SERVICE_WORKER.test(id),
            },
          ],
        },
      },
    },
  },
}));
