import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type React from 'react';
import { verificationDisplay, type User } from '../contracts/accounts';
import { ConfirmDialog } from '../components/confirm-dialog';
import { loadSyncEngine } from '../lib/sync/engine-loader';
import './user-menu.css';

/** Wait this long for the outbox before showing that it is being checked: usually it is read at once. */
const SHOW_CHECKING_AFTER_MS = 300;

type SignOutDialog =
  | { step: 'checking' }
  | { step: 'waiting'; count: number }
  /** The outbox could not be read: nothing is claimed about it. */
  | { step: 'unknown' };

/**
 * Signing out, after a warning when changes are still waiting to be sent. The outbox is
 * read when the user asks, never taken as empty before it has been read.
 */
function useSignOut(userId: number): { request: () => void; dialog: React.ReactNode } {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<SignOutDialog | null>(null);
  const asked = useRef(0);
  const leave = () => {
    asked.current += 1;
    setDialog(null);
    void loadSyncEngine()
      .then((engine) => engine.signOut())
      .then(() => navigate('/'));
  };
  const cancel = () => {
    asked.current += 1;
    setDialog(null);
  };
  const request = () => {
    const ask = ++asked.current;
    const current = () => ask === asked.current;
    const slow = setTimeout(() => {
      if (current()) setDialog({ step: 'checking' });
    }, SHOW_CHECKING_AFTER_MS);
    loadSyncEngine()
      .then((engine) => engine.readOutboxSummary(userId))
      .then(
        ({ waiting }) => {
          if (!current()) return;
          if (waiting > 0) setDialog({ step: 'waiting', count: waiting });
          else leave();
        },
        () => {
          if (current()) setDialog({ step: 'unknown' });
        },
      )
      .finally(() => clearTimeout(slow));
  };
  return {
    request,
    dialog: (
      <ConfirmDialog
        open={dialog !== null}
        title={dialog?.step === 'waiting' ? t('signOut.title') : t('profile.logoutTitle')}
        confirmLabel={t('nav.logout')}
        cancelLabel={t('common.cancel')}
        busy={dialog?.step === 'checking'}
        onCancel={cancel}
        onConfirm={leave}
      >
        {dialog?.step === 'checking' && <p role="status">{t('signOut.checking')}</p>}
        {dialog?.step === 'waiting' && <p>{t('signOut.waiting', { count: dialog.count })}</p>}
        {dialog?.step === 'unknown' && <p>{t('signOut.unknown')}</p>}
      </ConfirmDialog>
    ),
  };
}

export function UserMenu({
  user,
  waiting,
  onNavigate,
}: {
  user: User;
  waiting: number;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const leave = useSignOut(user.id);
  const container = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const display = verificationDisplay(user.company);
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !container.current?.contains(event.target as Node)
      ) {
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div className="user-menu" ref={container}>
      <button
        type="button"
        className="user-menu__toggle"
        aria-expanded={open}
        aria-controls="user-menu-panel"
        onClick={() => setOpen((o) => !o)}
      >
        {user.firstName}
        <span aria-hidden="true"> ▾</span>
      </button>
      <div id="user-menu-panel" className="user-menu__panel" hidden={!open}>
        <p className="user-menu__name">
          {user.firstName} {user.lastName}
        </p>
        <p className="user-menu__email">{user.email}</p>
        {user.company && (
          <p>
            <span className={`chip chip--${display}`}>
              {t(`company.badge.${display === 'verified' ? 'verified' : 'pending'}`)}
            </span>
          </p>
        )}
        <ul>
          {user.role === 'ADMIN' && (
            <li>
              <Link to="/admin" onClick={onNavigate}>
                {t('admin.nav.backOffice')}
              </Link>
            </li>
          )}
          {user.role === 'SALES_REP' && (
            <li>
              <Link to="/rep" onClick={onNavigate}>
                {t('fieldSales.nav.customers')}
              </Link>
            </li>
          )}
          <li>
            <Link to="/profile" onClick={onNavigate}>
              {t('nav.profile')}
            </Link>
          </li>
          {/* Staff and reps have no company: no cart, orders or sync of their own. */}
          {user.role === 'USER' && (
            <>
              <li>
                <Link to="/cart" onClick={onNavigate}>
                  {t('nav.cart')}
                </Link>
              </li>
              <li>
                <Link to="/orders" onClick={onNavigate}>
                  {t('nav.orders')}
                </Link>
              </li>
              <li>
                <Link to="/orders/quick" onClick={onNavigate}>
                  {t('quickOrder.title')}
                </Link>
              </li>
              {/* Only a company that may order keeps lists, as only it has a cart. */}
              {display === 'verified' && (
                <li>
                  <Link to="/orders/lists" onClick={onNavigate}>
                    {t('lists.title')}
                  </Link>
                </li>
              )}
              <li>
                <Link to="/sync" onClick={onNavigate}>
                  {t('nav.sync')}
                  {waiting > 0 && <span className="badge">{waiting}</span>}
                </Link>
              </li>
            </>
          )}
        </ul>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => {
            onNavigate();
            leave.request();
          }}
        >
          {t('nav.logout')}
        </button>
      </div>
      {leave.dialog}
    </div>
  );
}
