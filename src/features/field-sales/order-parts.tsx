/**
 * What an order shows alike on the customer's orders and on the rep's day summary: the
 * chip of its state, and its pro-forma, made on the device, also for an order still
 * waiting to be sent.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../contracts/languages';
import { isNetworkError } from '../../lib/api/errors';
import { fetchOrderSignature } from '../../lib/api/rep-orders';
import { currentLanguage, loadLanguageTexts } from '../../lib/i18n';
import { getConnectivity } from '../../lib/sync/connectivity';
import type { ListedOrder } from './listed-orders';
import {
  buildProForma,
  proFormaFileName,
  shareOrDownload,
  type ProFormaCustomer,
} from './pro-forma';

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

type Making =
  { state: 'idle' } | { state: 'preparing' } | { state: 'done' | 'failed'; text: string };

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
  const [making, setMaking] = useState<Making>({ state: 'idle' });
  // The customer's language, chosen with it: the app's own to begin with.
  const [language, setLanguage] = useState<Language>(() => currentLanguage(i18n.language));
  const languageId = useId();

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
      await loadLanguageTexts(language);
    } catch {
      setMaking({ state: 'failed', text: t('fieldSales.orders.proFormaLanguageOffline') });
      return;
    }
    try {
      const reference =
        listed.state === 'synced'
          ? { orderNumber: listed.order.orderNumber }
          : { localReference: listed.localRef ?? '' };
      const bytes = await buildProForma(listed.order, customer, language, {
        t: i18n.getFixedT(language),
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
      <label htmlFor={languageId}>{t('fieldSales.orders.proFormaLanguage')}</label>
      <select
        id={languageId}
        value={language}
        disabled={preparing}
        onChange={(event) => setLanguage(currentLanguage(event.target.value))}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`nav.languages.${lng}`)}
          </option>
        ))}
      </select>
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
