import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { Code } from 'typebox/compile';
import * as Formats from 'typebox/format';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { MirrorLineSchema, ProductSchema } from './src/contracts/catalogue-schemas.js';

/** Where `npm run dev` finds the API server (started with it on port 8080). */
const API_ORIGIN = process.env.API_ORIGIN ?? 'http://localhost:8080';

/** The modules of the app shell that every first screen runs (see build.rolldownOptions). */
const FIRST_SCREEN_MODULES = new RegExp(
  [
    String.raw`/node_modules/(react|react-dom|scheduler|react-router|react-router-dom|i18next|react-i18next)/`,
    String.raw`/src/app/(app|header|footer|error-boundary|pages)\.tsx$`,
    String.raw`/src/components/(toast|page-meta)\.tsx$`,
    String.raw`/src/features/screen-meta\.tsx$`,
    String.raw`/src/contracts/(accounts|brand|catalogue|languages|orders|product-pictures|storage-names)\.ts$`,
    String.raw`/src/lib/(listeners|use-sync-external-store-shim|when-idle|kept-on-device|i18n/index|i18n/formats|auth/session|auth/session-store|api/errors|api/failure|api/catalogue|pwa/register-service-worker|use-url-query)\.ts$`,
    String.raw`/src/lib/sync/(engine-loader|use-catalogue|connectivity|offline-invite)\.ts$`,
  ].join('|'),
);

/** The page's entry (src/main.ts), named apart from any library's index.js. */
const ENTRY = 'entry-[hash].js';
/** The entry as built (ENTRY with its hash). */
const ENTRY_FILE = /^assets\/entry-[\w-]+\.js$/;
/** The entry and the app it starts: every page has loaded them before the app asks for more. */
const LOADED_FIRST = /^assets\/(entry|rolldown-runtime|shell|start)-[\w-]+\.js$/;

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

/** The checks built as code, by module name (see `compiledChecks`). */
const COMPILED_CHECKS = {
  'compiled-checks:product': ProductSchema,
  'compiled-checks:mirror-line': MirrorLineSchema,
};

/**
 * `compiled-checks:product` and `compiled-checks:mirror-line`: whether a value is a
 * product, or a line of the mirror's answer, as the catalogue's schemas
 * (src/contracts/catalogue-schemas.ts) say, as plain code written at build time by
 * TypeBox's `Code`. The page's content security policy refuses code made at run time, so
 * there TypeBox checks by walking the schema: ten times slower, about half a second for
 * the 10,000 products of a large catalogue's mirror.
 */
export function compiledChecks(): Plugin {
  // Formats (date-time…) are functions the code calls: imported by their name.
  const formatNames = new Map<unknown, string>(
    Object.entries(Formats).flatMap(([name, value]) =>
      typeof value === 'function' ? [[value, name] as const] : [],
    ),
  );
  return {
    name: 'portal-compiled-checks',
    resolveId: (id) => (Object.hasOwn(COMPILED_CHECKS, id) ? `\0${id}` : undefined),
    load(id) {
      const name = id.slice(1);
      if (!id.startsWith('\0') || !Object.hasOwn(COMPILED_CHECKS, name)) return undefined;
      const schema = COMPILED_CHECKS[name as keyof typeof COMPILED_CHECKS];
      const { Code: code, External } = Code(schema);
      const formats = External.variables.map((value) => {
        const format = formatNames.get(value);
        if (!format) throw new Error(`${name}: only formats can be built into a check`);
        return format;
      });
      return [
        code,
        formats.length > 0
          ? `import { ${[...new Set(formats)].join(', ')} } from 'typebox/format';`
          : '',
        `SetExternal({ variables: [${formats.join(', ')}] });`,
        'export default Check;',
      ].join('\n');
    },
  };
}

/** Every file under `dir`, at any depth. */
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/**
 * The screens only a signed-in user can open (the user menu, and the check of outbox
 * entries before they are sent, too): their code, and what only they load, is kept by the
 * service worker once someone signs in, not precached on every visitor's first visit
 * (signing in needs the network anyway).
 */
const ACCOUNT_SCREENS =
  /\/src\/(features\/(cart\/cart|orders\/orders|sync\/sync|profile\/profile)-page\.tsx|app\/user-menu\.tsx|lib\/sync\/outbox-check\.ts)$/;

/**
 * The back office's screens (and the module that loads them): like the signed-in ones, but
 * kept only once a staff member signs in (a salon never opens them).
 */
const STAFF_SCREENS = /\/src\/features\/admin\/([a-z-]+-page\.tsx|screens\.tsx)$/;

/**
 * Field sales' screens, the module that loads them and the "Ordering for" bar: kept only
 * once a sales rep signs in, with what only they load (the barcode reader). The pro-forma's
 * pdf-lib, fontkit and fonts are kept with the signed-in screens: salons make pro-formas of
 * their own orders.
 */
const REP_SCREENS =
  /\/src\/features\/field-sales\/([a-z-]+-page\.tsx|screens\.tsx|ordering-for\.tsx)$/;

