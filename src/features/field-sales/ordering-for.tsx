/**
 * The bar a sales rep sees on every page (docs/product.md#field-sales): which customer it
 * is ordering for, or that it has chosen none, with the way to its customers to switch.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useUser } from '../../lib/auth/session';
import { readActingFor } from '../../lib/sync/rep-customers';
import './customers.css';

/** The default export: the app loads it as one lazy component, for reps alone. */
export default function OrderingFor() {
  const { t } = useTranslation();
  const userId = useUser()?.id ?? null;
  // Undefined until the device has answered: nothing is claimed before it is read.
  const actingFor = useLiveQuery(() => readActingFor(userId), [userId]);
  if (actingFor === undefined) return null;
  return (
    <div className="ordering-for" role="region" aria-label={t('fieldSales.orderingFor.region')}>
      <p>
        {actingFor
          ? t('fieldSales.orderingFor.customer', { name: actingFor.customer.name })
          : t('fieldSales.orderingFor.none')}
      </p>
      <Link to="/rep" className="button button--small button--ghost">
        {t(actingFor ? 'fieldSales.orderingFor.switch' : 'fieldSales.orderingFor.choose')}
      </Link>
    </div>
  );
}
