/**
 * The orders of the customer a sales rep is ordering for (docs/product.md#field-sales):
 * those taken on this device (waiting to be sent, needing attention, or sent), and online
 * every order the server has for the customer, whoever placed it. Each has its pro-forma,
 * made on the device, also for an order still waiting.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { ScreenMeta } from '../screen-meta';
import type { RepCustomer } from '../../contracts/field-sales';
import type { Order } from '../../contracts/orders';
import { useUser } from '../../lib/auth/session';
import { fetchCustomerOrders } from '../../lib/api/rep-orders';
import { formatDateTime, formatMoney } from '../../lib/i18n';
import { readRepOrdersOnDevice } from '../../lib/sync/rep-cart';
import { readActingFor } from '../../lib/sync/rep-customers';
import { mergeOrders, type ListedOrder } from './listed-orders';
import { OrderStateChip, ProFormaButton } from './order-parts';
import { sentOrders, useServerRead } from './use-server-read';
import '../screens.css';
import './orders.css';
import { OrderChanges } from '../orders/order-changes';
import { OrderLinesTable } from '../../components/order-lines-table';

const NO_ORDERS: Order[] = [];

/** A salon registered at the booth and not sent yet (a negative id) has none on the server. */
const readCustomerOrders = (customerId: number, signal: AbortSignal) =>
  customerId < 0 ? Promise.resolve(NO_ORDERS) : fetchCustomerOrders(customerId, signal);

/** The order a page arrived with from the cart (`state.placed`), if any. */
function placedRef(state: unknown): string | null {
  const placed = (state as { placed?: unknown } | null)?.placed;
  return typeof placed === 'string' && placed !== '' ? placed : null;
}

/**
 * What became of the order the rep just placed: saved on the device while it waits, then
 * the number the server gave it. Nothing once it needs attention: its card says so.
 */
function PlacedNotice({
  localRef,
  orders,
}: {
  localRef: string;
  orders: readonly ListedOrder[] | undefined;
}) {
  const { t } = useTranslation();
  const placed = orders?.find((listed) => listed.localRef === localRef);
  if (placed?.state === 'attention') return null;
  return (
    <p className="notice" role="status">
      {placed?.state === 'synced'
        ? t('fieldSales.orders.placedSent', { ref: localRef, number: placed.order.orderNumber })
        : t('fieldSales.orders.placed', { ref: localRef })}
    </p>
  );
}

export function RepOrdersPage() {
  const { t } = useTranslation();
  const userId = useUser()?.id ?? null;
  const placed = placedRef(useLocation().state);
  const actingFor = useLiveQuery(() => readActingFor(userId), [userId]);
  const customer = actingFor?.customer ?? null;
  const customerId = customer?.id ?? null;
  const onDevice = useLiveQuery(
    () => (customerId === null ? [] : readRepOrdersOnDevice(userId, customerId)),
    [userId, customerId],
  );
  const server = useServerRead(customerId, readCustomerOrders, sentOrders(onDevice));
  const read = server.state;
  const fromServer = server.value ?? NO_ORDERS;
  const orders = useMemo(
    () => (onDevice === undefined ? undefined : mergeOrders(onDevice, fromServer)),
    [onDevice, fromServer],
  );

  const title = customer
    ? t('fieldSales.orders.title', { name: customer.name })
    : t('fieldSales.orders.titleNone');

  return (
    <div className="page rep-orders">
      <ScreenMeta
        title={title}
        description={t('fieldSales.orders.description')}
        path="/rep/orders"
      />
      <h1>{title}</h1>
      {placed && <PlacedNotice localRef={placed} orders={orders} />}
      {actingFor === undefined ? null : customer === null ? (
        <div className="empty-state">
          <p>{t('fieldSales.orders.noCustomer')}</p>
          <Link className="button" to="/rep">
            {t('fieldSales.orders.chooseCustomer')}
          </Link>
        </div>
      ) : (
        <>
          <p className="page__lead">{t('fieldSales.orders.description')}</p>
          <p className="rep-orders__source" role="status">
            {read === 'done'
              ? t('fieldSales.orders.current')
              : read === 'reading'
                ? t('fieldSales.orders.reading')
                : t(read === 'offline' ? 'fieldSales.orders.offline' : 'fieldSales.orders.failed')}
          </p>
          {orders?.length === 0 && read !== 'reading' && (
            <p className="empty-state">
              {t(read === 'done' ? 'fieldSales.orders.none' : 'fieldSales.orders.noneOnDevice', {
                name: customer.name,
              })}
            </p>
          )}
          <ul className="order-list">
            {(orders ?? []).map((listed) => (
              <li key={listed.key}>
                <OrderCard listed={listed} customer={customer} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function OrderCard({ listed, customer }: { listed: ListedOrder; customer: RepCustomer }) {
  const { t, i18n } = useTranslation();
  const { order, state, localRef } = listed;
  const money = (amount: number) => formatMoney(amount, i18n.language);
  const headingId = `rep-order-${listed.key.replace(/\W/g, '-')}`;
  const rep = order.placedBy;
  return (
    <article className="card order-card" data-testid="rep-order" aria-labelledby={headingId}>
      <header className="order-card__header">
        <h2 id={headingId}>
          {state === 'synced'
            ? t('fieldSales.orders.number', { number: order.orderNumber })
            : t('fieldSales.orders.localNumber', { ref: localRef ?? '' })}
        </h2>
        <div>
          <OrderStateChip listed={listed} />
        </div>
      </header>
      {state === 'waiting' && (
        <p className="notice notice--offline">
          {t('fieldSales.orders.waitingText', { ref: localRef ?? '' })}
        </p>
      )}
      {state === 'attention' && (
        <p className="notice notice--offline">
          {t('fieldSales.orders.attentionText', { ref: localRef ?? '' })}{' '}
          <Link to="/rep/sync">{t('fieldSales.orders.openSync')}</Link>
        </p>
      )}
      {state === 'synced' && localRef && (
        <p className="hint">{t('fieldSales.orders.sentFrom', { ref: localRef })}</p>
      )}
      <OrderChanges changes={listed.changes} />
      <dl className="order-card__facts">
        <div>
          <dt>{t('fieldSales.orders.date')}</dt>
          <dd>{formatDateTime(order.createdAt, i18n.language)}</dd>
        </div>
        <div>
          <dt>{t('fieldSales.orders.placedBy')}</dt>
          <dd>
            {rep
              ? t('fieldSales.orders.placedByRep', {
                  name: `${rep.firstName} ${rep.lastName}`.trim(),
                })
              : t('fieldSales.orders.placedBySalon')}
          </dd>
        </div>
        <div>
          <dt>{t('fieldSales.orders.total')}</dt>
          <dd>
            <strong>{money(order.total)}</strong> {order.currency}
          </dd>
        </div>
      </dl>
      <details className="rep-order__lines">
        <summary>{t('fieldSales.orders.lines', { count: order.orderItems.length })}</summary>
        <OrderLinesTable
          lines={order.orderItems}
          labels={{
            product: t('fieldSales.orders.product'),
            quantity: t('fieldSales.orders.quantity'),
            unitPrice: t('fieldSales.orders.unitPrice'),
            lineTotal: t('fieldSales.orders.lineTotal'),
          }}
          money={money}
          skuLabel={t('fieldSales.orders.sku')}
        />
      </details>
      <ProFormaButton listed={listed} customer={customer} />
    </article>
  );
}
