import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../contracts/languages';
import { ProFormaButton } from '../../components/pro-forma-button';
import { useUser } from '../../lib/auth/session';
import type { StoredOrder } from '../../lib/db/db';
import { currentLanguage } from '../../lib/i18n';
import type { ProFormaCustomer } from '../../lib/pro-forma/pro-forma';
import { useStoredCompany } from '../../lib/sync/use-device-data';

/**
 * The pro-forma of one of the salon's orders, made on the device as a rep's is (offline
 * too, also while the order waits to be sent), for the salon's company as the device keeps
 * it: its name alone when the device has not read the company's details yet.
 */
export function OrderProForma({ stored }: { stored: StoredOrder }) {
  const { t, i18n } = useTranslation();
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

  const make = async (language: string) => {
    try {
      // The PDF's code loads only now; the service worker keeps it for offline use.
      const { makeProForma } = await import('../../lib/pro-forma/make-pro-forma');
      const made = await makeProForma({
        order: stored.order,
        customer,
        language: currentLanguage(language),
        reference:
          stored.state === 'synced'
            ? { orderNumber: stored.order.orderNumber }
            : { localReference: stored.localRef ?? '' },
        signature: () => Promise.resolve(stored.signature ?? null),
      });
      return made.ok
        ? { ok: true, text: t('proForma.ready', { file: made.file }) }
        : { ok: false, text: t(`proForma.problem.${made.problem}`) };
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
