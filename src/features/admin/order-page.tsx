import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import {
  MAX_TRACKING_LENGTH,
  TRACKING_NUMBER_PATTERN,
  type AdminOrderDetail,
  type AdminOrderEvent,
  type OrderConflictBody,
} from '../../contracts/admin-orders';
import type { OrderStatus, PaymentStatus } from '../../contracts/orders';
import { paymentBadge } from '../../contracts/order-lines';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { fetchAdminOrder, moveAdminOrder, setAdminOrderPayment } from '../../lib/api/admin-orders';
import { failureText, fieldErrors, type CallFailure } from '../../lib/api/failure';
import { formatDateTime, formatMoney } from '../../lib/i18n';
import { DecisionDialog } from './decision-dialog';
import { StaffDataNotice, StaffPage, useOffline } from './staff-page';
import { TableScroll } from './table-scroll';
import { useStaffAction } from './use-staff-action';
import { useStaffData } from './use-staff-data';

const orderId = (param: string | undefined): number | undefined =>
  param && /^\d{1,9}$/.test(param) && Number(param) >= 1 ? Number(param) : undefined;

export function OrderPage() {
  const { t } = useTranslation();
  const id = orderId(useParams().id);
  return (
    <StaffPage
      title={t('admin.orders.detail.title')}
      description={t('admin.orders.detail.description')}
      path="/admin/orders"
    >
      {id === undefined ? <OrderNotFound /> : <OrderDetail id={id} />}
    </StaffPage>
  );
}

function OrderNotFound() {
  const { t } = useTranslation();
  return (
    <div className="empty-state" role="alert">
      <h1>{t('admin.orders.detail.notFound')}</h1>
      <p>{t('admin.orders.detail.notFoundText')}</p>
      <Link className="button" to="/admin/orders">
        {t('admin.orders.detail.backToList')}
      </Link>
    </div>
  );
}

/** The list the staff member came from, with its filters, or the whole list. */
function useListAddress(): string {
  const state = useLocation().state as { list?: unknown } | null;
  return typeof state?.list === 'string' && state.list
    ? `/admin/orders?${state.list}`
    : '/admin/orders';
}

function OrderDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const detail = useStaffData(`order-${id}`, (signal) => fetchAdminOrder(id, signal));
  const listAddress = useListAddress();
  if (detail.failure?.kind === 'refused' && detail.failure.status === 404) return <OrderNotFound />;
  return (
    <>
      <p className="staff-back">
        <Link to={listAddress}>‹ {t('admin.orders.detail.backToList')}</Link>
      </p>
      {!detail.data && <h1>{t('admin.orders.detail.title')}</h1>}
      <StaffDataNotice result={detail} />
      {detail.data && <OrderScreen detail={detail.data} reload={detail.reload} />}
    </>
  );
}

const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children || '—'}</dd>
    </>
  );
}

