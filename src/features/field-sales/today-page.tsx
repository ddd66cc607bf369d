/**
 * A sales rep's day (docs/product.md#field-sales): the orders it took since midnight,
 * per customer, with each customer's total and the day's, every order with its state and
 * its pro-forma, and how many changes still wait to be sent. Online the server adds the
 * orders the rep took on other devices (or that this device no longer holds).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ScreenMeta } from '../screen-meta';
import type { RepOrder } from '../../contracts/field-sales';
import { fetchRepOrdersSince } from '../../lib/api/rep-orders';
import { useUser } from '../../lib/auth/session';
import { formatDateTime, formatMoney } from '../../lib/i18n';
import { readRepOrdersSince } from '../../lib/sync/rep-cart';
import { readCustomers } from '../../lib/sync/rep-customers';
import { useOutbox } from '../../lib/sync/use-device-data';
import { startOfLocalDay, summarizeDay, type CustomerDay } from './day-summary';
import { mergeOrders, type ListedOrder } from './listed-orders';
import { OrderStateChip, ProFormaButton } from './order-parts';
import { sentOrders, useServerRead } from './use-server-read';
import type { ProFormaCustomer } from '../../lib/pro-forma/pro-forma';
import '../screens.css';
import './orders.css';
import './today.css';

/** How often the page looks whether midnight has passed: a minute late is soon enough. */
const DAY_CHECK_MS = 60_000;

const NO_ORDERS: RepOrder[] = [];

const readDay = (since: number, signal: AbortSignal) =>
  fetchRepOrdersSince(new Date(since), signal);

/** When the rep's day began (local midnight, in milliseconds), moving on at midnight. */
function useDayStart(): number {
  const [start, setStart] = useState(() => startOfLocalDay(new Date()).getTime());
  useEffect(() => {
    const timer = setInterval(() => setStart(startOfLocalDay(new Date()).getTime()), DAY_CHECK_MS);
    return () => clearInterval(timer);
  }, []);
  return start;
}

/** What a pro-forma says of a customer the device does not keep, and the server did not name. */
const unknownCustomer = (name: string): ProFormaCustomer => ({
  name,
  taxNumber: '',
  address: '',
  city: '',
  state: '',
  postalCode: '',
  country: '',
});

