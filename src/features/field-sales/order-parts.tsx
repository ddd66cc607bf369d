/**
 * What an order shows alike on the customer's orders and on the rep's day summary: the
 * chip of its state, and its pro-forma, made on the device, also for an order still
 * waiting to be sent.
 */
import { useTranslation } from 'react-i18next';
import { OrderProFormaButton } from '../orders/order-pro-forma';
import { isNetworkError } from '../../lib/api/errors';
import { fetchOrderSignature } from '../../lib/api/rep-orders';
import type { ProFormaCustomer } from '../../lib/pro-forma/pro-forma';
import { getConnectivity } from '../../lib/sync/connectivity';
import type { ListedOrder } from './listed-orders';

/** A sent order's status as the server has it; otherwise that it waits, or needs attention. */
export function OrderStateChip({ listed }: { listed: ListedOrder }) {
  const { t } = useTranslation();
  const { order, state } = listed;
  return state === 'synced' ? (
    <span className={`chip chip--status-${order.status.toLowerCase()}`}>
      {t(`orders.status.${order.status}`)}
    </span>
  ) : (
    <span className={`chip chip--${state === 'attention' ? 'rejected' : 'pending'}`}>
      {t(state === 'attention' ? 'fieldSales.orders.attention' : 'fieldSales.orders.waiting')}
    </span>
  );
}

/**
 * Makes the order's pro-forma in the language chosen with the customer (at first the
 * app's: a customer has no language of its own), with the customer's signature: the device's copy, else the
 * server's when online; an order without one, or offline, gets a pro-forma without it.
 */
export function ProFormaButton({
  listed,
  customer,
}: {
  listed: ListedOrder;
  customer: ProFormaCustomer;
}) {
  const { t } = useTranslation();

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

  return (
    <OrderProFormaButton
      listed={listed}
      customer={customer}
      signature={signatureOf}
      languageOffline={t('fieldSales.orders.proFormaLanguageOffline')}
    />
  );
}
