import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { canSeePrices } from '../../contracts/accounts';
import { lineThumbnail, paymentBadge, trackingNumberOf } from '../../contracts/order-lines';
import { OrderChanges } from './order-changes';
import { OrderLinesTable } from '../../components/order-lines-table';
import { canCancel, type Order } from '../../contracts/orders';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Modal } from '../../components/modal';
import { ScreenMeta } from '../screen-meta';
import { useToast } from '../../components/toast';
import { useUser } from '../../lib/auth/session';
import type { StoredOrder } from '../../lib/db/db';
import { formatDateTime, formatMoney } from '../../lib/i18n';
import { useConnectivity } from '../../lib/sync/connectivity';
import { queueCancellation } from '../../lib/sync/outbox';
import { heldBackBy } from '../../lib/sync/outbox-rules';
import { CANCEL_TOPIC, requestSync } from '../../lib/sync/device';
import { useOrders, useOutboxEntries } from '../../lib/sync/use-device-data';
import type { ReorderPlan } from '../../lib/sync/reorder';
import { ReorderDialog } from './reorder-dialog';
import '../screens.css';

/** Lines shown on an order's card before "+N more items". */
const PREVIEW_LINES = 3;

export { AddToList } from './add-to-list';

/** The quick order (/orders/quick): a chunk of its own, loaded when it is opened. */
const QuickOrderPage = lazy(() =>
  import('./quick-order-page').then((m) => ({ default: m.QuickOrderPage })),
);

/** The order lists (/orders/lists): a chunk of their own too. */
const OrderListsPage = lazy(() =>
  import('./lists-page').then((m) => ({ default: m.OrderListsPage })),
);

/** Shown instead of the pro-forma when its code could not be loaded (offline before it was kept). */
function ProFormaUnavailable() {
  const { t } = useTranslation();
  return <p className="hint">{t('proForma.problem.offline')}</p>;
}

/** An order's pro-forma, in its details: the PDF's own code loads only when one is made. */
const OrderProForma = lazy(() =>
  import('./order-pro-forma').then(
    (m) => ({ default: m.OrderProForma }),
    () => ({ default: ProFormaUnavailable }),
  ),
);

/**
 * The salon's orders (/orders), its quick order (/orders/quick, `quick`) or its order lists
 * (/orders/lists, `lists`).
 */
export function OrdersPage({ quick = false, lists = false }: { quick?: boolean; lists?: boolean }) {
  return quick ? <QuickOrderPage /> : lists ? <OrderListsPage /> : <OrderList />;
}

/** What "Order again" put into the cart, for which order. */
interface Reordered {
  stored: StoredOrder;
  plan: ReorderPlan;
}

