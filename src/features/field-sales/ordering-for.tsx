/**
 * The bar a sales rep sees on every page (docs/product.md#field-sales): which customer it
 * is ordering for, or that it has chosen none, with the way to its customers to switch,
 * and its links: that customer's cart with how many units it holds, its orders, the rep's
 * day, and the sync centre with how many changes wait to be sent.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { useUser } from '../../lib/auth/session';
import { readActingFor, repCartCounts } from '../../lib/sync/rep-customers';
import { useOutboxSummary } from '../../lib/sync/use-device-data';
import './customers.css';

/** The default export: the app loads it as one lazy component, for reps alone. */
export default function OrderingFor() {
  const { t } = useTranslation();
  const userId = useUser()?.id ?? null;
  // Undefined until the device has answered: nothing is claimed before it is read.
  const actingFor = useLiveQuery(() => readActingFor(userId), [userId]);
  const cartCounts = useLiveQuery(() => repCartCounts(userId), [userId]);
  const { waiting } = useOutboxSummary();
  if (actingFor === undefined) return null;
  const units = actingFor ? (cartCounts?.get(actingFor.id) ?? 0) : 0;
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
      <nav className="ordering-for__links" aria-label={t('fieldSales.orderingFor.links')}>
        <NavLink
          to="/rep/cart"
          aria-label={
            units > 0
              ? t('fieldSales.orderingFor.cartWithCount', { count: units })
              : t('fieldSales.orderingFor.cart')
          }
        >
          {t('fieldSales.orderingFor.cart')}
          {units > 0 && (
            <span className="badge" aria-hidden="true">
              {units}
            </span>
          )}
        </NavLink>
        <NavLink to="/rep/orders">{t('fieldSales.orderingFor.orders')}</NavLink>
        <NavLink to="/rep/today">{t('fieldSales.orderingFor.today')}</NavLink>
        <NavLink
          to="/rep/sync"
          aria-label={
            waiting > 0
              ? t('fieldSales.orderingFor.syncWaiting', { count: waiting })
              : t('fieldSales.orderingFor.sync')
          }
        >
          {t('fieldSales.orderingFor.sync')}
          {waiting > 0 && (
            <span className="badge" aria-hidden="true">
              {waiting}
            </span>
          )}
        </NavLink>
      </nav>
    </div>
  );
}
