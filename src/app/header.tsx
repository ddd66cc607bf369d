import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import type React from 'react';
import { verificationDisplay, type User } from '../contracts/accounts';
import { LANGUAGES } from '../contracts/languages';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useUser } from '../lib/auth/session';
import { currentLanguage, switchLanguage } from '../lib/i18n';
import { loadSyncEngine } from '../lib/sync/engine-loader';
import { useCart, useOutboxSummary } from '../lib/sync/views';

/** Signing out, after a warning when changes are still waiting to be sent. */
function useSignOut(waiting: number): { request: () => void; dialog: React.ReactNode } {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const leave = () => {
    setOpen(false);
    void loadSyncEngine()
      .then((engine) => engine.signOut())
      .then(() => navigate('/'));
  };
  return {
    request: () => (waiting > 0 ? setOpen(true) : leave()),
    dialog: (
      <ConfirmDialog
        open={open}
        title={t('signOut.title')}
        confirmLabel={t('nav.logout')}
        cancelLabel={t('common.cancel')}
        onCancel={() => setOpen(false)}
        onConfirm={leave}
      >
        <p>{t('signOut.waiting', { count: waiting })}</p>
      </ConfirmDialog>
    ),
  };
}

function UserMenu({
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
  const leave = useSignOut(waiting);
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
          <li>
            <Link to="/profile" onClick={onNavigate}>
              {t('nav.profile')}
            </Link>
          </li>
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
            <Link to="/sync" onClick={onNavigate}>
              {t('nav.sync')}
              {waiting > 0 && <span className="badge">{waiting}</span>}
            </Link>
          </li>
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

export function Header() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const { cart } = useCart();
  const { waiting } = useOutboxSummary();
  const [menuOpen, setMenuOpen] = useState(false);
  const language = currentLanguage(i18n.language);
  const close = () => setMenuOpen(false);

  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <div className="site-header__bar">
        <Link to="/" className="brand" onClick={close}>
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>{t('app.name')}</span>
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span>
          <span className="visually-hidden">{t(menuOpen ? 'nav.closeMenu' : 'nav.openMenu')}</span>
        </button>
        <div id="site-menu" className={menuOpen ? 'site-menu is-open' : 'site-menu'}>
          <nav aria-label={t('nav.main')}>
            <ul>
              <li>
                <NavLink to="/" end onClick={close}>
                  {t('nav.home')}
                </NavLink>
              </li>
              <li>
                <NavLink to="/products" onClick={close}>
                  {t('nav.products')}
                </NavLink>
              </li>
              {user && (
                <li>
                  <NavLink
                    to="/cart"
                    onClick={close}
                    aria-label={t('nav.cartWithCount', { count: cart.itemCount })}
                  >
                    {t('nav.cart')}
                    {cart.itemCount > 0 && (
                      <span className="badge" aria-hidden="true" data-testid="cart-badge">
                        {cart.itemCount}
                      </span>
                    )}
                  </NavLink>
                </li>
              )}
              {user && waiting > 0 && (
                <li>
                  <NavLink to="/sync" onClick={close} className="sync-link">
                    {t('nav.waiting', { count: waiting })}
                  </NavLink>
                </li>
              )}
              {!user && (
                <>
                  <li>
                    <NavLink to="/login" onClick={close}>
                      {t('nav.login')}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/register" className="button button--small" onClick={close}>
                      {t('nav.register')}
                    </NavLink>
                  </li>
                </>
              )}
            </ul>
          </nav>
          {user && <UserMenu user={user} waiting={waiting} onNavigate={close} />}
          <div className="language-switcher" role="group" aria-label={t('nav.language')}>
            {LANGUAGES.map((lng) => (
              <button
                key={lng}
                type="button"
                lang={lng}
                aria-pressed={language === lng}
                aria-label={t(`nav.languages.${lng}`)}
                onClick={() => {
                  void switchLanguage(lng);
                  close();
                }}
              >
                {lng.toUpperCase()}
              </button>
            ))}
          </div>
        </div>
      </div>
    </header>
  );
}
