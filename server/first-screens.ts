/**
 * First screens (the pages src/contracts/routes.ts marks `serverRendered`) rendered by the
 * server with the app's own rendering module (dist-ssr/entry-server.js, built by
 * `npm run build`), in the visitor's language and with the catalogue as a visitor sees it:
 * a first visit shows content before any script has run, and search engines read it. Not
 * in a browser where someone is signed in (the server's cookie says so): there the browser
 * renders the screen as that user sees it.
 * Without the module, or when a rendering fails, the app's page is sent as it is and
 * renders in the browser; the log says so (at start when it is the build's doing).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Product, ProductPage, ProductQuery } from '../src/contracts/catalogue.js';
import { DEFAULT_LANGUAGE, type Language } from '../src/contracts/languages.js';
import type { Db } from './db/database.js';
import { getProduct, listProducts } from './services/catalogue.js';
import { describeFailure } from './services/errors.js';
import { requestLanguage } from './request-language.js';
import { SIGNED_IN_COOKIE } from '../src/contracts/storage-names.js';

interface RenderModule {
  FIRST_SCREEN_ELEMENT_ID: string;
  renderFirstScreen(
    url: URL,
    language: Language,
    reader: {
      products(query: ProductQuery): Promise<ProductPage>;
      product(id: number): Promise<Product | null>;
    },
  ): Promise<{ status: number; head: string; body: string; data: unknown } | null>;
}

export interface FirstScreens {
  /** The page for a request, or null when the browser should render it from the app's page. */
  render(request: FastifyRequest): Promise<{ status: number; html: string } | null>;
}

const VISITOR = { canSeePrices: false };
/** Set while a session is open in the browser (see server/routes/auth.ts). */
const SIGNED_IN = new RegExp(`(?:^|;\\s*)${SIGNED_IN_COOKIE}=1(?:;|$)`);
const ROOT = '<div id="root"></div>';
const HTML_LANG = /<html lang="[a-z]*"/;
const MODULE_SCRIPT = '<script type="module" crossorigin';

/**
 * What of the built page (Vite's index.html) the rendering edits, and finds no more if the
 * build writes it otherwise: the root element is essential, the rest only comes out wrong.
 */
function shellProblems(template: string): string[] {
  const problems = [];
  if (!template.includes(ROOT)) problems.push(`no empty root element ${ROOT}`);
  if (!HTML_LANG.test(template)) problems.push('no <html lang="…"> to set the language in');
  if (!template.includes('</head>')) problems.push("no </head> to put the page's title before");
  if (!template.includes(MODULE_SCRIPT)) {
    problems.push(`no ${MODULE_SCRIPT} to let the screen load before the scripts`);
  }
  return problems;
}

/** What a rendering must give the server for a page of the app: its head tags apart. */
function renderingProblems(screen: { head: string; body: string } | null): string[] {
  if (!screen) return ['the home page was not rendered'];
  const problems = [];
  if (!screen.head.includes('<title>')) problems.push('no <title> among the head tags');
  if (screen.body.includes('<title>')) problems.push('a <title> left in the body');
  return problems;
}

export async function loadFirstScreens(
  renderDir: string,
  staticDir: string,
  db: Db,
  /** The site's public address: canonical links and JSON-LD never take the request's Host. */
  publicUrl: string,
  /** Where a rendering that cannot work, or would come out wrong, is reported at start. */
  log: FastifyBaseLogger,
): Promise<FirstScreens | null> {
  const entry = join(renderDir, 'entry-server.js');
  const templateFile = join(staticDir, 'index.html');
  if (!existsSync(entry)) {
    log.error({ entry }, 'Server rendering is off: its module is missing (npm run build makes it)');
    return null;
  }
  const built = readFileSync(templateFile, 'utf8');
  const problems = shellProblems(built);
  if (!built.includes(ROOT)) {
    log.error(
      { file: templateFile, problems },
      'Server rendering is off: the built page is not as it expects',
    );
    return null;
  }
  if (problems.length > 0) {
    log.error(
      { file: templateFile, problems },
      'The built page is not as server rendering expects',
    );
  }
  // The screen shows without the scripts: they must not hold back its pictures and styles.
  const template = built.replaceAll(
    MODULE_SCRIPT,
    '<script type="module" fetchpriority="low" crossorigin',
  );
  const module = (await import(pathToFileURL(entry).href)) as RenderModule;
  const reader = {
    products: (query: ProductQuery) => listProducts(db, query, VISITOR),
    product: (id: number) => getProduct(db, id, VISITOR),
  };
  // One rendering at start: React's output must still be split as the server expects.
  const probe = await module
    .renderFirstScreen(new URL('/', publicUrl), DEFAULT_LANGUAGE, reader)
    .catch((error: unknown) => {
      log.error({ entry, error: describeFailure(error) }, 'Server rendering failed at start');
      return null;
    });
  const rendering = renderingProblems(probe);
  if (rendering.length > 0) {
    log.error({ entry, problems: rendering }, 'Server rendering does not come out as expected');
  }
  return {
    async render(request) {
      // A signed-in user's screen is rendered in the browser, as they see it: the visitor's
      // screen would show them no prices, then move under their finger when it changes.
      if (SIGNED_IN.test(request.headers.cookie ?? '')) return null;
      const url = new URL(request.url, publicUrl);
      const language = requestLanguage(request) ?? DEFAULT_LANGUAGE;
      const screen = await module.renderFirstScreen(url, language, reader);
      if (!screen) return null;
      // "<" is escaped so that no text in the data can close the script element.
      const data = JSON.stringify(screen.data).replace(/</g, '\\u003c');
      // Functions, not strings, as replacements: in a string "$&" or "$'" (a search for
      // "$'" renders as "$&#x27;") would insert parts of the template into the page.
      const html = template
        .replace(HTML_LANG, () => `<html lang="${language}"`)
        .replace('</head>', () => `${screen.head}</head>`)
        .replace(
          ROOT,
          () =>
            `<div id="root">${screen.body}</div><script type="application/json" id="${module.FIRST_SCREEN_ELEMENT_ID}">${data}</script>`,
        );
      return { status: screen.status, html };
    },
  };
}
