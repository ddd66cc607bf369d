import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { onSessionExpired } from '../lib/api/client';
import { useTranslation } from 'react-i18next';
import { useToast } from '../components/toast';
import { refreshUser } from '../lib/auth/session-actions';
import { startSync, syncLoop } from '../lib/sync/device';

/**
 * Keeps the session true: re-reads the user once per visit (a company approved or
 * suspended meanwhile), starts replaying the outbox, tells when a queued order was
 * confirmed, and sends the user to sign in when the server ended the session.
 */
export function SessionWatcher() {
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation();
  const notify = useToast();
  useEffect(() => {
    refreshUser().catch(() => undefined);
    startSync();
  }, []);
  useEffect(
    () =>
      syncLoop.onOrderConfirmed((order) =>
        notify(t('checkout.created', { number: order.orderNumber })),
      ),
    [notify, t],
  );
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
