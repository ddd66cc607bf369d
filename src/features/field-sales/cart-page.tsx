/**
 * The cart of the customer a sales rep is ordering for (docs/product.md#field-sales), kept
 * on the device, offline too: quick entry by SKU, name or barcode, the lines, and the
 * order taken with the customer's address, note and signature, queued to be sent.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { ScreenMeta } from '../screen-meta';
import { EMPTY_CART } from '../../contracts/orders';
import { useUser } from '../../lib/auth/session';
import { readRepCart } from '../../lib/sync/rep-cart';
import { readActingFor } from '../../lib/sync/rep-customers';
import { CartCheckout } from './cart-checkout';
import { canOrderFor } from './customer-address';
import { CartLines } from './cart-lines';
import { QuickEntry } from './quick-entry-form';
import '../screens.css';
import './cart.css';

export function RepCartPage() {
  const { t } = useTranslation();
  const userId = useUser()?.id ?? null;
  // Undefined until the device has answered: nothing is claimed before it is read.
  const actingFor = useLiveQuery(() => readActingFor(userId), [userId]);
  const customerId = actingFor?.customer.id;
  const view = useLiveQuery(() => readRepCart(userId, customerId), [userId, customerId]);
  const navigate = useNavigate();

  const meta = (
    <ScreenMeta
      title={t('fieldSales.cart.title')}
      description={t('fieldSales.cart.description')}
      path="/rep/cart"
    />
  );
  if (actingFor === undefined) return <div className="page rep-cart">{meta}</div>;
  if (actingFor === null) {
    return (
      <div className="page rep-cart">
        {meta}
        <h1>{t('fieldSales.cart.title')}</h1>
        <div className="empty-state">
          <p>{t('fieldSales.cart.noCustomer')}</p>
          <Link to="/rep" className="button">
            {t('fieldSales.cart.chooseCustomer')}
          </Link>
        </div>
      </div>
    );
  }

  const { customer } = actingFor;
  const hasLines = view !== undefined && view.cart.items.length + view.missing.length > 0;
  return (
    <div className="page rep-cart">
      {meta}
      <h1>{t('fieldSales.cart.heading', { name: customer.name })}</h1>
      {customer.status !== 'APPROVED' && (
        <div className="notice notice--offline" role="note">
          <strong>
            {t('fieldSales.cart.notApprovedTitle', {
              status: t(`admin.status.${customer.status}`),
            })}
          </strong>{' '}
          {t(canOrderFor(customer) ? 'fieldSales.cart.awaiting' : 'fieldSales.cart.notApproved', {
            name: customer.name,
          })}
        </div>
      )}
      <QuickEntry customerId={customer.id} cart={view?.cart ?? EMPTY_CART} />
      {view && <CartLines customer={customer} view={view} />}
      {view && hasLines && (
        <CartCheckout
          // Another customer, another form; a booth salon's stays as it gets the server's id.
          key={actingFor.localId ?? customer.id}
          customer={customer}
          view={view}
          // The customer's orders say where the order is: on the device, waiting to be sent.
          onPlaced={(localRef) => void navigate('/rep/orders', { state: { placed: localRef } })}
        />
      )}
    </div>
  );
}