/** Where the service worker reads the files of the signed-in screens, the staff's and the reps'. */
const ACCOUNT_SCREENS_IN_WORKER = 'self.__ACCOUNT_SCREENS';
const STAFF_SCREENS_IN_WORKER = 'self.__STAFF_SCREENS';
const REP_SCREENS_IN_WORKER = 'self.__REP_SCREENS';

interface ScreenFiles {
  /** What only the signed-in screens load (the staff's and reps' included when they share it). */
  account: Set<string>;
  /** What only the back office's screens load. */
  staff: Set<string>;
  /** What only field sales' screens load (a file the back office loads too is in both). */
  rep: Set<string>;
}

/**
 * The files only the signed-in screens load (see ACCOUNT_SCREENS, STAFF_SCREENS and
 * REP_SCREENS): the app's build finds them (`find`: everything a visitor's app cannot reach
 * without entering one of those screens, then what of it only the staff's or the reps'
 * screens reach, with the styles and assets, such as fonts, those files import); the
 * service worker's build, which runs once the app is written, writes their lists where the
 * worker reads `self.__ACCOUNT_SCREENS`, `self.__STAFF_SCREENS` and `self.__REP_SCREENS`
 * (`inWorker`) and leaves them out of the precache (`files`).
 */
function accountScreens() {
  let found: ScreenFiles | undefined;
  const screenFiles = () => {
    if (!found) throw new Error('No list of signed-in screens: the app is built before its worker');
    return found;
  };
  const find: Plugin = {
    name: 'portal-account-screens',
    apply: 'build',
    // Once the bundle is final: Vite removes a chunk that only carried styles (imported by
    // two screens) after the other plugins have seen it, and a file listed that was never
    // written would make the worker's keeping of every screen fail.
    writeBundle(_, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((file) =>
          file.type === 'chunk' ? [[file.fileName, file]] : [],
        ),
      );
      const rootsOf = (screens: RegExp) =>
        [...chunks.values()]
          .filter((chunk) => screens.test(chunk.facadeModuleId ?? ''))
          .map((chunk) => chunk.fileName);
      const accountRoots = rootsOf(ACCOUNT_SCREENS);
      const staffRoots = rootsOf(STAFF_SCREENS);
      const repRoots = rootsOf(REP_SCREENS);
      if (accountRoots.length === 0) this.error('No chunk matches ACCOUNT_SCREENS');
      if (staffRoots.length === 0) this.error('No chunk matches STAFF_SCREENS');
      if (repRoots.length === 0) this.error('No chunk matches REP_SCREENS');
      const roots = new Set([...accountRoots, ...staffRoots, ...repRoots]);
      /** The chunks reached from `starts`, not going through `stop` nor outside `within`. */
      const reach = (starts: Iterable<string>, stop: Set<string>, within?: Set<string>) => {
        const seen = new Set<string>();
        const walk = (fileName: string) => {
          const chunk = chunks.get(fileName);
          if (!chunk || seen.has(fileName) || stop.has(fileName)) return;
          if (within && !within.has(fileName)) return;
          seen.add(fileName);
          [...chunk.imports, ...chunk.dynamicImports].forEach(walk);
        };
        for (const start of starts) walk(start);
        return seen;
      };
      const entries = [...chunks.values()].filter((chunk) => chunk.isEntry);
      const visitors = reach(
        entries.map((chunk) => chunk.fileName),
        roots,
      );
      const signedIn = new Set([...chunks.keys()].filter((name) => !visitors.has(name)));
      // Every chunk a visitor cannot reach is reached from one of the roots, through chunks
      // a visitor cannot reach either: each one falls in one of these groups at least.
      const account = reach(accountRoots, new Set(), signedIn);
      const onlyFor = (groupRoots: string[]) =>
        [...reach(groupRoots, new Set(), signedIn)].filter((name) => !account.has(name));
      const staff = onlyFor(staffRoots);
      const rep = onlyFor(repRoots);
      /** The styles and other assets (a font) the chunks `names` import. */
      const filesOf = (names: Iterable<string>) =>
        new Set(
          [...names].flatMap((name) => {
            const meta = chunks.get(name)?.viteMetadata;
            return [...(meta?.importedCss ?? []), ...(meta?.importedAssets ?? [])];
          }),
        );
      const visitorFiles = filesOf(visitors);
      const accountFiles = [...filesOf(account)].filter((file) => !visitorFiles.has(file));
      const ownFiles = (names: string[]) =>
        [...filesOf(names)].filter(
          (file) => !visitorFiles.has(file) && !accountFiles.includes(file),
        );
      found = {
        account: new Set([...account, ...accountFiles].sort()),
        staff: new Set([...staff, ...ownFiles(staff)].sort()),
        rep: new Set([...rep, ...ownFiles(rep)].sort()),
      };
    },
  };
  const inWorker: Plugin = {
    name: 'portal-account-screens-in-worker',
    config: () => ({
      define: {
        [ACCOUNT_SCREENS_IN_WORKER]: JSON.stringify([...screenFiles().account]),
        [STAFF_SCREENS_IN_WORKER]: JSON.stringify([...screenFiles().staff]),
        [REP_SCREENS_IN_WORKER]: JSON.stringify([...screenFiles().rep]),
      },
    }),
    generateBundle(_, bundle) {
      const left = Object.values(bundle).find(
        (file) => file.type === 'chunk' && /__(ACCOUNT|STAFF|REP)_SCREENS/.test(file.code),
      );
      if (left) {
        this.error(
          `${left.fileName} must read ${ACCOUNT_SCREENS_IN_WORKER}, ${STAFF_SCREENS_IN_WORKER} and ${REP_SCREENS_IN_WORKER} as written`,
        );
      }
    },
  };
  const files = () =>
    new Set([...screenFiles().account, ...screenFiles().staff, ...screenFiles().rep]);
  return { find, inWorker, files };
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

