/**
 * What the server changed of an order queued on the device (docs/product.md#orders): a
 * price, a quantity, a product left out. Whoever placed the order is told, on the salon's
 * orders and on a rep's, since the confirmed order is not the one they saw.
 */
import { useTranslation } from 'react-i18next';
import type { OrderChange } from '../../lib/db/db';
import { formatMoney } from '../../lib/i18n';

export function OrderChanges({ changes }: { changes: readonly OrderChange[] | undefined }) {
  const { t, i18n } = useTranslation();
  if (!changes || changes.length === 0) return null;
  return (
    <div className="notice notice--offline" role="note">
      <strong>{t('orders.changedTitle')}</strong>
      <ul>
        {changes.map((change) => (
          <li key={`${change.productName}-${change.kind}`}>
            {change.kind === 'price'
              ? t('orders.changedPrice', {
                  name: change.productName,
                  before: formatMoney(change.before, i18n.language),
                  after: formatMoney(change.after, i18n.language),
                })
              : change.kind === 'quantity'
                ? t('orders.changedQuantity', {
                    name: change.productName,
                    before: change.before,
                    after: change.after,
                  })
                : t('orders.changedRemoved', { name: change.productName })}
          </li>
        ))}
      </ul>
    </div>
  );
}
