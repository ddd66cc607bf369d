import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../contracts/languages';
import type { Order } from '../../contracts/orders';
import { ProFormaButton, type ProFormaResult } from '../../components/pro-forma-button';
import { currentLanguage } from '../../lib/i18n';
import { useUser } from '../../lib/auth/session';
import type { StoredOrder } from '../../lib/db/db';
import type { ProFormaCustomer } from '../../lib/pro-forma/pro-forma';
import { useStoredCompany } from '../../lib/sync/use-device-data';

/**
 * The pro-forma of one of the salon's orders, made on the device as a rep's is (offline
 * too, also while the order waits to be sent), for the salon's company as the device keeps
 * it: its name alone when the device has not read the company's details yet.
 */
export function OrderProForma({ stored }: { stored: StoredOrder }) {
  const { t } = useTranslation();
  const user = useUser();
  const company = useStoredCompany()?.company;
  const customer: ProFormaCustomer = company ?? {
    name: user?.company?.name ?? '',
    taxNumber: '',
    address: '',
    city: '',
    state: '',
    postalCode: '',
    country: '',
  };

  return (
    <OrderProFormaButton
      listed={stored}
      customer={customer}
      signature={() => Promise.resolve(stored.signature ?? null)}
      languageOffline={t('proForma.problem.languageOffline')}
    />
  );
}

/**
 * The pro-forma of an order, made on the device (offline too, also while the order waits
 * to be sent) in the language chosen, at first the app's: a salon's own orders and a rep's
 * alike. An order the server has not confirmed yet is named by the device's reference.
 */
export function OrderProFormaButton({
  listed,
  customer,
  signature,
  languageOffline,
}: {
  listed: {
    order: Order;
    state: 'synced' | 'waiting' | 'attention';
    localRef?: string | undefined;
  };
  customer: ProFormaCustomer;
  /** The customer's signature (a PNG in base64), read once the document is being made. */
  signature: () => Promise<string | null>;
  /** What to say when the chosen language's texts are not on the device. */
  languageOffline: string;
}) {
  const { t, i18n } = useTranslation();
  const make = async (language: string): Promise<ProFormaResult> => {
    try {
      // The PDF's code loads only now; the service worker keeps it for offline use.
      const { makeProForma } = await import('../../lib/pro-forma/make-pro-forma');
      const made = await makeProForma({
        order: listed.order,
        customer,
        language: currentLanguage(language),
        reference:
          listed.state === 'synced'
            ? { orderNumber: listed.order.orderNumber }
            : { localReference: listed.localRef ?? '' },
        signature,
      });
      if (made.ok) return { ok: true, text: t('proForma.ready', { file: made.file }) };
      return {
        ok: false,
        text:
          made.problem === 'languageOffline'
            ? languageOffline
            : t(`proForma.problem.${made.problem}`),
      };
    } catch {
      return { ok: false, text: t('proForma.problem.offline') };
    }
  };

  return (
    <ProFormaButton
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
