import { useTranslation } from 'react-i18next';
import { storageRefusal } from '../lib/db/storage-errors';
import { useToast } from '../components/toast';

/**
 * For a screen's change written to the device (the cart's stepper, Remove and Clear, a
 * salon's or the rep's at the booth; the sync centre's Try again, Save and send, Discard):
 * a write the device did not keep is said, never passed over in silence, in the words of
 * the screen's `texts` group. Resolves to whether the change was kept (QuantityStepper
 * shows the line's quantity again when it was not).
 */
export function useDeviceWrite(
  texts: 'cart' | 'sync',
): (write: Promise<unknown>) => Promise<boolean> {
  const { t } = useTranslation();
  const notify = useToast();
  return (write) =>
    write.then(
      () => true,
      (error: unknown) => {
        // A full device is said as such; any other refusal (the database closed by a newer
        // version in another tab, say) passes when tried again.
        notify(
          t(storageRefusal(error) === 'full' ? `${texts}.storageFull` : `${texts}.changeFailed`),
          'error',
        );
        return false;
      },
    );
}
