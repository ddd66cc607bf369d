import { useTranslation } from 'react-i18next';
import { verificationDisplay } from '../../contracts/accounts';

/**
 * Why a company that cannot order yet (still being checked, or suspended) sees no prices
 * and cannot order: above the cart, the quick order and the order lists. Nothing once the
 * company may order.
 */
export function UnverifiedNotice({
  company,
}: {
  company: Parameters<typeof verificationDisplay>[0];
}) {
  const { t } = useTranslation();
  const verification = verificationDisplay(company);
  if (verification === 'verified') return null;
  return (
    <div className="notice notice--offline" role="note">
      <strong>{t(`cart.warning.${verification}`)}</strong> {t('cart.warningText')}
    </div>
  );
}
