import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { useToast } from '../components/toast';
import { LANGUAGES } from '../contracts/languages';
import { useUser } from '../lib/auth/session';
import { currentLanguage, loadAllTexts, switchLanguage } from '../lib/i18n';
import { useCart, useOutboxSummary } from '../lib/sync/use-device-data';

/** The signed-in user's menu: its own chunk, as visitors never need it. */
const UserMenu = lazy(() =>
  Promise.all([import('./user-menu'), loadAllTexts()]).then(([m]) => ({ default: m.UserMenu })),
);

export function Header() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  // Staff and reps have no company: the salon's links (cart, sync) are not theirs.
  const salon = user?.role === 'USER';
  const { cart } = useCart();
  const { waiting } = useOutboxSummary();
  const notify = useToast();
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
              {salon && (
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
              {salon && waiting > 0 && (
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
          {user && (
            <Suspense fallback={<span className="user-menu">{user.firstName}</span>}>
              <UserMenu user={user} waiting={waiting} onNavigate={close} />
            </Suspense>
          )}
          <div className="language-switcher" role="group" aria-label={t('nav.language')}>
            {LANGUAGES.map((lng) => (
              <button
                key={lng}
                type="button"
                lang={lng}
                aria-pressed={language === lng}
                aria-label={t(`nav.languages.${lng}`)}
                onClick={() => {
                  // Offline, only the languages already used on this device are there.
                  switchLanguage(lng).catch(() => notify(t('nav.languageNeedsNetwork'), 'error'));
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
