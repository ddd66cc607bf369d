/**
 * What an order shows alike on the customer's orders and on the rep's day summary: the
 * chip of its state, and its pro-forma, made on the device, also for an order still
 * waiting to be sent.
 */
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../contracts/languages';
import { ProFormaButton as ProFormaControl } from '../../components/pro-forma-button';
import { isNetworkError } from '../../lib/api/errors';
import { fetchOrderSignature } from '../../lib/api/rep-orders';
import { currentLanguage } from '../../lib/i18n';
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
  const { t, i18n } = useTranslation();

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

  const make = async (language: string) => {
    try {
      // The PDF's code loads only now, kept on the device for offline use.
      const { makeProForma } = await import('../../lib/pro-forma/make-pro-forma');
      const made = await makeProForma({
        order: listed.order,
        customer,
        language: currentLanguage(language),
        reference:
          listed.state === 'synced'
            ? { orderNumber: listed.order.orderNumber }
            : { localReference: listed.localRef ?? '' },
        signature: signatureOf,
      });
      if (made.ok) return { ok: true, text: t('proForma.ready', { file: made.file }) };
      return {
        ok: false,
        text: t(
          made.problem === 'languageOffline'
            ? 'fieldSales.orders.proFormaLanguageOffline'
            : `proForma.problem.${made.problem}`,
        ),
      };
    } catch {
      return { ok: false, text: t('proForma.problem.offline') };
    }
  };

  return (
    <ProFormaControl
      languages={LANGUAGES.map((lng) => ({ value: lng, label: t(`nav.languages.${lng}`) }))}
      initialLanguage={currentLanguage(i18n.language)}
      labels={{
        language: t('proForma.language'),
        make: t('proForma.make'),
        preparing: t('proForma.preparing'),
      }}
      onMake={make}
    />
  );
}
