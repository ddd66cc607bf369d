import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BRAND } from '../contracts/brand';
import { isEmailAddress } from '../contracts/email';
import { subscribeToNewsletter } from '../lib/api/catalogue';
import { statusOf } from '../lib/api/errors';
import { currentLanguage } from '../lib/i18n';
import { useHydrated, useTypingBeforeHydration } from '../lib/typing-before-hydration';
import { installApp, usePwaState } from '../lib/pwa/register-service-worker';
import { checkConnectivity } from '../lib/sync/connectivity';
import { useCategories } from '../lib/sync/use-catalogue';

type NewsletterState =
  'idle' | 'sending' | 'done' | 'invalid' | 'offline' | 'serverFailed' | 'failed';

function Newsletter() {
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState('');
  useTypingBeforeHydration('newsletter-email', setEmail);
  // Sent by the page only: before hydration, the button waits.
  const hydrated = useHydrated();
  const [state, setState] = useState<NewsletterState>('idle');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!isEmailAddress(address)) return setState('invalid');
    setState('sending');
    try {
      await subscribeToNewsletter(address, currentLanguage(i18n.language));
      setState('done');
      setEmail('');
    } catch (error) {
      const status = statusOf(error);
      if (status !== undefined) return setState(status >= 500 ? 'serverFailed' : 'failed');
      // No response: offline only if the server cannot be reached, not because this call failed.
      setState((await checkConnectivity()) === 'offline' ? 'offline' : 'failed');
    }
  };

  const message =
    state === 'idle' || state === 'sending'
      ? ''
      : t(`footer.newsletter.${state === 'done' ? 'success' : state}`);

  return (
    <form className="newsletter" onSubmit={(event) => void submit(event)} noValidate>
      <h2>{t('footer.newsletter.title')}</h2>
      <p>{t('footer.newsletter.text')}</p>
      <label htmlFor="newsletter-email">{t('footer.newsletter.emailLabel')}</label>
      <div className="newsletter__row">
        <input
          id="newsletter-email"
          type="email"
          autoComplete="email"
          value={email}
          placeholder={t('footer.newsletter.placeholder')}
          aria-invalid={state === 'invalid'}
          aria-describedby="newsletter-message"
          onChange={(event) => {
            setEmail(event.target.value);
            if (state === 'invalid') setState('idle');
          }}
        />
        <button type="submit" className="button" disabled={!hydrated || state === 'sending'}>
          {t('footer.newsletter.submit')}
        </button>
      </div>
      <p
        id="newsletter-message"
        role={state === 'done' ? 'status' : message ? 'alert' : undefined}
        className="newsletter__message"
      >
        {message}
      </p>
    </form>
  );
}

/** Install the portal to the home screen, when the browser allows it. */
function InstallApp() {
  const { t } = useTranslation();
  const { canInstall, installed, iosInstructions } = usePwaState();
  if (installed) return null;
  if (canInstall) {
    return (
      <button
        type="button"
        className="button button--light button--small"
        onClick={() => void installApp()}
      >
        {t('pwa.install')}
      </button>
    );
  }
  if (!iosInstructions) return null;
  return (
    <details className="ios-install">
      <summary>{t('pwa.iosTitle')}</summary>
      <p>{t('pwa.iosText')}</p>
    </details>
  );
}

export function Footer() {
  const { t } = useTranslation();
  const categories = useCategories();
  return (
    <footer className="site-footer">
      <div className="site-footer__grid">
        <section>
          <h2>{t('app.name')}</h2>
          <p>{t('footer.description')}</p>
          <ul className="contact-list">
            {BRAND.address && (
              <li>
                {t('footer.address')}: {BRAND.address}
              </li>
            )}
            {BRAND.phone && (
              <li>
                {t('footer.phone')}: <a href={`tel:${BRAND.phone}`}>{BRAND.phone}</a>
              </li>
            )}
            {BRAND.email && (
              <li>
                {t('footer.email')}: <a href={`mailto:${BRAND.email}`}>{BRAND.email}</a>
              </li>
            )}
          </ul>
        </section>
        <nav aria-label={t('footer.products')}>
          <h2>{t('footer.products')}</h2>
          <ul>
            <li>
              <Link to="/products">{t('footer.allProducts')}</Link>
            </li>
            <li>
              <Link to="/products?sort=newest">{t('footer.newArrivals')}</Link>
            </li>
            {categories.map((category) => (
              <li key={category.id}>
                <Link to={`/products?category=${category.id}`}>
                  {t(`categories.${category.slug}`, { defaultValue: category.name })}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={t('footer.support')}>
          <h2>{t('footer.support')}</h2>
          <ul>
            {(['faq', 'shipping', 'returns', 'warranty'] as const).map((page) => (
              <li key={page}>
                <Link to={`/support/${page}`}>{t(`footer.supportLinks.${page}`)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <Newsletter />
      </div>
      <div className="site-footer__bottom">
        <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
        <InstallApp />
        <ul>
          <li>
            <Link to="/terms">{t('footer.terms')}</Link>
          </li>
          <li>
            <Link to="/privacy">{t('footer.privacy')}</Link>
          </li>
        </ul>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        >
          ↑ {t('footer.backToTop')}
        </button>
      </div>
    </footer>
  );
}
