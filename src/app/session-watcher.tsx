import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { onSessionExpired } from '../lib/api/client';
import { refreshUser } from '../lib/auth/session';

/**
 * Keeps the session true: re-reads the user once per visit (a company approved or
 * suspended meanwhile), and sends the user to sign in when the server ended the session.
 */
export function SessionWatcher() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    refreshUser().catch(() => undefined);
  }, []);
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