function OrderList() {
  const { t } = useTranslation();
  const orders = useOrders();
  const entries = useOutboxEntries();
  const [details, setDetails] = useState<StoredOrder | null>(null);
  const [cancelling, setCancelling] = useState<Order | null>(null);
  const [reason, setReason] = useState('');
  /** The order whose cancellation the device could not keep, said in its dialog. */
  const [cancelProblem, setCancelProblem] = useState<number | null>(null);
  const saving = useRef(false);
  const openOrder = useRef(cancelling);
  openOrder.current = cancelling;
  const [reordering, setReordering] = useState<string | null>(null);
  const [reordered, setReordered] = useState<Reordered | null>(null);
  const notify = useToast();
  const connectivity = useConnectivity();
  // "Order again" for a company that may order (its prices are on the device).
  const mayOrder = canSeePrices(useUser()?.company);

  useEffect(() => {
    requestSync({ refresh: true });
  }, []);

  /** Whether a waiting order is held back by a change the server refused. */
  const heldBack = (stored: StoredOrder) => {
    const entry = entries.find(
      (e) => e.payload.kind === 'checkout' && e.payload.localRef === stored.localRef,
    );
    return entry !== undefined && heldBackBy(entry, entries) !== undefined;
  };

  /** A cancellation of the order on the device: still to be sent, or refused by the server. */
  const cancellationOf = (order: Order): Cancellation | undefined => {
    const entry = entries.find(
      (e) => e.payload.kind === 'order.cancel' && e.payload.orderId === order.id,
    );
    if (!entry) return undefined;
    return entry.state === 'attention' ? 'refused' : 'waiting';
  };

  const orderAgain = async (stored: StoredOrder) => {
    if (reordering) return;
    setReordering(stored.ref);
    try {
      const { orderAgain: addLines } = await import('../../lib/sync/reorder');
      const plan = await addLines(stored.order.orderItems);
      setDetails(null);
      setReordered({ stored, plan });
    } catch {
      notify(t('orders.reorder.failed'), 'error');
    } finally {
      setReordering(null);
    }
  };
  const reorderButton = (stored: StoredOrder) =>
    mayOrder && (
      <button
        type="button"
        className="button button--ghost"
        disabled={reordering !== null}
        aria-busy={reordering === stored.ref}
        onClick={() => void orderAgain(stored)}
      >
        {reordering === stored.ref ? t('orders.reorder.adding') : t('orders.reorder.button')}
      </button>
    );

  return (
    <div className="page orders">
      <ScreenMeta title={t('orders.title')} description={t('orders.description')} path="/orders" />
      <h1>{t('orders.title')}</h1>
      <p className="orders__quick">
        <Link to="/orders/quick">{t('orders.quickOrder')}</Link>
        {' · '}
        {t('orders.quickOrderText')}
      </p>
      {mayOrder && (
        <p className="orders__quick">
          <Link to="/orders/lists">{t('lists.title')}</Link>
          {' · '}
          {t('lists.description')}
        </p>
      )}
      {connectivity === 'offline' && (
        <p className="notice notice--offline">{t('orders.fromDevice')}</p>
      )}
      {orders !== undefined && orders.length === 0 && (
        <div className="empty-state">
          <h2>{t('orders.emptyTitle')}</h2>
          <p>{t('orders.emptyText')}</p>
          <Link className="button" to="/products">
            {t('cart.continue')}
          </Link>
        </div>
      )}
      <ul className="order-list">
        {(orders ?? []).map((stored) => (
          <li key={stored.ref}>
            <OrderCard
              stored={stored}
              cancellation={cancellationOf(stored.order)}
              heldBack={stored.state === 'waiting' && heldBack(stored)}
              onDetails={() => setDetails(stored)}
              orderAgain={reorderButton(stored)}
              onCancel={() => {
                setReason('');
                setCancelProblem(null);
                setCancelling(stored.order);
              }}
            />
          </li>
        ))}
      </ul>
      <OrderDetails
        stored={details}
        orderAgain={details && reorderButton(details)}
        onClose={() => setDetails(null)}
      />
      <ReorderDialog
        open={reordered !== null}
        order={reordered && orderReference(reordered.stored)}
        plan={reordered?.plan ?? null}
        onClose={() => setReordered(null)}
      />
      <ConfirmDialog
        open={cancelling !== null}
        title={t('orders.cancelTitle', { number: cancelling?.orderNumber ?? '' })}
        confirmLabel={t('orders.cancelConfirm')}
        cancelLabel={t('orders.keep')}
        danger
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          const order = cancelling;
          if (!order || saving.current) return;
          saving.current = true;
          setCancelProblem(null);
          queueCancellation(order, reason.trim() || t('orders.defaultReason'))
            .then(
              () => {
                // Online it goes at once, and "Order … was cancelled." replaces this when it did.
                notify(
                  t(
                    connectivity === 'online'
                      ? 'orders.cancelQueued'
                      : 'orders.cancelQueuedOffline',
                  ),
                  'info',
                  CANCEL_TOPIC,
                );
                setCancelling((open) => (open === order ? null : open));
              },
              // Not kept on the device: the dialog stays open with the reason typed, and
              // says so inside it (a toast would be behind the dialog); closed meanwhile,
              // a toast says it.
              () => {
                if (openOrder.current === order) setCancelProblem(order.id);
                else notify(t('orders.cancelNotSaved'), 'error', CANCEL_TOPIC);
              },
            )
            .finally(() => (saving.current = false));
        }}
      >
        {cancelProblem !== null && cancelProblem === cancelling?.id && (
          <Banner kind="error">{t('orders.cancelNotSaved')}</Banner>
        )}
        <p>{t('orders.cancelText')}</p>
        <div className="form-field">
          <label htmlFor="cancel-reason">{t('orders.reason')}</label>
          <textarea
            id="cancel-reason"
            rows={3}
            maxLength={1000}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
      </ConfirmDialog>
    </div>
  );
}

