/**
 * First screens (home, catalogue, product, support and legal pages) rendered by the server with the app's own
 * rendering module (dist-ssr/entry-server.js, built by `npm run build`), in the visitor's
 * language and with the catalogue as a visitor sees it: a first visit shows content
 * before any script has run, and search engines read it. Without the module, or when a
 * rendering fails, the app's page is sent as it is and renders in the browser.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Negotiator from 'negotiator';
import type { FastifyRequest } from 'fastify';
import type { Product, ProductPage, ProductQuery } from '../src/contracts/catalogue.js';
import { pickLanguage, type Language } from '../src/contracts/languages.js';
import { LANGUAGE_COOKIE } from '../src/contracts/storage-names.js';
import type { Db } from './db/database.js';
import { getProduct, listProducts } from './services/catalogue.js';

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
const ROOT = '<div id="root"></div>';

export async function loadFirstScreens(
  renderDir: string,
  staticDir: string,
  db: Db,
  /** The site's public address: canonical links and JSON-LD never take the request's Host. */
  publicUrl: string,
): Promise<FirstScreens | null> {
  const entry = join(renderDir, 'entry-server.js');
  const templateFile = join(staticDir, 'index.html');
  if (!existsSync(entry) || !existsSync(templateFile)) return null;
  const template = readFileSync(templateFile, 'utf8')
    // The screen shows without the scripts: they must not hold back its pictures and styles.
    .replaceAll(
      '<script type="module" crossorigin',
      '<script type="module" fetchpriority="low" crossorigin',
    );
  if (!template.includes(ROOT)) return null;
  const module = (await import(pathToFileURL(entry).href)) as RenderModule;
  const reader = {
    products: (query: ProductQuery) => listProducts(db, query, VISITOR),
    product: (id: number) => getProduct(db, id, VISITOR),
  };
  return {
    async render(request) {
      const url = new URL(request.url, publicUrl);
      const language = languageOf(request, url);
      const screen = await module.renderFirstScreen(url, language, reader);
      if (!screen) return null;
      // "<" is escaped so that no text in the data can close the script element.
      const data = JSON.stringify(screen.data).replace(/</g, '\\u003c');
      const html = template
        .replace(/<html lang="[a-z]*"/, `<html lang="${language}"`)
        .replace('</head>', `${screen.head}</head>`)
        .replace(
          ROOT,
          `<div id="root">${screen.body}</div><script type="application/json" id="${module.FIRST_SCREEN_ELEMENT_ID}">${data}</script>`,
        );
      return { status: screen.status, html };
    },
  };
}

/** As the page decides (pickLanguage): the `lng` parameter, the kept choice, the browser's. */
function languageOf(request: FastifyRequest, url: URL): Language {
  const cookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]{2})`).exec(
    request.headers.cookie ?? '',
  )?.[1];
  // Most wanted first, by the header's q-values; q=0 means "not this one".
  const accepted = new Negotiator(request.raw).languages();
  return pickLanguage([url.searchParams.get('lng'), cookie, ...accepted]);
}