function OrderScreen({ detail, reload }: { detail: AdminOrderDetail; reload: () => void }) {
  const { t, i18n } = useTranslation();
  const { order, company, placedBy, events } = detail;
  const money = (amount: number) => formatMoney(amount, i18n.language);
  const address = order.shippingAddress;
  return (
    <>
      <header className="staff-company__header">
        <h1>{t('admin.orders.detail.number', { number: order.orderNumber })}</h1>
        <span className={`chip chip--status-${order.status.toLowerCase()}`}>
          {t(`orders.status.${order.status}`)}
        </span>
        <span className="chip">{t(`orders.payment.${paymentBadge(order)}`)}</span>
      </header>

      <div className="card-grid">
        <ActionsCard detail={detail} onChanged={reload} />

        <section className="card" aria-labelledby="staff-order-summary">
          <h2 id="staff-order-summary">{t('admin.orders.detail.summary')}</h2>
          <dl className="details">
            <Row label={t('admin.orders.detail.company')}>
              <Link to={`/admin/companies/${company.id}`}>{company.name}</Link>
            </Row>
            <Row label={t('admin.orders.detail.placedBy')}>
              {order.placedBy
                ? t('admin.orders.detail.placedByRep', { name: fullName(order.placedBy) })
                : fullName(placedBy)}{' '}
              · <a href={`mailto:${placedBy.email}`}>{placedBy.email}</a>
            </Row>
            <Row label={t('admin.orders.detail.placedAt')}>
              {formatDateTime(order.createdAt, i18n.language)}
            </Row>
            <Row label={t('admin.orders.detail.updatedAt')}>
              {formatDateTime(order.updatedAt, i18n.language)}
            </Row>
            <Row label={t('admin.orders.detail.total')}>{money(order.total)}</Row>
            <Row label={t('admin.orders.detail.trackingNumber')}>{order.trackingNumber}</Row>
            <Row label={t('admin.orders.detail.clientReference')}>{order.clientReference}</Row>
            <Row label={t('admin.orders.detail.notes')}>
              {order.notes && <span className="order-notes">{order.notes}</span>}
            </Row>
            {order.cancellationReason && (
              <Row label={t('admin.orders.detail.cancellationReason')}>
                {order.cancellationReason}
              </Row>
            )}
            <Row label={t('admin.orders.detail.shipTo')}>
              {address.firstName} {address.lastName}
              <br />
              {address.street}
              <br />
              {address.city} {address.zipCode}
              <br />
              {address.country} · {address.phone}
            </Row>
          </dl>
        </section>
      </div>

      {/* Not a region itself: its table scrolls in a region of that name. */}
      <section className="card staff-section">
        <h2 id="staff-order-lines">{t('admin.orders.detail.lines')}</h2>
        <TableScroll labelledBy="staff-order-lines">
          <table className="staff-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.orders.detail.product')}</th>
                <th scope="col">{t('admin.orders.detail.sku')}</th>
                <th scope="col">{t('admin.orders.detail.quantity')}</th>
                <th scope="col">{t('admin.orders.detail.unitPrice')}</th>
                <th scope="col">{t('admin.orders.detail.lineTotal')}</th>
              </tr>
            </thead>
            <tbody>
              {order.orderItems.map((item) => (
                <tr key={item.id}>
                  <td>{item.productName}</td>
                  <td>{item.productSku}</td>
                  <td>{item.quantity}</td>
                  <td>{money(item.unitPrice)}</td>
                  <td>{money(item.totalPrice)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      {/* Not a region itself: its table scrolls in a region of that name. */}
      <section className="card staff-section">
        <h2 id="staff-order-history">{t('admin.orders.detail.history')}</h2>
        <TableScroll labelledBy="staff-order-history">
          <table className="staff-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.orders.detail.when')}</th>
                <th scope="col">{t('admin.orders.detail.who')}</th>
                <th scope="col">{t('admin.orders.detail.change')}</th>
                <th scope="col">{t('admin.orders.detail.note')}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id}>
                  <td>{formatDateTime(event.at, i18n.language)}</td>
                  <td>
                    {event.actor.kind === 'salon'
                      ? t('admin.orders.detail.salon')
                      : event.actor.kind === 'rep'
                        ? t('admin.orders.detail.placedByRep', { name: event.actor.name })
                        : event.actor.name}
                  </td>
                  <td>
                    <EventChange event={event} />
                  </td>
                  <td className="audit-table__note">{event.note || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
    </>
  );
}

function EventChange({ event }: { event: AdminOrderEvent }) {
  const { t } = useTranslation();
  const name = (value: string) =>
    event.kind === 'status'
      ? t(`orders.status.${value as OrderStatus}`)
      : t(`orders.payment.${value as PaymentStatus}`);
  if (event.from === null)
    return <>{t('admin.orders.detail.created', { status: name(event.to) })}</>;
  return (
    <>
      {t(
        event.kind === 'status'
          ? 'admin.orders.detail.statusChange'
          : 'admin.orders.detail.paymentChange',
        { from: name(event.from), to: name(event.to) },
      )}
    </>
  );
}

/** The steps no later one undoes: asked about first, as cancelling and shipping are. */
const FINAL_STEPS = ['DELIVERED', 'PAID', 'REFUNDED'] as const;
type FinalStep = (typeof FINAL_STEPS)[number];
const isFinal = (step: string): step is FinalStep =>
  (FINAL_STEPS as readonly string[]).includes(step);

type Asking = { kind: 'cancel' } | { kind: 'ship' } | { kind: 'final'; step: FinalStep } | null;

/**
 * The statuses a button moves an order on to. Cancelling has a button of its own; an order
 * becomes pending, or awaits verification, only as it is placed or as its company is
 * decided on, never by a step of staff's.
 */
type StepStatus = Exclude<OrderStatus, 'AWAITING_VERIFICATION' | 'PENDING' | 'CANCELLED'>;

/**
 * The order's next steps, only those the server allows: moves along its path, a
 * cancellation with a reason, a shipment with a tracking number, the payment's changes. A
 * refusal because the order changed meanwhile (409) is said, and the order read again so
 * that the buttons match it.
 */
function ActionsCard({ detail, onChanged }: { detail: AdminOrderDetail; onChanged: () => void }) {
  const { t } = useTranslation();
  const notify = useToast();
  const offline = useOffline();
  const action = useStaffAction();
  const { order, allowed } = detail;
  const [asking, setAsking] = useState<Asking>(null);
  const [reason, setReason] = useState('');
  const [tracking, setTracking] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [trackingError, setTrackingError] = useState<string | null>(null);
  const card = useRef<HTMLElement>(null);
  /** Set by a change that went through: the button clicked may go with the step it made. */
  const changed = useRef(false);
  // Once the order is read again, focus left on nothing (the button went) moves to the
  // card's next action, not to the start of the page.
  useEffect(() => {
    if (!changed.current) return;
    changed.current = false;
    if (document.activeElement && document.activeElement !== document.body) return;
    card.current?.querySelector<HTMLElement>('button:not([disabled])')?.focus();
  }, [order.status, order.paymentStatus]);

  const describe = (failure: CallFailure): string => {
    if (failure.kind === 'refused' && failure.status === 409) {
      const body = failure.body as OrderConflictBody | undefined;
      if (body?.code === 'ORDER_STATUS_CONFLICT' || body?.code === 'ORDER_PAYMENT_CONFLICT') {
        const to = String(body.params?.to ?? '');
        return t('admin.orders.detail.conflict', {
          orderNumber: order.orderNumber,
          to:
            body.code === 'ORDER_STATUS_CONFLICT'
              ? t(`orders.status.${to as OrderStatus}`)
              : t(`orders.payment.${to as PaymentStatus}`),
        });
      }
    }
    return failureText(t, failure, {
      offline: t('admin.needsNetwork'),
      refused: t('admin.actionFailed'),
    });
  };

  const finish = (
    result: { ok: true } | { ok: false; failure: CallFailure },
    done: string,
  ): boolean => {
    if (result.ok) {
      notify(done);
      changed.current = true;
      setAsking(null);
      setReason('');
      setTracking('');
      onChanged();
      return true;
    }
    setError(describe(result.failure));
    // The order changed meanwhile: read it again, so that the buttons are right.
    if (result.failure.kind === 'refused' && result.failure.status === 409) {
      setAsking(null);
      onChanged();
    }
    return false;
  };

  const move = async (status: OrderStatus) => {
    setError(null);
    setTrackingError(null);
    const change =
      status === 'SHIPPED'
        ? { status, trackingNumber: tracking.trim() }
        : status === 'CANCELLED'
          ? { status, reason: reason.trim() }
          : { status };
    const result = await action.run(JSON.stringify(['status', order.id, change]), (key) =>
      moveAdminOrder(order.id, change, key),
    );
    if (!result.ok && result.failure.kind === 'refused' && result.failure.status === 400) {
      const fields = fieldErrors(t, result.failure.body);
      if (fields.trackingNumber) {
        setTrackingError(fields.trackingNumber);
        return;
      }
    }
    finish(
      result,
      t('admin.orders.detail.done', {
        number: order.orderNumber,
        status: t(`orders.status.${status}`),
      }),
    );
  };

  const pay = async (paymentStatus: PaymentStatus) => {
    setError(null);
    const result = await action.run(JSON.stringify(['payment', order.id, paymentStatus]), (key) =>
      setAdminOrderPayment(order.id, paymentStatus, key),
    );
    finish(
      result,
      t('admin.orders.detail.done', {
        number: order.orderNumber,
        status: t(`orders.payment.${paymentStatus}`),
      }),
    );
  };

  const moves = allowed.status.filter((status) => status !== 'CANCELLED');
  const canCancel = allowed.status.includes('CANCELLED');
  const badge = paymentBadge(order);
  return (
    <section ref={card} className="card" aria-labelledby="staff-order-next">
      <h2 id="staff-order-next">{t('admin.orders.detail.next')}</h2>
      {error && asking === null && <Banner kind="error">{error}</Banner>}
      {offline && <p className="notice notice--offline">{t('admin.needsNetwork')}</p>}
      {order.status === 'AWAITING_VERIFICATION' && (
        <p>
          {t('admin.orders.detail.awaiting', { pending: t('orders.status.PENDING') })}{' '}
          <Link to={`/admin/companies/${detail.company.id}`}>
            {t('admin.orders.detail.verifyCompany', { name: detail.company.name })}
          </Link>
        </p>
      )}
      {allowed.status.length === 0 ? (
        <p>{t('admin.orders.detail.final', { status: t(`orders.status.${order.status}`) })}</p>
      ) : (
        <div className="staff-actions">
          {moves.map((status) => (
            <button
              key={status}
              type="button"
              className="button"
              disabled={offline || action.busy}
              onClick={() => {
                setError(null);
                if (status === 'SHIPPED') {
                  setTrackingError(null);
                  setAsking({ kind: 'ship' });
                } else if (isFinal(status)) setAsking({ kind: 'final', step: status });
                else void move(status);
              }}
            >
              {t(`admin.orders.detail.moveTo.${status as StepStatus}`)}
            </button>
          ))}
          {canCancel && (
            <button
              type="button"
              className="button button--danger"
              disabled={offline || action.busy}
              onClick={() => {
                setError(null);
                setAsking({ kind: 'cancel' });
              }}
            >
              {t('admin.orders.detail.cancel')}
            </button>
          )}
        </div>
      )}

      <h3>{t('admin.orders.detail.paymentTitle')}</h3>
      <p>
        <span className="chip">{t(`orders.payment.${badge}`)}</span>
      </p>
      {badge === 'NONE_DUE' && <p>{t('admin.orders.detail.paymentNotDue')}</p>}
      {allowed.paymentStatus.length === 0 ? (
        <p>
          {t('admin.orders.detail.paymentNone', {
            status: t(`orders.payment.${order.paymentStatus}`),
          })}
        </p>
      ) : (
        <div className="staff-actions">
          {allowed.paymentStatus.map((status) => (
            <button
              key={status}
              type="button"
              className={status === 'FAILED' ? 'button button--ghost' : 'button'}
              disabled={offline || action.busy}
              onClick={() => {
                setError(null);
                if (isFinal(status)) setAsking({ kind: 'final', step: status });
                else void pay(status);
              }}
            >
              {t(`admin.orders.detail.paymentTo.${status}`)}
            </button>
          ))}
        </div>
      )}

      <DecisionDialog
        open={asking?.kind === 'cancel'}
        title={t('admin.orders.detail.cancelTitle', { number: order.orderNumber })}
        text={t('admin.orders.detail.cancelText')}
        label={t('admin.orders.detail.reason')}
        hint={t('admin.orders.detail.reasonHint')}
        confirmLabel={t('admin.orders.detail.cancel')}
        danger
        busy={action.busy}
        error={asking?.kind === 'cancel' ? error : null}
        value={reason}
        onChange={setReason}
        onConfirm={() => {
          if (!reason.trim()) {
            setError(t('validation.required'));
            return;
          }
          void move('CANCELLED');
        }}
        onCancel={() => setAsking(null)}
      />
      <DecisionDialog
        open={asking?.kind === 'final'}
        title={
          asking?.kind === 'final'
            ? t(`admin.orders.detail.ask.${asking.step}.title`, { number: order.orderNumber })
            : ''
        }
        text={asking?.kind === 'final' ? t(`admin.orders.detail.ask.${asking.step}.text`) : ''}
        confirmLabel={
          asking?.kind === 'final'
            ? asking.step === 'DELIVERED'
              ? t('admin.orders.detail.moveTo.DELIVERED')
              : t(`admin.orders.detail.paymentTo.${asking.step}`)
            : ''
        }
        busy={action.busy}
        error={asking?.kind === 'final' ? error : null}
        onConfirm={() => {
          if (asking?.kind !== 'final') return;
          if (asking.step === 'DELIVERED') void move('DELIVERED');
          else void pay(asking.step);
        }}
        onCancel={() => setAsking(null)}
      />
      <ShipDialog
        open={asking?.kind === 'ship'}
        number={order.orderNumber}
        unpaid={order.paymentStatus !== 'PAID'}
        busy={action.busy}
        error={asking?.kind === 'ship' ? error : null}
        fieldError={trackingError}
        value={tracking}
        onChange={(value) => {
          setTracking(value);
          setTrackingError(null);
        }}
        onConfirm={() => {
          const typed = tracking.trim();
          // The server's rule, checked first: its refusal could only say "Invalid value".
          const problem = !typed
            ? t('validation.required')
            : typed.length <= MAX_TRACKING_LENGTH && !TRACKING_NUMBER_PATTERN.test(typed)
              ? t('admin.orders.detail.trackingInvalid')
              : null;
          if (problem) {
            setTrackingError(problem);
            return;
          }
          void move('SHIPPED');
        }}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}

/**
 * Shipping asks for the carrier's tracking number, which the salon then sees. An order not
 * paid may still ship (the maker may give credit), but the terms promise dispatch after
 * payment: the dialog says so.
 */
function ShipDialog({
  open,
  number,
  unpaid,
  busy,
  error,
  fieldError,
  value,
  onChange,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  number: string;
  unpaid: boolean;
  busy: boolean;
  error: string | null;
  fieldError: string | null;
  value: string;
  onChange: (value: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <ConfirmDialog
      open={open}
      title={t('admin.orders.detail.shipTitle', { number })}
      confirmLabel={busy ? t('admin.sending') : t('admin.orders.detail.moveTo.SHIPPED')}
      cancelLabel={t('common.cancel')}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{t('admin.orders.detail.shipText')}</p>
      {unpaid && <Banner kind="info">{t('admin.orders.detail.shipUnpaid')}</Banner>}
      {error && <Banner kind="error">{error}</Banner>}
      <div className="form-field">
        <label htmlFor={id}>{t('admin.orders.detail.trackingNumber')}</label>
        <input
          id={id}
          type="text"
          value={value}
          maxLength={MAX_TRACKING_LENGTH + 20}
          autoComplete="off"
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={`${id}-hint${fieldError ? ` ${id}-error` : ''}`}
          onChange={(event) => onChange(event.target.value)}
        />
        <p id={`${id}-hint`} className="form-field__hint">
          {t('admin.orders.detail.trackingHint')}
        </p>
        {fieldError && (
          <p id={`${id}-error`} className="form-field__error" role="alert">
            {fieldError}
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}
