import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageMeta } from '../../components/page-meta';

export function HomePage() {
  const { t } = useTranslation();
  return (
    <div className="home">
      <PageMeta
        title={t('meta.homeTitle')}
        description={t('meta.homeDescription')}
        keywords={t('meta.keywords')}
        path="/"
      />
      <section className="hero">
        <div className="hero__content">
          <p className="hero__eyebrow">{t('app.tagline')}</p>
          <h1>{t('home.heroTitle')}</h1>
          <p>{t('home.heroText')}</p>
          <div className="hero__actions">
            <Link className="button button--large" to="/products">
              {t('home.ctaProducts')}
            </Link>
            <Link className="button button--large button--light" to="/register">
              {t('home.ctaRegister')}
            </Link>
          </div>
        </div>
      </section>
      <section className="page home__intro">
        <p>{t('home.intro')}</p>
      </section>
    </div>
  );
}
