import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { onSessionExpired } from '../lib/api/client';
import { useTranslation } from 'react-i18next';
import { useToast } from '../components/toast';
import { refreshUser } from '../lib/auth/session-actions';
import { useSession } from '../lib/auth/session';
import { loadAllTexts } from '../lib/i18n';
import { whenIdle } from '../lib/when-idle';
import { CANCEL_TOPIC, ORDER_TOPIC, startSync, syncLoop } from '../lib/sync/device';

/**
 * Keeps the session true: re-reads the user once per visit (a company approved or
 * suspended meanwhile), starts replaying the outbox, loads the signed-in screens, tells
 * when a queued order was confirmed, and sends the user to sign in when the server ended
 * the session.
 */
export function SessionWatcher() {
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation();
  const notify = useToast();
  const staff = useSession()?.user.role === 'ADMIN';
  useEffect(() => {
    refreshUser().catch(() => undefined);
    startSync();
  }, []);
  useEffect(() => {
    // The signed-in screens' code and texts load into this page once it is idle (the sync
    // engine they also need is loaded for anyone signed in): they then open with no network
    // in this tab even before the service worker has kept them, as on a salon's first
    // sign-in on a tablet at the fair, just before the connection drops.
    void whenIdle().then(() =>
      Promise.all([
        loadAllTexts(),
        // The guard every signed-in screen is shown through, then the screens: the modules
        // ./pages loads (its screens imported here would grow the first screens' chunk).
        import('./require-auth'),
        import('../features/profile/profile-page'),
        ...(staff
          ? []
          : [
              import('../features/cart/cart-page'),
              import('../features/orders/orders-page'),
              import('../features/sync/sync-page'),
            ]),
      ]).catch(() => undefined),
    );
  }, [staff]);
  useEffect(() => {
    const stopConfirmed = syncLoop.onOrderConfirmed((order) =>
      notify(t('checkout.created', { number: order.orderNumber }), 'success', ORDER_TOPIC),
    );
    const stopCancelled = syncLoop.onOrderCancelled((order) =>
      notify(t('orders.cancelDone', { number: order.orderNumber }), 'success', CANCEL_TOPIC),
    );
    const stopAlreadyCustomer = syncLoop.onAlreadyCustomer((customer, boothDetailsKept) =>
      notify(
        [
          t('fieldSales.newCustomer.alreadyCustomer', { name: customer.name }),
          boothDetailsKept ? t('fieldSales.newCustomer.boothDetailsKept') : '',
        ]
          .join(' ')
          .trim(),
        'info',
      ),
    );
    return () => {
      stopConfirmed();
      stopCancelled();
      stopAlreadyCustomer();
    };
  }, [notify, t]);
  useEffect(
    () =>
      onSessionExpired(() => {
        void navigate('/login', {
          replace: true,
          state: { from: `${location.pathname}${location.search}`, notice: 'expired' },
        });
      }),
    [navigate, location.pathname, location.search],
  );
  return null;
}
