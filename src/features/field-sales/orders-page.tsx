/**
 * The orders of the customer a sales rep is ordering for (docs/product.md#field-sales):
 * those taken on this device (waiting to be sent, needing attention, or sent), and online
 * every order the server has for the customer, whoever placed it. Each has its pro-forma,
 * made on the device, also for an order still waiting.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { PageMeta } from '../../components/page-meta';
import type { RepCustomer } from '../../contracts/field-sales';
import type { Order } from '../../contracts/orders';
import { useUser } from '../../lib/auth/session';
import type { StoredOrder } from '../../lib/db/db';
import { isNetworkError } from '../../lib/api/errors';
import { fetchCustomerOrders, fetchOrderSignature } from '../../lib/api/rep-orders';
import { formatDateTime, formatMoney } from '../../lib/i18n';
import { getConnectivity, useConnectivity } from '../../lib/sync/connectivity';
import { readRepOrdersOnDevice } from '../../lib/sync/rep-cart';
import { readActingFor } from '../../lib/sync/rep-customers';
import { buildProForma, proFormaFileName, shareOrDownload } from './pro-forma';
import '../screens.css';
import './orders.css';

/** One order of the list: the server's when it has it, with what the device adds. */
interface ListedOrder {
  key: string;
  order: Order;
  state: StoredOrder['state'];
  /** The device's reference of an order taken on it. */
  localRef?: string | undefined;
  /** The customer's signature kept on the device (a PNG in base64). */
  signature?: string | undefined;
  /** Whether the device holds the order: otherwise its signature is asked of the server. */
  onDevice: boolean;
}

type ServerRead =
  | { state: 'reading' | 'offline' | 'failed' }
  | { state: 'done'; customerId: number; orders: Order[] };

const NO_ORDERS: Order[] = [];

const listedFromDevice = (stored: StoredOrder): ListedOrder => ({
  key: stored.ref,
  order: stored.order,
  state: stored.state,
  localRef: stored.localRef,
  signature: stored.signature,
  onDevice: true,
});

/**
 * The device's orders and the server's as one list, newest first. An order both hold is
 * listed once, as the server has it now: by its id once the device knows it was sent, by
 * the device's reference while the device still waits for the answer.
 */
function mergeOrders(onDevice: StoredOrder[], fromServer: Order[]): ListedOrder[] {
  const byId = new Map<number, StoredOrder>();
  const byLocalRef = new Map<string, StoredOrder>();
  for (const stored of onDevice) {
    if (stored.state === 'synced') byId.set(stored.order.id, stored);
    else if (stored.localRef) byLocalRef.set(stored.localRef, stored);
  }
  const taken = new Set<string>();
  const listed = fromServer.map((order): ListedOrder => {
    const stored =
      byId.get(order.id) ?? (order.clientReference ? byLocalRef.get(order.clientReference) : null);
    if (!stored) return { key: `order:${order.id}`, order, state: 'synced', onDevice: false };
    taken.add(stored.ref);
    return { ...listedFromDevice(stored), key: `order:${order.id}`, order, state: 'synced' };
  });
  for (const stored of onDevice) {
    if (!taken.has(stored.ref)) listed.push(listedFromDevice(stored));
  }
  return listed.sort((a, b) => b.order.createdAt.localeCompare(a.order.createdAt));
}

/** The order a page arrived with from the cart (`state.placed`), if any. */
function placedRef(state: unknown): string | null {
  const placed = (state as { placed?: unknown } | null)?.placed;
  return typeof placed === 'string' && placed !== '' ? placed : null;
}

