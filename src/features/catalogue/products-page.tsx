import { Suspense, useEffect, useId, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import {
  categoryNameIn,
  productTexts,
  SORT_OPTIONS,
  type Product,
  type SortBy,
} from '../../contracts/catalogue';
import { ScreenMeta } from '../screen-meta';
import { Pagination } from '../../components/pagination';
import { ProductCard } from '../../components/product-card';
import { useToast } from '../../components/toast';
import { useUser } from '../../lib/auth/session';
import { keepApp } from '../../lib/kept-on-device';
import { useTypingBeforeHydration } from '../../lib/typing-before-hydration';
import { formatMoney, formatTime, loadAllTexts, type TextKey } from '../../lib/i18n';
import { loadSyncEngine } from '../../lib/sync/engine-loader';
import { useCatalogueQuery, useCategories } from '../../lib/sync/use-catalogue';
import { useUrlQuery } from '../../lib/use-url-query';
import {
  applyCatalogueChange,
  readCatalogueUrl,
  writeCatalogueUrl,
  type CatalogueChange,
} from './catalogue-url';

/** Cards whose pictures are on screen at once on a phone or a tablet: loaded first. */
const PROMINENT_CARDS = 2;

/** Pause in typing after which the search runs, so that each key does not start a query. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * The catalogue (/products). `addToList` is a salon's "Add to list" on each card: given by
 * the app, its code loads only for a signed-in user.
 */
export function ProductsPage({
  addToList: AddToList,
}: {
  addToList: ComponentType<{ product: Product; small?: boolean }>;
}) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useUrlQuery();
  const state = readCatalogueUrl(params);
  const { query, layout } = state;
  const view = useCatalogueQuery(query);
  const categories = useCategories();
  const [filtersOpen, setFiltersOpen] = useState(
    query.categoryId !== undefined || query.sortBy !== 'name',
  );
  // The filters list the categories the device keeps: a visitor who opens them stays, and
  // the app with its copy of the catalogue is kept (as on a second screen).
  useEffect(() => {
    if (filtersOpen) keepApp();
  }, [filtersOpen]);
  const [draft, setDraft] = useState(query.search);
  const panelId = useId();
  const user = useUser();
  const notify = useToast();
  // The cart's messages come with the texts loaded after the first screen.
  const say = (key: TextKey, kind?: 'error' | 'info', params?: Record<string, unknown>) =>
    void loadAllTexts().finally(() => notify(t(key, params ?? {}), kind));
  const addOne = (productId: number) => {
    if (!user) return say('cart.loginToAdd', 'info');
    loadSyncEngine()
      .then((engine) => engine.addToCart(productId, 1))
      .then(
        ({ limited }) => say(limited ? 'cart.addedRest' : 'cart.added'),
        (error: { textKey?: TextKey; textParams?: Record<string, unknown> }) =>
          say(error.textKey ?? 'cart.addFailed', 'error', error.textParams),
      );
  };

  const go = (change: CatalogueChange, replace = false) =>
    setParams((current) => applyCatalogueChange(current, change), { replace });

  // Keep the box in step when the address changes (back button, a footer link).
  useEffect(() => {
    setDraft(query.search);
  }, [query.search]);
  // Typed before the page took over the server's screen: kept (declared after the line above).
  useTypingBeforeHydration('catalogue-search', setDraft);
  useEffect(() => {
    if (draft === query.search) return;
    const timer = setTimeout(() => go({ search: draft }, true), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // `go` applies to the address as it is when the timer fires.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft, query.search]);

  const categoryName = (id: number): string => {
    const category = categories.find((c) => c.id === id);
    if (!category) return '';
    return (
      categoryNameIn(category, i18n.language) ??
      t(`categories.${category.slug}`, { defaultValue: category.name })
    );
  };

  // The same words on every card: looked up once, not once per card (a page of cards on a
  // slow phone is otherwise one long task of lookups).
  const cardTexts = {
    priceRestricted: t('product.priceRestricted'),
    inStock: t('product.inStock'),
    outOfStock: t('product.outOfStock'),
    details: t('product.viewDetails'),
    add: t('product.addToCart'),
  };

  // Where the products shown come from, when it is the device's copy. Offline it heads the
  // page (it appears with the offline banner); online it comes after the products, since it
  // appears when the copy is ready, often while the user is about to tap a card: above
  // them, it would push the card away from the finger.
  const offline = view.status === 'ready' && view.offline;
  const source = view.status === 'ready' && view.source === 'device' && view.syncedAt && (
    <p className={offline ? 'notice notice--offline' : 'notice'} data-testid="catalogue-source">
      {t(offline ? 'catalogue.offlineNotice' : 'catalogue.savedOnDevice', {
        time: formatTime(view.syncedAt, i18n.language),
      })}
    </p>
  );

  return (
    <div className="page catalogue">
      <ScreenMeta
        title={t('catalogue.title')}
        description={t('meta.productsDescription')}
        path="/products"
      />
      <header className="page__header">
        <h1>{t('catalogue.title')}</h1>
      </header>

      <div className="catalogue__toolbar">
        <form
          className="catalogue__search"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            go({ search: draft });
          }}
        >
          <label htmlFor="catalogue-search" className="visually-hidden">
            {t('catalogue.searchLabel')}
          </label>
          <input
            id="catalogue-search"
            // Named, so that a search sent before hydration still works.
            name="search"
            type="search"
            value={draft}
            maxLength={200}
            placeholder={t('catalogue.searchPlaceholder')}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="button">
            {t('catalogue.search')}
          </button>
        </form>
        <button
          type="button"
          className="button button--ghost"
          aria-expanded={filtersOpen}
          aria-controls={panelId}
          onClick={() => setFiltersOpen((open) => !open)}
        >
          {t('catalogue.filters')}
        </button>
        <div className="catalogue__layout" role="group" aria-label={t('catalogue.view.label')}>
          {(['grid', 'list'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className="button button--ghost"
              aria-pressed={layout === option}
              onClick={() => go({ layout: option }, true)}
            >
              {t(`catalogue.view.${option}`)}
            </button>
          ))}
        </div>
      </div>

      <div id={panelId} className="catalogue__filters" hidden={!filtersOpen}>
        <label>
          {t('catalogue.category')}
          <select
            value={query.categoryId ?? ''}
            onChange={(event) =>
              go({ categoryId: event.target.value ? Number(event.target.value) : undefined })
            }
          >
            <option value="">{t('catalogue.allCategories')}</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {categoryName(category.id)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('catalogue.sortBy')}
          <select
            value={query.sortBy}
            onChange={(event) => go({ sortBy: event.target.value as SortBy })}
          >
            {SORT_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {t(`catalogue.sort.${option}`)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            setDraft('');
            go({ search: '', categoryId: undefined, sortBy: 'name' });
          }}
        >
          {t('catalogue.clearFilters')}
        </button>
      </div>

      {offline && source}

      <p className="catalogue__count" role="status">
        {view.status === 'ready'
          ? t('catalogue.resultCount', { count: view.page.pagination.totalProducts })
          : ''}
      </p>

      {view.status === 'loading' && (
        <div className="loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('catalogue.loading')}
        </div>
      )}

      {view.status === 'error' && (
        <div className="error-box" role="alert">
          <p>
            {view.message ?? t(view.offline ? 'catalogue.offlineEmpty' : 'catalogue.loadError')}
          </p>
          <button type="button" className="button" onClick={view.retry}>
            {t('catalogue.retry')}
          </button>
        </div>
      )}

      {view.status === 'ready' && view.page.products.length === 0 && (
        <div className="empty-state">
          <h2>{t('catalogue.noProducts')}</h2>
          <p>{t('catalogue.noProductsHint')}</p>
        </div>
      )}

      {view.status === 'ready' && view.page.products.length > 0 && (
        <div className={`product-grid product-grid--${layout}`}>
          {view.page.products.map((product, index) => (
            <ProductCard
              key={product.id}
              prominent={index < PROMINENT_CARDS}
              product={{ ...product, ...productTexts(product, i18n.language) }}
              layout={layout}
              categoryName={categoryName(product.categoryId) || product.category.name}
              priceVisible={product.price !== undefined}
              priceText={
                product.price !== undefined
                  ? formatMoney(product.price, i18n.language)
                  : cardTexts.priceRestricted
              }
              stockText={product.inStock ? cardTexts.inStock : cardTexts.outOfStock}
              detailsText={cardTexts.details}
              addLabel={cardTexts.add}
              addDisabled={!product.inStock || (user !== null && product.price === undefined)}
              onAdd={() => addOne(product.id)}
              more={
                user && (
                  <Suspense fallback={null}>
                    <AddToList product={product} small />
                  </Suspense>
                )
              }
            />
          ))}
        </div>
      )}

      {view.status === 'ready' && (
        <Pagination
          page={query.page}
          totalPages={view.page.pagination.totalPages}
          hrefFor={(page) => writeCatalogueUrl({ query: { ...query, page }, layout })}
          labels={{
            nav: t('pagination.label'),
            previous: t('pagination.previous'),
            next: t('pagination.next'),
            page: (page) => t('pagination.page', { page }),
          }}
        />
      )}

      {!offline && source}
    </div>
  );
}
