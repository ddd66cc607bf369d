import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Product } from '../contracts/catalogue';
import { pictureSources } from '../contracts/product-pictures';

/**
 * How wide a card's picture is shown: a grid column of at least 240 px (two across a phone,
 * list rows smaller), at most about 400 px. The browser picks the file from the srcset.
 */
const CARD_PICTURE_WIDTH = 400;
const CARD_PICTURE_SIZES = '(max-width: 560px) 50vw, 400px';

export interface ProductCardProps {
  product: Product;
  layout: 'grid' | 'list';
  categoryName: string;
  /** The price as the viewer may see it, or the restriction message. */
  priceText: string;
  priceVisible: boolean;
  stockText: string;
  detailsText: string;
  addLabel: string;
  addDisabled: boolean;
  onAdd: () => void;
  /** An action after the others (a salon's "Add to list"). */
  more?: ReactNode;
  /** One of the first cards on screen: its picture loads at once, before anything else. */
  prominent?: boolean;
}

export function ProductCard({
  product,
  layout,
  categoryName,
  priceText,
  priceVisible,
  stockText,
  detailsText,
  addLabel,
  addDisabled,
  onAdd,
  more,
  prominent = false,
}: ProductCardProps) {
  const image = product.images[0];
  return (
    <article className={`product-card product-card--${layout}`} data-testid="product-card">
      <Link
        to={`/products/${product.id}`}
        className="product-card__image"
        tabIndex={-1}
        aria-hidden="true"
      >
        {image ? (
          <img
            {...pictureSources(image, CARD_PICTURE_WIDTH)}
            sizes={CARD_PICTURE_SIZES}
            alt=""
            loading={prominent ? 'eager' : 'lazy'}
            fetchPriority={prominent ? 'high' : 'auto'}
            width="400"
            height="400"
          />
        ) : (
          <span className="product-card__no-image" />
        )}
      </Link>
      <div className="product-card__body">
        <p className="product-card__category">{categoryName}</p>
        <h2 className="product-card__name">
          <Link to={`/products/${product.id}`}>{product.name}</Link>
        </h2>
        <p className="product-card__sku">{product.sku}</p>
        <p className="product-card__summary">{product.shortDescription}</p>
        <p
          className={
            priceVisible ? 'product-card__price' : 'product-card__price product-card__price--hidden'
          }
        >
          {priceText}
        </p>
        <p className={product.inStock ? 'stock stock--in' : 'stock stock--out'}>{stockText}</p>
        <div className="product-card__actions">
          <button
            type="button"
            className="button button--small"
            disabled={addDisabled}
            aria-label={`${addLabel}: ${product.name}`}
            onClick={onAdd}
          >
            {addLabel}
          </button>
          <Link
            to={`/products/${product.id}`}
            className="button button--ghost button--small"
            aria-label={`${detailsText}: ${product.name}`}
          >
            {detailsText}
          </Link>
          {more}
        </div>
      </div>
    </article>
  );
}