export function RepTodayPage() {
  const { t, i18n } = useTranslation();
  const userId = useUser()?.id ?? null;
  const since = useDayStart();
  const onDevice = useLiveQuery(() => readRepOrdersSince(userId, new Date(since)), [userId, since]);
  const kept = useLiveQuery(() => readCustomers(userId), [userId]);
  // Undefined until the device has answered: nothing is said of the outbox before.
  const outbox = useOutbox();
  const server = useServerRead(since, readDay, sentOrders(onDevice));
  const read = server.state;
  const fromServer = server.value ?? NO_ORDERS;
  const customers = useMemo(
    () => new Map((kept ?? []).map((stored) => [stored.id, stored])),
    [kept],
  );
  const day = useMemo(() => {
    if (onDevice === undefined) return undefined;
    // The server names the customer of every order it has; the device, of those it took.
    const customerOfOrder = new Map(fromServer.map((order) => [order.id, order.customer.id]));
    const customerOf = (listed: ListedOrder) =>
      (listed.state === 'synced' ? customerOfOrder.get(listed.order.id) : undefined) ??
      listed.customerId ??
      0;
    return summarizeDay(mergeOrders(onDevice, fromServer), customerOf);
  }, [onDevice, fromServer]);
  const named = useMemo(
    () => new Map(fromServer.map((order) => [order.customer.id, order.customer])),
    [fromServer],
  );

  const money = (amount: number) => formatMoney(amount, i18n.language);
  const title = t('fieldSales.today.title');
  const waiting = outbox?.length;

  return (
    <div className="page rep-today">
      <ScreenMeta title={title} description={t('fieldSales.today.description')} path="/rep/today" />
      <h1>{title}</h1>
      <p className="page__lead">{t('fieldSales.today.description')}</p>
      <p className="rep-orders__source" role="status">
        {read === 'done'
          ? t('fieldSales.today.current')
          : read === 'reading'
            ? t('fieldSales.today.reading')
            : t(read === 'offline' ? 'fieldSales.today.offline' : 'fieldSales.today.failed')}
      </p>

      {day && day.customers.length > 0 && (
        <section className="card rep-today__total" aria-labelledby="rep-today-total">
          <h2 id="rep-today-total">{t('fieldSales.today.dayTotal')}</h2>
          <dl className="order-card__facts" data-testid="rep-today-total">
            <div>
              <dt>{t('fieldSales.today.orders')}</dt>
              <dd>{day.count}</dd>
            </div>
            <div>
              <dt>{t('fieldSales.today.total')}</dt>
              <dd>
                <strong>{money(day.total)}</strong>
              </dd>
            </div>
          </dl>
        </section>
      )}

      {waiting !== undefined && (
        <section className="card rep-today__waiting" aria-labelledby="rep-today-waiting">
          <h2 id="rep-today-waiting">{t('fieldSales.today.waitingTitle')}</h2>
          <p data-testid="rep-today-waiting">
            {waiting > 0
              ? t('fieldSales.today.waiting', { count: waiting })
              : t('fieldSales.today.allSent')}
          </p>
          {waiting > 0 && <Link to="/rep/sync">{t('fieldSales.today.openSync')}</Link>}
        </section>
      )}

      {day && day.customers.length === 0 && read !== 'reading' && (
        <div className="empty-state">
          <p>{t(read === 'done' ? 'fieldSales.today.none' : 'fieldSales.today.noneOnDevice')}</p>
          <Link className="button" to="/rep">
            {t('fieldSales.today.toCustomers')}
          </Link>
        </div>
      )}

      {day?.customers.map((customerDay) => {
        const { customerId } = customerDay;
        // The device's record first, as on the customer's orders; else what the server says.
        const customer = customers.get(customerId)?.customer ?? named.get(customerId);
        const name = customer?.name ?? t('fieldSales.today.customerNumber', { id: customerId });
        return (
          <CustomerSection
            key={customerId}
            day={customerDay}
            name={name}
            customer={customer ?? unknownCustomer(name)}
          />
        );
      })}
    </div>
  );
}

function CustomerSection({
  day,
  name,
  customer,
}: {
  day: CustomerDay;
  name: string;
  customer: ProFormaCustomer;
}) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  return (
    <section
      className="rep-today__customer"
      aria-labelledby={headingId}
      data-testid="rep-today-customer"
    >
      <header className="rep-today__customer-header">
        <h2 id={headingId}>{name}</h2>
        <p>
          {t('fieldSales.today.customerTotal', {
            count: day.count,
            total: formatMoney(day.total, i18n.language),
          })}
        </p>
      </header>
      <ul className="order-list">
        {day.orders.map((listed) => (
          <li key={listed.key}>
            <DayOrder listed={listed} customer={customer} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function DayOrder({ listed, customer }: { listed: ListedOrder; customer: ProFormaCustomer }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const { order, state, localRef } = listed;
  return (
    <article className="card order-card" data-testid="rep-today-order" aria-labelledby={headingId}>
      <header className="order-card__header">
        <h3 id={headingId}>
          {state === 'synced'
            ? t('fieldSales.orders.number', { number: order.orderNumber })
            : t('fieldSales.orders.localNumber', { ref: localRef ?? '' })}
        </h3>
        <div className="rep-today__chips">
          {state === 'synced' && (
            <span className="chip chip--approved">{t('fieldSales.today.sent')}</span>
          )}
          <OrderStateChip listed={listed} />
        </div>
      </header>
      {state === 'attention' && (
        <p className="notice notice--offline">
          {t('fieldSales.orders.attentionText', { ref: localRef ?? '' })}{' '}
          <Link to="/rep/sync">{t('fieldSales.orders.openSync')}</Link>
        </p>
      )}
      <dl className="order-card__facts">
        <div>
          <dt>{t('fieldSales.orders.date')}</dt>
          <dd>
            <time dateTime={order.createdAt}>{formatDateTime(order.createdAt, i18n.language)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('fieldSales.orders.total')}</dt>
          <dd>
            <strong>{formatMoney(order.total, i18n.language)}</strong>
          </dd>
        </div>
      </dl>
      <ProFormaButton listed={listed} customer={customer} />
    </article>
  );
}
