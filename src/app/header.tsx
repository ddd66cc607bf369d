import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { LANGUAGES } from '../contracts/languages';
import { currentLanguage } from '../lib/i18n';

export function Header() {
  const { t, i18n } = useTranslation();
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
            </ul>
          </nav>
          <div className="language-switcher" role="group" aria-label={t('nav.language')}>
            {LANGUAGES.map((lng) => (
              <button
                key={lng}
                type="button"
                lang={lng}
                aria-pressed={language === lng}
                aria-label={t(`nav.languages.${lng}`)}
                onClick={() => {
                  void i18n.changeLanguage(lng);
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