/** An order the company's sales rep placed for it: who, and when. */
function PlacedBy({ rep, at }: { rep: NonNullable<Order['placedBy']>; at: string }) {
  const { t, i18n } = useTranslation();
  return t('orders.placedBy', {
    name: `${rep.firstName} ${rep.lastName}`.trim(),
    date: formatDateTime(at, i18n.language),
  });
}

/** The state of a cancellation asked for on the device. */
type Cancellation = 'waiting' | 'refused';

function StatusBadges({ stored }: { stored: StoredOrder }) {
  const { t } = useTranslation();
  if (stored.state !== 'synced') {
    return (
      <span className={`chip chip--${stored.state === 'attention' ? 'rejected' : 'pending'}`}>
        {t(`orders.local.${stored.state}`)}
      </span>
    );
  }
  return (
    <>
      <span className={`chip chip--status-${stored.order.status.toLowerCase()}`}>
        {t(`orders.status.${stored.order.status}`)}
      </span>{' '}
      <span className="chip">{t(`orders.payment.${paymentBadge(stored.order)}`)}</span>
    </>
  );
}

function OrderCard({
  stored,
  cancellation,
  heldBack,
  onDetails,
  orderAgain,
  onCancel,
}: {
  stored: StoredOrder;
  cancellation: Cancellation | undefined;
  /** Waiting, and held back by a change the server refused. */
  heldBack: boolean;
  onDetails: () => void;
  orderAgain: ReactNode;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { order } = stored;
  const synced = stored.state === 'synced';
  const tracking = trackingNumberOf(order);
  const more = order.orderItems.length - PREVIEW_LINES;
  return (
    <article
      className="card order-card"
      data-testid="order-card"
      aria-labelledby={`order-${stored.ref}`}
    >
      <header className="order-card__header">
        <h2 id={`order-${stored.ref}`}>
          {synced
            ? t('orders.number', { number: order.orderNumber })
            : t('orders.localNumber', { ref: stored.localRef })}
        </h2>
        <div>
          <StatusBadges stored={stored} />
        </div>
      </header>
      {!synced && (
        <p className="notice notice--offline">
          {stored.state === 'attention' ? t('orders.attentionText') : t('orders.waitingText')}
        </p>
      )}
      {heldBack && (
        <p className="notice notice--offline" data-testid="order-held-back">
          {t('orders.heldBack')} <Link to="/sync">{t('cart.attentionLink')}</Link>
        </p>
      )}
      {cancellation === 'refused' && (
        <p className="notice notice--offline" data-testid="cancel-refused">
          {t('orders.cancelRefused')} <Link to="/sync">{t('cart.attentionLink')}</Link>
        </p>
      )}
      {synced && stored.localRef && (
        <p className="hint">{t('orders.sentFrom', { ref: stored.localRef })}</p>
      )}
      <OrderChanges changes={stored.changes} />
      <dl className="order-card__facts">
        <div>
          <dt>{t('orders.created')}</dt>
          <dd>{formatDateTime(order.createdAt, i18n.language)}</dd>
        </div>
        {order.placedBy && (
          <div>
            <dt>{t('orders.placedByLabel')}</dt>
            <dd>
              <PlacedBy rep={order.placedBy} at={order.createdAt} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t('orders.total')}</dt>
          <dd>
            <strong>{formatMoney(order.total, i18n.language)}</strong> {order.currency}
            {!synced && ` · ${t('orders.priceAtSync')}`}
          </dd>
        </div>
        <div>
          <dt>{t('orders.items')}</dt>
          <dd>{t('orders.itemCount', { count: order.itemCount })}</dd>
        </div>
        <div>
          <dt>{t('orders.paymentMethod')}</dt>
          <dd>{t('orders.bankTransfer')}</dd>
        </div>
        {synced && (
          <div>
            <dt>{t('orders.updated')}</dt>
            <dd>{formatDateTime(order.updatedAt, i18n.language)}</dd>
          </div>
        )}
        {tracking && (
          <div>
            <dt>{t('orders.trackingNumber')}</dt>
            <dd>{tracking}</dd>
          </div>
        )}
      </dl>
      <ul className="order-card__lines">
        {order.orderItems.slice(0, PREVIEW_LINES).map((item) => (
          <li key={item.id}>
            {item.quantity} × {item.productName}
          </li>
        ))}
        {more > 0 && <li>{t('orders.moreItems', { count: more })}</li>}
      </ul>
      <div className="card__actions">
        <button type="button" className="button button--ghost" onClick={onDetails}>
          {t('orders.viewDetails')}
        </button>
        {orderAgain}
        {synced && canCancel(order.status) && cancellation !== 'refused' && (
          <button
            type="button"
            className="button button--danger"
            onClick={onCancel}
            disabled={cancellation === 'waiting'}
          >
            {cancellation === 'waiting' ? t('orders.cancelWaiting') : t('orders.cancel')}
          </button>
        )}
      </div>
    </article>
  );
}

/** "Order FP-…", or "Order L-… (not yet sent)" while it waits. */
function orderName(stored: StoredOrder, t: TFunction): string {
  return stored.state === 'synced'
    ? t('orders.number', { number: stored.order.orderNumber })
    : t('orders.localNumber', { ref: stored.localRef });
}

/** The order's number, or the device's reference while it waits. */
const orderReference = (stored: StoredOrder): string =>
  stored.state === 'synced' ? stored.order.orderNumber : (stored.localRef ?? '');

function OrderDetails({
  stored,
  orderAgain,
  onClose,
}: {
  stored: StoredOrder | null;
  orderAgain: ReactNode;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const order = stored?.order;
  const money = (amount: number) => formatMoney(amount, i18n.language);
  const title = stored ? orderName(stored, t) : '';
  return (
    <Modal open={stored !== null} title={title} onClose={onClose} className="dialog--wide">
      {stored && order && (
        <>
          <dl className="details">
            <dt>{t('orders.statusLabel')}</dt>
            <dd>
              <StatusBadges stored={stored} />
            </dd>
            <dt>{t('orders.total')}</dt>
            <dd>{money(order.total)}</dd>
            <dt>{t('orders.created')}</dt>
            <dd>{formatDateTime(order.createdAt, i18n.language)}</dd>
            {order.placedBy && (
              <>
                <dt>{t('orders.placedByLabel')}</dt>
                <dd>
                  <PlacedBy rep={order.placedBy} at={order.createdAt} />
                </dd>
              </>
            )}
            <dt>{t('orders.shipTo')}</dt>
            <dd>
              {order.shippingAddress.firstName} {order.shippingAddress.lastName}
              <br />
              {order.shippingAddress.street}
              <br />
              {order.shippingAddress.city} {order.shippingAddress.zipCode}
              <br />
              {order.shippingAddress.country} · {order.shippingAddress.phone}
            </dd>
            {order.notes && (
              <>
                <dt>{t('orders.notes')}</dt>
                <dd className="order-notes">{order.notes}</dd>
              </>
            )}
            {trackingNumberOf(order) && (
              <>
                <dt>{t('orders.trackingNumber')}</dt>
                <dd>{trackingNumberOf(order)}</dd>
              </>
            )}
            {order.cancellationReason && (
              <>
                <dt>{t('orders.reason')}</dt>
                <dd>{order.cancellationReason}</dd>
              </>
            )}
          </dl>
          <OrderLinesTable
            lines={order.orderItems}
            labels={{
              product: t('orders.product'),
              quantity: t('orders.quantity'),
              unitPrice: t('orders.unitPrice'),
              lineTotal: t('orders.lineTotal'),
            }}
            money={money}
            thumbnail={(item) => lineThumbnail(item.product.images)}
          />
          <Suspense fallback={null}>
            <OrderProForma stored={stored} />
          </Suspense>
          <div className="dialog__actions">
            {orderAgain}
            <button type="button" className="button" onClick={onClose}>
              {t('orders.close')}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
