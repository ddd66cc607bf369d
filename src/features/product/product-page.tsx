import { Suspense, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { categoryNameIn, productTexts, type Product } from '../../contracts/catalogue';
import { pictureSources } from '../../contracts/product-pictures';
import { PageMeta, useSiteOrigin } from '../../components/page-meta';
import { clampQuantity, quantityLimit, type QuantityLimit } from '../../contracts/order-lines';
import { useToast } from '../../components/toast';
import { useUser, viewerKey } from '../../lib/auth/session';
import { loadSyncEngine } from '../../lib/sync/engine-loader';
import { formatMoney, loadAllTexts, type TextKey } from '../../lib/i18n';
import { useProduct } from '../../lib/sync/use-catalogue';
import { ScreenMeta } from '../screen-meta';

/** Most thumbnails shown under the main picture (docs/product.md#product-detail). */
const MAX_THUMBNAILS = 5;
/** The main picture: half of a wide page, all of a phone's; its thumbnails are 80 px. */
const DETAIL_PICTURE_WIDTH = 600;
const DETAIL_PICTURE_SIZES = '(max-width: 800px) 100vw, 600px';
const THUMBNAIL_WIDTH = 80;

/** A salon's "Add to list": given by the app, its code loads only for a signed-in user. */
type ListControl = ComponentType<{ product: Product; small?: boolean }>;

export function ProductPage({ addToList }: { addToList: ListControl }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const productId = /^\d{1,9}$/.test(id ?? '') ? Number(id) : 0;
  const view = useProduct(productId);

  if (productId === 0 || view.status === 'notFound') {
    return (
      <div className="page">
        <ScreenMeta
          title={t('product.notFound')}
          description={t('meta.notFoundDescription')}
          path={`/products/${id ?? ''}`}
        />
        <div className="empty-state">
          <h1>{t('product.notFound')}</h1>
          <p>{t('product.notFoundText')}</p>
          <Link className="button" to="/products">
            {t('product.backToProducts')}
          </Link>
        </div>
      </div>
    );
  }
  if (view.status === 'loading') {
    return (
      <div className="page">
        <div className="loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('product.loading')}
        </div>
      </div>
    );
  }
  if (view.status === 'error') {
    return (
      <div className="page">
        <div className="error-box" role="alert">
          <p>{view.message ?? t('product.loadError')}</p>
          <Link className="button" to="/products">
            {t('product.backToProducts')}
          </Link>
        </div>
      </div>
    );
  }
  return <ProductDetail product={view.product} addToList={addToList} />;
}

function ProductDetail({
  product: stored,
  addToList: AddToList,
}: {
  product: Product;
  addToList: ListControl;
}) {
  const { t, i18n } = useTranslation();
  // The texts in the viewer's language, each falling back to the Romanian one.
  const product = { ...stored, ...productTexts(stored, i18n.language) };
  const user = useUser();
  // A user who sees prices, shown a copy without one: the device has only a visitor's.
  const priced = viewerKey(user) !== 'visitor';
  const notify = useToast();
  const [selected, setSelected] = useState(0);
  const [quantity, setQuantity] = useState('1');
  const [limit, setLimit] = useState<QuantityLimit | null>(null);
  /**
   * The quantity to add: the one typed, within the stock. A changed one says why under the
   * field (docs/product.md#cart), in texts loaded after the first screen.
   */
  const settle = (): number => {
    const typed = Number(quantity || 1);
    const amount = clampQuantity(typed, product.stock);
    setQuantity(String(amount));
    const found = quantityLimit(typed, product.stock);
    // Kept until the next change: clicking "Add to cart" settles the field again, unchanged.
    if (found) void loadAllTexts().finally(() => setLimit(found));
    return amount;
  };
  const images = product.images.slice(0, MAX_THUMBNAILS);
  const main = images[Math.min(selected, images.length - 1)];
  const categoryName =
    categoryNameIn(product.category, i18n.language) ??
    t(`categories.${product.category.slug}`, { defaultValue: product.category.name });
  const origin = useSiteOrigin();
  // Under "Add to cart": why a typed quantity was changed, and what the viewer needs to order.
  const hint = [
    limit &&
      t(limit.kind === 'least' ? 'cart.limit.leastToAdd' : `cart.limit.${limit.kind}`, {
        count: limit.count,
      }),
    user
      ? product.price !== undefined || priced
        ? ''
        : t('product.verifyToOrder')
      : t('product.addToCartHint'),
  ]
    .filter(Boolean)
    .join(' ');
  const unpriced = user !== null && product.price === undefined;
  // A disabled button is described by what says why (out of stock, no price), and by the hint
  // only when it has text: an empty one would be read as nothing.
  const addDescribedBy =
    [
      !product.inStock && 'product-stock',
      unpriced && 'product-price-notice',
      hint && 'add-to-cart-hint',
    ]
      .filter(Boolean)
      .join(' ') || undefined;

  return (
    <div className="page product-detail">
      <PageMeta
        title={`${product.name} | ${t('meta.titleSuffix')}`}
        description={product.shortDescription || product.description}
        keywords={[...product.tags, categoryName, t('meta.keywords')].join(', ')}
        path={`/products/${product.id}`}
        structuredData={[
          {
            '@context': 'https://schema.org',
            '@type': 'Product',
            name: product.name,
            sku: product.sku,
            // A copy kept on the device before products had barcodes has no `ean` at all.
            ...(product.ean ? { gtin13: product.ean } : {}),
            description: product.description,
            image: product.images.map((path) => `${origin}${path}`),
            category: categoryName,
            brand: { '@type': 'Brand', name: t('app.name') },
            // Offers (prices) only for those allowed to see them; visitors get none.
            ...(product.price !== undefined
              ? {
                  offers: {
                    '@type': 'Offer',
                    price: product.price.toFixed(2),
                    priceCurrency: 'EUR',
                    availability: `https://schema.org/${product.inStock ? 'InStock' : 'OutOfStock'}`,
                  },
                }
              : {}),
          },
        ]}
      />
      <nav aria-label={t('product.breadcrumb')} className="breadcrumb">
        <ol>
          <li>
            <Link to="/">{t('nav.home')}</Link>
          </li>
          <li>
            <Link to="/products">{t('catalogue.title')}</Link>
          </li>
          <li>
            <Link to={`/products?category=${product.categoryId}`}>{categoryName}</Link>
          </li>
          <li aria-current="page">{product.name}</li>
        </ol>
      </nav>

      <div className="product-detail__layout">
        <div className="product-detail__gallery">
          {main ? (
            <img
              className="product-detail__main-image"
              {...pictureSources(main, DETAIL_PICTURE_WIDTH)}
              sizes={DETAIL_PICTURE_SIZES}
              alt={t('product.picture', { n: selected + 1, name: product.name })}
              width="600"
              height="600"
            />
          ) : (
            <span className="product-card__no-image" />
          )}
          {images.length > 1 && (
            <ul className="product-detail__thumbnails">
              {images.map((path, i) => (
                <li key={path}>
                  <button
                    type="button"
                    aria-pressed={i === selected}
                    aria-label={t('product.picture', { n: i + 1, name: product.name })}
                    onClick={() => setSelected(i)}
                  >
                    <img
                      {...pictureSources(path, THUMBNAIL_WIDTH)}
                      sizes="80px"
                      alt=""
                      width="80"
                      height="80"
                    />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>

        <div className="product-detail__info">
          <p className="product-card__category">{categoryName}</p>
          <h1>{product.name}</h1>
          <p className="product-detail__sku">
            {t('product.sku')}: <span>{product.sku}</span>
          </p>
          {product.ean && (
            <p className="product-detail__sku">
              {t('product.ean')}: <span>{product.ean}</span>
            </p>
          )}
          {product.shortDescription && (
            <p className="product-detail__lead">{product.shortDescription}</p>
          )}
          <p
            id="product-stock"
            className={product.inStock ? 'stock stock--in' : 'stock stock--out'}
          >
            {t(product.inStock ? 'product.inStock' : 'product.outOfStock')}
          </p>
          {product.price !== undefined ? (
            <p className="product-detail__price">{formatMoney(product.price, i18n.language)}</p>
          ) : (
            <p id="product-price-notice" className="notice">
              {t(priced ? 'product.noPriceOnDevice' : 'product.priceRestricted')}
            </p>
          )}
          <div className="product-detail__order">
            <label htmlFor="quantity">{t('product.quantity')}</label>
            <input
              id="quantity"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={quantity}
              onChange={(event) => {
                setLimit(null);
                setQuantity(event.target.value);
              }}
              max={Math.max(1, product.stock)}
              aria-describedby={limit ? 'add-to-cart-hint' : undefined}
              onBlur={settle}
            />
            <button
              type="button"
              className="button"
              disabled={!product.inStock || unpriced}
              aria-describedby={addDescribedBy}
              onClick={() => {
                if (!user) return notify(t('cart.loginToAdd'), 'info');
                const amount = settle();
                loadSyncEngine()
                  .then((engine) => engine.addToCart(product.id, amount))
                  .then(
                    ({ limited }) => notify(t(limited ? 'cart.addedRest' : 'cart.added')),
                    (error: { textKey?: TextKey; textParams?: Record<string, unknown> }) =>
                      notify(t(error.textKey ?? 'cart.addFailed', error.textParams ?? {}), 'error'),
                  );
              }}
            >
              {t('product.addToCart')}
            </button>
            {user && (
              <Suspense fallback={null}>
                <AddToList product={stored} />
              </Suspense>
            )}
            {/* Also why a typed quantity was changed, said as it happens. */}
            <p id="add-to-cart-hint" className="hint" role="status">
              {hint}
            </p>
          </div>
          {product.description && (
            <section>
              <h2>{t('product.description')}</h2>
              <p>{product.description}</p>
            </section>
          )}
          {product.tags.length > 0 && (
            <section>
              <h2>{t('product.tags')}</h2>
              <ul className="tags">
                {product.tags.map((tag) => (
                  <li key={tag}>{tag}</li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
    </div>
  );
}