/**
 * Marks the shell for compiling whole while it downloads (V8's explicit compile hints): the
 * first screen runs nearly all of it as it starts, hydration above all, and every function
 * compiled on the page's main thread when first called is time a tap waits. The comment
 * counts only as the file's first line, so it goes in once Vite has written its own (the
 * list of files to preload).
 */
function compileHints(): Plugin {
  return {
    name: 'portal-compile-hints',
    apply: 'build',
    generateBundle: {
      // After Vite's own (which writes the preload list first).
      order: 'post',
      handler(_, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && chunk.name === 'shell') {
            chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
          }
        }
      },
    },
  };
}

/**
 * React Router's production build, which its package.json never names (it always gives the
 * development one, whose warnings and their texts then ship: remix-run/react-router#14102).
 */
const ROUTER_PRODUCTION_BUILD = [
  {
    find: /^react-router$/,
    replacement: resolve('node_modules/react-router/dist/production/index.mjs'),
  },
  {
    find: /^react-router\/dom$/,
    replacement: resolve('node_modules/react-router/dist/production/dom-export.mjs'),
  },
];

export default defineConfig(({ command, isSsrBuild }) => {
  const signedIn = accountScreens();
  return {
    resolve: {
      alias: [
        {
          find: 'use-sync-external-store/shim',
          replacement: resolve('src/lib/use-sync-external-store-shim.ts'),
        },
        ...(command === 'build' ? ROUTER_PRODUCTION_BUILD : []),
      ],
    },
    plugins: [
      react(),
      textParts(),
      compiledChecks(),
      // The server's rendering (vite build --ssr) needs no service worker.
      !isSsrBuild && signedIn.find,
      !isSsrBuild &&
        VitePWA({
          strategies: 'injectManifest',
          srcDir: 'sw',
          filename: 'sw.ts',
          injectRegister: false,
          registerType: 'prompt',
          // The web app manifest is public/manifest.webmanifest, linked from index.html.
          manifest: false,
          injectManifest: {
            // The app's code, styles, pages and logo. Not the install icons (png): the
            // browser fetches them itself when the portal is installed, and the app never
            // shows them. The languages' texts are listed for the worker, which keeps
            // those of the languages in use only (see sw/texts.ts).
            globPatterns: ['**/*.{js,css,html,svg,woff2,webmanifest}'],
            // The signed-in screens are kept once someone signs in, the back office's once a
            // staff member does, field sales' once a sales rep does (see
            // sw/account-screens.ts).
            manifestTransforms: [
              (entries) => {
                const kept = signedIn.files();
                return { manifest: entries.filter((entry) => !kept.has(entry.url)) };
              },
            ],
            // A classic script, not a module: browsers without module service workers
            // (Firefox before 147) keep the portal offline too. It carries its own copy of
            // what it runs (Dexie and the outbox for its Background Sync).
            rollupFormat: 'iife',
            buildPlugins: { vite: [signedIn.inWorker] },
          },
          devOptions: { enabled: false },
        }),
      !isSsrBuild && compileHints(),
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
      modulePreload: {
        // Every browser the portal supports preloads modules itself.
        polyfill: false,
        // Only the entry lists the files it starts; the files loaded later never list them
        // among what to load with them: those have always run before any other file asks.
        resolveDependencies: (_file, deps, { hostId }) =>
          ENTRY_FILE.test(hostId) ? deps : deps.filter((dep) => !LOADED_FIRST.test(dep)),
      },
      rolldownOptions: {
        output: {
          // Named apart from any library's index.js (see LOADED_FIRST).
          ...(!isSsrBuild && { entryFileNames: `assets/${ENTRY}` }),
          // A language's texts say whose they are: the service worker keeps only those in use.
          chunkFileNames: (chunk) => {
            const text = chunk.moduleIds.map((id) => TEXT_PART.exec(id)).find(Boolean);
            if (text) return `assets/texts-${text[1]}-${text[2]}-[hash].js`;
            // pdf-lib's entry is its es/index.js: named for the library rather than "es".
            if (chunk.moduleIds.some((id) => id.includes('/node_modules/pdf-lib/'))) {
              return 'assets/pdf-lib-[hash].js';
            }
            return 'assets/[name]-[hash].js';
          },
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
  };
});
