/**
 * The server's rendering of a first screen (the pages ./contracts/routes marks
 * `serverRendered`): the same app, in the visitor's language, with the data the server
 * read. The page then hydrates this markup instead of building it again, so that a
 * first visit shows content before any script has run. Built by `vite build --ssr` into
 * dist-ssr/ and used by server/first-screens.ts.
 */
import { createInstance, type i18n as I18n } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { StaticRouter } from 'react-router-dom';
import type { Product, ProductPage, ProductQuery } from './contracts/catalogue';
import { DEFAULT_LANGUAGE, type Language } from './contracts/languages';
import { matchRoute, ROUTES } from './contracts/routes';
import { App } from './app/app';
import { SCREENS } from './app/pages';
import { readCatalogueUrl } from './features/catalogue/catalogue-url';
import type { FirstScreen } from './lib/first-screen';
import { addTextFormats } from './lib/i18n/formats';
import en from './locales/en.json';
import it from './locales/it.json';
import ro from './locales/ro.json';

export { FIRST_SCREEN_ELEMENT_ID } from './lib/first-screen';

const TEXTS: Record<Language, Record<string, unknown>> = { ro, en, it };

/** What the server reads for a first screen: the catalogue as a visitor sees it. */
export interface CatalogueReader {
  products(query: ProductQuery): Promise<ProductPage>;
  product(id: number): Promise<Product | null>;
}

export interface RenderedScreen {
  /** 404 for a product that does not exist. */
  status: number;
  /** The page's title, description, canonical link. */
  head: string;
  /** The markup inside the app's root element. */
  body: string;
  data: FirstScreen;
}

/** One i18next per language, made once: rendering only reads it. */
const instances = new Map<Language, Promise<I18n>>();

function textsFor(language: Language): Promise<I18n> {
  let instance = instances.get(language);
  if (!instance) {
    const created = createInstance();
    instance = created
      .use(initReactI18next)
      .init({
        lng: language,
        fallbackLng: DEFAULT_LANGUAGE,
        resources: {
          [language]: { translation: TEXTS[language] },
          [DEFAULT_LANGUAGE]: { translation: TEXTS[DEFAULT_LANGUAGE] },
        },
        interpolation: { escapeValue: false },
      })
      .then(() => {
        addTextFormats(created);
        return created;
      });
    instances.set(language, instance);
  }
  return instance;
}

/** A product id the catalogue can hold; any other address of a product is left to the page. */
const PRODUCT_ID = /^\d{1,9}$/;
/**
 * React renders a page's head tags (title, meta, link) first; they belong in <head>. The
 * server checks at start that they still come out so (server/first-screens.ts).
 */
const HEAD_TAGS = /^((?:<title>[^<]*<\/title>|<meta [^>]*>|<link [^>]*>)*)/;

/** The markup of a first screen, or null for an address the server leaves to the page. */
export async function renderFirstScreen(
  url: URL,
  language: Language,
  reader: CatalogueReader,
): Promise<RenderedScreen | null> {
  const match = matchRoute(url.pathname, ROUTES);
  if (!match?.route.serverRendered) return null;
  const data: FirstScreen = { language, origin: url.origin };
  let status = 200;
  if (match.route.id === 'products') {
    const { query } = readCatalogueUrl(url.searchParams);
    data.catalogue = { key: JSON.stringify(query), page: await reader.products(query) };
  } else if (match.route.id === 'product') {
    const id = match.params.id ?? '';
    if (!PRODUCT_ID.test(id)) return null;
    const product = await reader.product(Number(id));
    data.product = { id: Number(id), product };
    if (!product) status = 404;
  }
  const { page } = SCREENS[match.route.id];
  await page.preloadCode();

  const i18n = await textsFor(language);
  const markup = renderToString(
    <I18nextProvider i18n={i18n}>
      <App
        firstScreen={data}
        router={(routes) => (
          <StaticRouter location={`${url.pathname}${url.search}`}>{routes}</StaticRouter>
        )}
      />
    </I18nextProvider>,
  );
  const head = HEAD_TAGS.exec(markup)?.[1] ?? '';
  return { status, head, body: markup.slice(head.length), data };
}