export function RepOrdersPage() {
  const { t } = useTranslation();
  const userId = useUser()?.id ?? null;
  const connectivity = useConnectivity();
  const placed = placedRef(useLocation().state);
  const actingFor = useLiveQuery(() => readActingFor(userId), [userId]);
  const customer = actingFor?.customer ?? null;
  const customerId = customer?.id ?? null;
  const onDevice = useLiveQuery(
    () => (customerId === null ? [] : readRepOrdersOnDevice(userId, customerId)),
    [userId, customerId],
  );
  // The server is asked again when an order of the device has been sent meanwhile.
  const sent = (onDevice ?? [])
    .filter((stored) => stored.state === 'synced')
    .map((stored) => stored.ref)
    .join();
  const [server, setServer] = useState<ServerRead>({ state: 'reading' });

  useEffect(() => {
    if (customerId === null) return;
    // A salon registered at the booth and not sent yet: the server has no orders of it.
    if (customerId < 0) {
      setServer({ state: 'done', customerId, orders: NO_ORDERS });
      return;
    }
    if (connectivity === 'offline') {
      setServer({ state: 'offline' });
      return;
    }
    const abort = new AbortController();
    // What the server said of this customer stays on screen while it is asked again.
    setServer((previous) =>
      previous.state === 'done' && previous.customerId === customerId
        ? previous
        : { state: 'reading' },
    );
    fetchCustomerOrders(customerId, abort.signal).then(
      (orders) => setServer({ state: 'done', customerId, orders }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setServer({ state: isNetworkError(error) ? 'offline' : 'failed' });
      },
    );
    return () => abort.abort();
  }, [customerId, connectivity, sent]);

  // An answer about the customer chosen before is no answer about this one.
  const current = server.state !== 'done' || server.customerId === customerId;
  const read = current ? server.state : 'reading';
  const fromServer = current && server.state === 'done' ? server.orders : NO_ORDERS;
  const orders = useMemo(
    () => (onDevice === undefined ? undefined : mergeOrders(onDevice, fromServer)),
    [onDevice, fromServer],
  );

  const title = customer
    ? t('fieldSales.orders.title', { name: customer.name })
    : t('fieldSales.orders.titleNone');

  return (
    <div className="page rep-orders">
      <PageMeta
        title={`${title} | ${t('meta.titleSuffix')}`}
        description={t('fieldSales.orders.description')}
        keywords={t('meta.keywords')}
        path="/rep/orders"
      />
      <h1>{title}</h1>
      {placed && (
        <p className="notice" role="status">
          {t('fieldSales.orders.placed', { ref: placed })}
        </p>
      )}
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
          {state === 'synced' ? (
            <span className={`chip chip--status-${order.status.toLowerCase()}`}>
              {t(`orders.status.${order.status}`)}
            </span>
          ) : (
            <span className={`chip chip--${state === 'attention' ? 'rejected' : 'pending'}`}>
              {t(
                state === 'attention' ? 'fieldSales.orders.attention' : 'fieldSales.orders.waiting',
              )}
            </span>
          )}
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
        <table className="order-table">
          <thead>
            <tr>
              <th scope="col">{t('fieldSales.orders.product')}</th>
              <th scope="col">{t('fieldSales.orders.quantity')}</th>
              <th scope="col">{t('fieldSales.orders.unitPrice')}</th>
              <th scope="col">{t('fieldSales.orders.lineTotal')}</th>
            </tr>
          </thead>
          <tbody>
            {order.orderItems.map((item, index) => (
              <tr key={`${item.id}-${index}`}>
                <td>
                  {item.productName}
                  <br />
                  <small>
                    {t('fieldSales.orders.sku')} {item.productSku}
                  </small>
                </td>
                <td>{item.quantity}</td>
                <td>{money(item.unitPrice)}</td>
                <td>{money(item.totalPrice)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <ProFormaButton listed={listed} customer={customer} />
    </article>
  );
}

type Making =
  { state: 'idle' } | { state: 'preparing' } | { state: 'done' | 'failed'; text: string };

/**
 * Makes the order's pro-forma in the language the app is shown in (a customer has no
 * language of its own), with the customer's signature: the device's copy, else the
 * server's when online; an order without one, or offline, gets a pro-forma without it.
 */
function ProFormaButton({ listed, customer }: { listed: ListedOrder; customer: RepCustomer }) {
  const { t, i18n } = useTranslation();
  const [making, setMaking] = useState<Making>({ state: 'idle' });

  const signatureOf = async (): Promise<string | null> => {
    if (listed.signature) return listed.signature;
    if (listed.onDevice || getConnectivity() === 'offline') return null;
    try {
      return await fetchOrderSignature(listed.order.id);
    } catch (error) {
      if (isNetworkError(error)) return null;
      throw error;
    }
  };

  const make = async () => {
    setMaking({ state: 'preparing' });
    try {
      const reference =
        listed.state === 'synced'
          ? { orderNumber: listed.order.orderNumber }
          : { localReference: listed.localRef ?? '' };
      const bytes = await buildProForma(listed.order, customer, i18n.language, {
        t: i18n.getFixedT(i18n.language),
        reference,
        signature: await signatureOf(),
      });
      const file = proFormaFileName(reference);
      await shareOrDownload(bytes, file);
      setMaking({ state: 'done', text: t('fieldSales.orders.proFormaReady', { file }) });
    } catch (error) {
      console.error('The pro-forma could not be made', error);
      const offline = getConnectivity() === 'offline' || !navigator.onLine;
      setMaking({
        state: 'failed',
        text: t(offline ? 'fieldSales.orders.proFormaOffline' : 'fieldSales.orders.proFormaFailed'),
      });
    }
  };

  const preparing = making.state === 'preparing';
  return (
    <div className="card__actions rep-order__pro-forma">
      <button
        type="button"
        className="button button--ghost"
        disabled={preparing}
        aria-busy={preparing}
        onClick={() => void make()}
      >
        {preparing ? t('fieldSales.orders.preparing') : t('fieldSales.orders.proForma')}
      </button>
      <p className="hint" role="status">
        {making.state === 'done' ? making.text : ''}
      </p>
      {making.state === 'failed' && (
        <p className="form-field__error" role="alert">
          {making.text}
        </p>
      )}
    </div>
  );
}
