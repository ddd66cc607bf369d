import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { canSeePrices } from '../../contracts/accounts';
import { lineThumbnail } from '../../contracts/order-lines';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ScreenMeta } from '../screen-meta';
import { QuantityStepper } from '../../components/form-field';
import { useToast } from '../../components/toast';
import { useUser } from '../../lib/auth/session';
import { formatMoney } from '../../lib/i18n';
import {
  clearCart,
  EmptyCartError,
  queueCheckout,
  removeFromCart,
  setCartQuantity,
} from '../../lib/sync/outbox';
import { ORDER_TOPIC, requestSync } from '../../lib/sync/device';
import { useSendingProblem } from '../../lib/sync/use-sync-state';
import { getConnectivity } from '../../lib/sync/connectivity';
import { useCart } from '../../lib/sync/use-device-data';
import { CheckoutForm } from './checkout-form';
import '../screens.css';
import { useDeviceWrite } from '../use-device-write';
import { UnverifiedNotice } from './unverified-notice';

export function CartPage() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const notify = useToast();
  const { cart, waiting, refused, loaded } = useCart();
  const sendingProblem = useSendingProblem();
  const [confirmClear, setConfirmClear] = useState(false);
  const [checkingOut, setCheckingOut] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const approved = canSeePrices(user?.company);
  // Another device may have changed the cart: read the server's once the outbox is sent.
  useEffect(() => {
    requestSync({ refresh: true });
  }, []);
  // "Your cart is empty" is over once lines are back (added on another tab or device).
  const hasLines = cart.items.length > 0;
  useEffect(() => {
    if (hasLines) setProblem((shown) => (shown === t('cart.empty') ? null : shown));
  }, [hasLines, t]);
  // The checkout form hides while the cart reads empty (below). Focus in it would fall to the
  // page's body: it goes to the page's heading, and back to the field it left when the form
  // shows again, unless the user has moved it meanwhile. Before paint, while still in the form.
  const checkoutHidden = !hasLines;
  const heading = useRef<HTMLHeadingElement>(null);
  const checkoutArea = useRef<HTMLDivElement>(null);
  const leftField = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (checkoutHidden) {
      if (active instanceof HTMLElement && checkoutArea.current?.contains(active)) {
        leftField.current = active;
        heading.current?.focus();
      }
      return;
    }
    const field = leftField.current;
    leftField.current = null;
    if (field && active === heading.current && checkoutArea.current?.contains(field)) {
      field.focus();
    }
  }, [checkoutHidden]);
  const money = (amount: number) => formatMoney(amount, i18n.language);
  const change = useDeviceWrite('cart');

  if (!user) return null;

  const startCheckout = () => {
    if (cart.items.length === 0) return setProblem(t('cart.empty'));
    if (!approved) return setProblem(t('cart.companyInactive'));
    setProblem(null);
    setCheckingOut(true);
  };

  return (
    <div className="page cart">
      <ScreenMeta title={t('cart.title')} description={t('cart.description')} path="/cart" />
      <h1 ref={heading} tabIndex={-1}>
        {t('cart.title')}
      </h1>
      <UnverifiedNotice company={user?.company} />
      {waiting > 0 && (
        <p className="notice" data-testid="cart-waiting">
          {t('cart.waiting', { count: waiting })}{' '}
          {sendingProblem ? t(`sync.problem.${sendingProblem}`) : ''}
        </p>
      )}
      {refused > 0 && (
        <p className="notice notice--offline" data-testid="cart-refused">
          {t('cart.attention', { count: refused })}{' '}
          <Link to="/sync">{t('cart.attentionLink')}</Link>
        </p>
      )}
      {problem && <Banner kind="error">{problem}</Banner>}

      {loaded && cart.items.length === 0 ? (
        <div className="empty-state">
          <h2>{t('cart.emptyTitle')}</h2>
          <p>{t('cart.emptyText')}</p>
          <Link className="button" to="/products">
            {t('cart.continue')}
          </Link>{' '}
          <Link className="button button--ghost" to="/orders/quick">
            {t('cart.quickOrder')}
          </Link>
        </div>
      ) : (
        <div className="cart__layout">
          <ul className="cart__lines" aria-label={t('cart.linesLabel')}>
            {cart.items.map((item) => {
              const image = lineThumbnail(item.product.images);
              return (
                <li key={item.productId} className="cart-line" data-testid="cart-line">
                  {image ? (
                    <img src={image} alt="" width="96" height="96" />
                  ) : (
                    <span className="product-card__no-image" />
                  )}
                  <div className="cart-line__info">
                    <Link to={`/products/${item.productId}`} className="cart-line__name">
                      {item.product.name}
                    </Link>
                    <span className="cart-line__sku">{item.product.sku}</span>
                    <span>
                      {t('cart.unitPrice')}: {money(item.price)}
                    </span>
                  </div>
                  <QuantityStepper
                    quantity={item.quantity}
                    stock={item.product.stock}
                    label={t('cart.quantityOf', { name: item.product.name })}
                    labels={{
                      decrease: t('cart.decrease', { name: item.product.name }),
                      increase: t('cart.increase', { name: item.product.name }),
                      update: t('cart.update'),
                      limited: (limit) => t(`cart.limit.${limit.kind}`, { count: limit.count }),
                    }}
                    onChange={(quantity) =>
                      change(
                        quantity === 0
                          ? removeFromCart(item.productId)
                          : setCartQuantity(item.productId, quantity),
                      )
                    }
                  />
                  <strong className="cart-line__total">{money(item.lineTotal)}</strong>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-label={t('cart.removeLine', { name: item.product.name })}
                    onClick={() => void change(removeFromCart(item.productId))}
                  >
                    {t('cart.remove')}
                  </button>
                </li>
              );
            })}
          </ul>
          <aside className="card cart__summary" aria-labelledby="summary-title">
            <h2 id="summary-title">{t('cart.summary')}</h2>
            <dl className="details">
              <dt>{t('cart.subtotal')}</dt>
              <dd>{money(cart.subtotal)}</dd>
              <dt>{t('cart.shipping')}</dt>
              <dd>{t('cart.tbd')}</dd>
              <dt>{t('cart.tax')}</dt>
              <dd>{t('cart.tbd')}</dd>
              <dt>{t('cart.total')}</dt>
              <dd>
                <strong data-testid="cart-total">{money(cart.total)}</strong>
              </dd>
            </dl>
            <p className="hint">{t('cart.itemCount', { count: cart.itemCount })}</p>
            <button
              type="button"
              className="button button--large"
              onClick={startCheckout}
              disabled={checkingOut}
            >
              {t('cart.checkout')}
            </button>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => setConfirmClear(true)}
            >
              {t('cart.clear')}
            </button>
            <Link to="/products">{t('cart.continue')}</Link>
            <Link to="/orders/quick">{t('cart.quickOrder')}</Link>
          </aside>
        </div>
      )}

      {checkingOut && (
        <div ref={checkoutArea}>
          <CheckoutForm
            user={user}
            // Hidden, not closed, while the cart reads empty (a read of the server's cart on
            // its way, a line removed and added back): the address typed so far stays.
            hidden={checkoutHidden}
            busy={busy}
            onCancel={() => setCheckingOut(false)}
            onSubmit={(address, notes) => {
              setBusy(true);
              void queueCheckout(address, notes)
                .then(() => {
                  notify(
                    getConnectivity() === 'online' ? t('checkout.sending') : t('checkout.queued'),
                    'info',
                    ORDER_TOPIC,
                  );
                  void navigate('/orders');
                })
                .catch((error: unknown) =>
                  setProblem(t(error instanceof EmptyCartError ? 'cart.empty' : 'checkout.failed')),
                )
                .finally(() => setBusy(false));
            }}
          />
        </div>
      )}

      <ConfirmDialog
        open={confirmClear}
        title={t('cart.clearTitle')}
        confirmLabel={t('cart.clear')}
        cancelLabel={t('common.cancel')}
        danger
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => {
          setConfirmClear(false);
          void change(clearCart());
        }}
      >
        <p>{t('cart.clearText')}</p>
      </ConfirmDialog>
    </div>
  );
}
